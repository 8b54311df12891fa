#!/usr/bin/env python3
"""Referee `cuwb measure --roofline` against Nsight Compute's speed of light and roofline.

For each case (a project), in one run:
  - `cuwb measure --roofline --json --hot --cap 2 PROJECT`: the metrics pass's speed-of-light
    percentages (compute, memory, DRAM, L2, L1) and the roofline point (FLOPs, an FMA as two,
    over the kernel's time; FLOPs per DRAM byte);
  - the same kernel compiled by NVRTC through CuPy from the same source and defines, launched
    once (scripts/compare-ncu.py's harness) under `ncu --section SpeedOfLight --section
    SpeedOfLight_RooflineChart --cache-control all --clock-control none`, read back with
    `--page raw`: the same percentages, and the roofline point as Nsight Compute's roofline
    section computes it (executed add, mul and 2 x fma thread instructions per elapsed cycle,
    times the cycles per second; over DRAM bytes per second);
  - the differences: percentage points for speed of light, per cent for the roofline.
Prints one Markdown table (docs/results/h200-roofline keeps the recorded one). The issue's
bar: speed of light within 2 points, achieved FLOP/s and arithmetic intensity within 2 %.

Needs a GPU, `ncu` on PATH, python3 with CuPy and NumPy, and a `cuwb`:

    scripts/compare-roofline.py --cuwb build/release/bin/cuwb [--json OUT.json] [PROJECT...]
"""
import argparse
import csv
import io
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CASES = [
    "samples/vector_add/vector_add.cuwb",
    "samples/saxpy/saxpy.cuwb",
    "samples/transpose/transpose.cuwb",
    "samples/matmul/matmul_naive.cuwb",
    "samples/matmul/matmul_tiled.cuwb",
    "tests/realworld/cs_matrixMul/matrixMul_block16.cuwb",
    "tests/realworld/kt_matmul/matmul.cuwb",
]

# cuwb's speed-of-light key, ncu's metric.
SPEED_OF_LIGHT = [
    ("computePercent", "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("memoryPercent", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"),
    ("dramPercent", "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("l2Percent", "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("l1Percent", "l1tex__throughput.avg.pct_of_peak_sustained_active"),
]
# What ncu's roofline section reads, per precision: (add, mul, fma) per elapsed cycle.
PRECISIONS = {
    "FP32": ("fadd", "fmul", "ffma"),
    "FP64": ("dadd", "dmul", "dfma"),
    "FP16": ("hadd", "hmul", "hfma"),
}
CYCLES_PER_SECOND = "smsp__cycles_elapsed.avg.per_second"
DRAM_PER_SECOND = "dram__bytes.sum.per_second"


def op_metric(op):
    return "smsp__sass_thread_inst_executed_op_%s_pred_on.sum.per_cycle_elapsed" % op


def ncu_metrics():
    names = [m for _, m in SPEED_OF_LIGHT] + [CYCLES_PER_SECOND, DRAM_PER_SECOND,
                                              "gpu__time_duration.sum"]
    for ops in PRECISIONS.values():
        names += [op_metric(op) for op in ops]
    return names


def cuwb_roofline(cuwb, project):
    command = shlex.split(cuwb) + ["measure", "--roofline", "--json", "--hot", "--cap", "2",
                                   project]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("cuwb measure failed: " + done.stderr[-2000:])
    document = json.loads(done.stdout)
    if "roofline" not in document:
        raise RuntimeError("cuwb measure gave no roofline: " + done.stderr[-1000:])
    return document


def ncu_values(project, kernel):
    folder = os.path.dirname(os.path.abspath(project))
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "roofline")
        command = ["ncu", "--section", "SpeedOfLight", "--section", "SpeedOfLight_RooflineChart",
                   "--metrics", ",".join(ncu_metrics()), "--cache-control", "all",
                   "--clock-control", "none", "-k", "regex:^" + kernel + "$", "-f", "-o", report,
                   sys.executable, os.path.join(HERE, "compare-ncu.py"), "--harness",
                   os.path.basename(project), "--launches", "1"]
        done = subprocess.run(command, capture_output=True, text=True, cwd=folder)
        if done.returncode != 0:
            raise RuntimeError("ncu failed: " + done.stdout[-1500:] + done.stderr[-1500:])
        raw = subprocess.run(["ncu", "-i", report + ".ncu-rep", "--page", "raw", "--csv",
                              "--print-units", "base"], capture_output=True, text=True)
    rows = list(csv.reader(io.StringIO(raw.stdout)))
    if len(rows) < 3:
        raise RuntimeError("ncu's raw page is empty: " + raw.stderr[-1000:])
    header, data = rows[0], rows[2]  # rows[1] holds the units

    def value(name):
        text = dict(zip(header, data)).get(name, "").replace(",", "")
        return float(text) if text not in ("", "n/a") else None

    return value


