import csv, io, json, statistics, sys
out = sys.argv[1]
text = open(out + "/ncu.csv").read()
ncu = {}
for part in text.split("## b")[1:]:
    b, _, body = part.partition("\n")
    lines = [l for l in body.splitlines() if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    head = rows[0]; col = head.index("gpu__time_duration.sum")
    unit = rows[1][col] if len(rows) > 1 else ""
    vals = []
    for r in rows[1:]:
        try: vals.append(float(r[col].replace(",", "")))
        except ValueError: pass
    scale = {"ns": 1, "nsecond": 1, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6}.get(unit, 1)
    ncu[b] = [v * scale for v in vals]
print("block  tool_median_us  tool_n  tool_noise%  events_median_us  ncu_median_us  ncu_n  diff%  GB/s  %peak  %ceiling")
for b in ("128", "256", "1024"):
    m = json.load(open(f"{out}/measure-b{b}.json"))
    s = m["statistics"]; t = m["throughput"]
    n = statistics.median(ncu[b]) if ncu.get(b) else float("nan")
    print(f"{b:5}  {s['medianNs']/1e3:14.2f}  {s['count']:6}  {100*s['relativeNoise']:11.3f}  "
          f"{m['eventStatistics']['medianNs']/1e3:16.2f}  {n/1e3:13.2f}  {len(ncu.get(b, [])):5}  "
          f"{100*(s['medianNs']-n)/n:+5.2f}  {t.get('effectiveGBps', 0):7.1f}  {t.get('percentOfPeak', 0):5.1f}  "
          f"{t.get('percentOfCeiling', 0):5.1f}  source={m['timingSource']} fault={m['faultStatus']!r}")
    print("   ncu samples ns:", [round(v) for v in ncu.get(b, [])])
m = json.load(open(f"{out}/measure-float4.json"))
t = m["throughput"]; s = m["statistics"]
print(f"float4: median {s['medianNs']/1e3:.2f} us, n={s['count']}, {t.get('effectiveGBps')} GB/s, "
      f"ceiling {t.get('copyCeilingGBps')} GB/s -> {t.get('percentOfCeiling')} %, peak {t.get('theoreticalPeakGBps')} "
      f"({t.get('percentOfPeak')} %), fault={m['faultStatus']!r}")
print("provenance:", json.dumps(m["provenance"])[:600])
print("notes:", m["notes"])