def relative(ours, theirs):
    if theirs in (None, 0) or ours is None:
        return None
    return 100.0 * (ours - theirs) / theirs


def compare(cuwb, project):
    ours = cuwb_roofline(cuwb, project)
    kernel = ours.get("provenance", {}).get("kernel")
    if not kernel:
        raise RuntimeError("cuwb did not name the kernel")
    value = ncu_values(project, kernel)
    report = {"project": project, "kernel": kernel, "speedOfLight": {}}
    for key, metric in SPEED_OF_LIGHT:
        a = ours["speedOfLight"].get(key)
        b = value(metric)
        report["speedOfLight"][key] = {"cuwb": a, "ncu": b,
                                       "points": None if a is None or b is None else a - b}
    cycles = value(CYCLES_PER_SECOND) or 0.0
    flops_per_second = 0.0
    for add, mul, fma in PRECISIONS.values():
        flops_per_second += cycles * ((value(op_metric(add)) or 0.0) +
                                      (value(op_metric(mul)) or 0.0) +
                                      2.0 * (value(op_metric(fma)) or 0.0))
    dram = value(DRAM_PER_SECOND) or 0.0
    intensity = flops_per_second / dram if dram > 0 else 0.0
    roof = ours["roofline"]
    report["roofline"] = {
        "flopsPerSecond": {"cuwb": roof["flopsPerSecond"], "ncu": flops_per_second,
                           "percent": relative(roof["flopsPerSecond"], flops_per_second)},
        "intensity": {"cuwb": roof["intensity"], "ncu": intensity,
                      "percent": relative(roof["intensity"], intensity)},
        "seconds": {"cuwb": roof["seconds"], "ncu": (value("gpu__time_duration.sum") or 0) * 1e-9},
    }
    return report


def within(report):
    points = [abs(v["points"]) for v in report["speedOfLight"].values() if v["points"] is not None]
    rates = [abs(v["percent"]) for v in (report["roofline"]["flopsPerSecond"],
                                         report["roofline"]["intensity"])
             if v["percent"] is not None]
    return (max(points) if points else None), (max(rates) if rates else None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuwb", required=True, help="the cuwb command, e.g. build/release/bin/cuwb")
    parser.add_argument("--json", help="write the full comparison here")
    parser.add_argument("projects", nargs="*", help="projects (default: the built-in cases)")
    args = parser.parse_args()
    os.chdir(ROOT)
    reports = []
    for project in args.projects or CASES:
        try:
            reports.append(compare(args.cuwb, project))
        except Exception as error:  # a case that cannot run is reported, the rest go on
            reports.append({"project": project, "error": str(error)})

    def pair(entry, scale=1.0, form="%.1f"):
        a, b = entry["cuwb"], entry["ncu"]
        return ("?" if a is None else form % (a * scale)) + " / " + \
            ("?" if b is None else form % (b * scale))

    print("| project | kernel | compute % cuwb / ncu | memory % | DRAM % | L2 % | L1 % "
          "| GFLOP/s cuwb / ncu | FLOP/byte cuwb / ncu | worst SOL diff (points) "
          "| worst roofline diff (%) |")
    print("|---|---|---|---|---|---|---|---|---|---:|---:|")
    for r in reports:
        if "error" in r:
            print("| %s | | | | | | | | | | %s |" % (r["project"],
                                                   r["error"].replace("\n", " ")[:300]))
            continue
        sol = r["speedOfLight"]
        roof = r["roofline"]
        points, rates = within(r)
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["project"], r["kernel"], pair(sol["computePercent"]), pair(sol["memoryPercent"]),
            pair(sol["dramPercent"]), pair(sol["l2Percent"]), pair(sol["l1Percent"]),
            pair(roof["flopsPerSecond"], 1e-9), pair(roof["intensity"], 1.0, "%.3g"),
            "?" if points is None else "%.2f" % points,
            "?" if rates is None else "%.2f" % rates))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(reports, f, indent=2)
    failed = [r for r in reports if "error" in r]
    outside = [r for r in reports if "error" not in r and
               ((within(r)[0] or 0) > 2.0 or (within(r)[1] or 0) > 2.0)]
    print("\n%d cases, %d failed to run, %d outside 2 points / 2 %%" %
          (len(reports), len(failed), len(outside)))
    return 1 if failed or outside else 0


if __name__ == "__main__":
    sys.exit(main())
