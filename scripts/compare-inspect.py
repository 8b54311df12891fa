#!/usr/bin/env python3
"""Referee `cuwb inspect` against Nsight Compute's source counters on the same kernels.

For each case (a project), in one run:
  - `cuwb inspect --json PROJECT`: CUPTI's SASS metrics per instruction, as the workbench
    collects them, and the wall time from the command to its answer;
  - the same kernel compiled by NVRTC through CuPy from the same source and defines and launched
    once by CuPy (scripts/compare-ncu.py's harness) under
    `ncu --section SourceCounters --import-source no` (or `--set full` with --full), then `ncu --page source --print-source
    sass --csv`: Nsight Compute's counters per instruction, and the wall time of that ncu run;
  - per instruction (matched by offset from the kernel's first instruction, after checking that
    both have the same instructions), the warp instructions executed, the global sectors and
    their ideal, and the L1 tag requests; the same summed per source line (the workbench's line
    table); and the three lines with the most PC (warp-stall) samples in each.
Prints one Markdown table per case and a summary (docs/results/h200-inspect keeps the recorded
ones). The counts are exact: any difference is a mismatch.

Needs a GPU, `ncu` on PATH, python3 with CuPy and NumPy, and a `cuwb`:

    scripts/compare-inspect.py --cuwb build/release/bin/cuwb [--json OUT.json] [PROJECT...]
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
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CASES = [
    "samples/strided/strided.cuwb",
    "samples/transpose/transpose.cuwb",
    "samples/transpose/transpose_shared.cuwb",
    "samples/transpose/transpose_padded.cuwb",
    "samples/matmul/matmul_naive.cuwb",
    "samples/matmul/matmul_tiled.cuwb",
    "tests/realworld/kt_matmul/matmul.cuwb",
    "tests/realworld/cs_matrixMul/matrixMul_block16.cuwb",
]

# (what, cuwb's SASS metric, ncu's source-page column)
COUNTERS = [
    ("warp instructions", "smsp__sass_inst_executed", "Instructions Executed"),
    ("global sectors", "smsp__sass_sectors_mem_global", "L2 Theoretical Sectors Global"),
    ("ideal sectors", "smsp__sass_sectors_mem_global_ideal", "L2 Theoretical Sectors Global Ideal"),
    ("L1 tag requests", "smsp__sass_l1tex_tags_mem_global", "L1 Tag Requests Global"),
]
STALLS = "Warp Stall Sampling (All Samples)"


def run_timed(command, cwd=None):
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    return done, time.monotonic() - start


def cuwb_inspect(cuwb, project):
    done, seconds = run_timed(shlex.split(cuwb) + ["inspect", "--json", project])
    if done.returncode != 0:
        raise RuntimeError("cuwb inspect failed: " + done.stderr[-2000:])
    return json.loads(done.stdout), seconds


def ncu_sections(report):
    """The source page of every kernel in `report`: {kernel name: (header, rows)}."""
    done = subprocess.run(["ncu", "-i", report, "--page", "source", "--csv", "--print-source",
                           "sass"], capture_output=True, text=True)
    sections = {}
    current = None
    for row in csv.reader(io.StringIO(done.stdout)):
        if not row:
            continue
        if row[0] == "Kernel Name":
            current = sections.setdefault(row[1], {"header": None, "rows": []})
        elif row[0] == "Address" and current is not None:
            current["header"] = row
        elif current is not None and row[0].startswith("0x"):
            current["rows"].append(row)
    return sections


def ncu_source_counters(project, kernel, full):
    folder = os.path.dirname(os.path.abspath(project))
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "inspect")
        what = ["--set", "full"] if full else ["--section", "SourceCounters"]
        command = ["ncu"] + what + ["--import-source", "no",
                   "-k", "regex:^" + kernel + "$", "-f", "-o", report] + (
                   # a C++ kernel: cuwb names it by its lowered (mangled) name
                   ["--kernel-name-base", "mangled"] if kernel.startswith("_Z") else []) + [
                   sys.executable, os.path.join(HERE, "compare-ncu.py"), "--harness",
                   os.path.basename(project), "--launches", "1"]
        done, seconds = run_timed(command, cwd=folder)
        if done.returncode != 0:
            raise RuntimeError("ncu failed: " + done.stdout[-1500:] + done.stderr[-1500:])
        sections = ncu_sections(report + ".ncu-rep")
    if kernel not in sections and len(sections) == 1:
        kernel = next(iter(sections))  # the one kernel profiled, named as ncu names it
    if kernel not in sections:
        raise RuntimeError("ncu's report has no kernel " + kernel + " (it has " +
                           ", ".join(sections) + ")")
    section = sections[kernel]
    header = section["header"]
    base = int(section["rows"][0][0], 16)
    by_offset = {}
    for row in section["rows"]:
        cells = dict(zip(header, row))
        values = {}
        for column in [c[2] for c in COUNTERS] + [STALLS]:
            text = cells.get(column, "0").replace(",", "")
            values[column] = int(float(text)) if text not in ("", "-") else 0
        values["source"] = cells.get("Source", "").strip()
        by_offset[int(row[0], 16) - base] = values
    return by_offset, seconds


def compare(cuwb, project, full):
    ours, cuwb_seconds = cuwb_inspect(cuwb, project)
    result = ours["result"]
    kernel = result["kernel"]
    theirs, ncu_seconds = ncu_source_counters(project, kernel, full)
    mine = {i["offset"]: i for i in result["instructions"]}
    report = {"project": project, "kernel": kernel, "cuwbSeconds": cuwb_seconds,
              "ncuSeconds": ncu_seconds, "instructions": len(theirs)}
    # Instructions CUPTI did not report executed none; ncu lists every instruction.
    executed = {o for o, v in theirs.items() if v["Instructions Executed"] > 0}
    if not executed <= set(mine):
        report["error"] = ("the two compiles differ: ncu executed instructions at offsets the "
                           "workbench has not (%s)" % sorted(executed - set(mine))[:5])
        return report
    lines = {o: mine[o]["line"] for o in mine}
    # PC samples land where no instruction is counted too: on the branch that ends the code,
    # where exited warps wait for their stores to drain.
    for sampled in result.get("stalls", []):
        lines.setdefault(sampled["offset"], sampled["line"])
    mismatches = []
    totals = {}
    per_line = {}
    for offset, values in theirs.items():
        line = lines.get(offset, 0)
        for what, metric, column in COUNTERS:
            a = mine.get(offset, {}).get("values", {}).get(metric, 0)
            b = values[column]
            totals.setdefault(what, [0, 0])
            totals[what][0] += a
            totals[what][1] += b
            entry = per_line.setdefault((line, what), [0, 0])
            entry[0] += a
            entry[1] += b
            if a != b:
                mismatches.append((hex(offset), what, a, b))
    report["totals"] = {what: {"cuwb": t[0], "ncu": t[1]} for what, t in totals.items()}
    report["instructionMismatches"] = mismatches
    report["lineMismatches"] = [
        {"line": line, "what": what, "cuwb": v[0], "ncu": v[1]}
        for (line, what), v in sorted(per_line.items()) if v[0] != v[1]]
    report["lines"] = len({line for (line, _) in per_line if line})
    # The three lines with the most PC samples, each with its share of the kernel's samples.
    def top_three(samples):
        total = float(sum(samples.values())) or 1.0
        ranked = sorted(((n, line) for line, n in samples.items() if line), reverse=True)[:3]
        return [[line, n / total] for n, line in ranked]

    stalls = {}
    for offset, values in theirs.items():
        stalls[lines.get(offset, 0)] = stalls.get(lines.get(offset, 0), 0) + values[STALLS]
    report["ncuTopStallLines"] = top_three(stalls)
    report["cuwbTopStallLines"] = top_three(
        {line["line"]: line.get("stallSamples", 0) for line in ours["lines"]})
    findings = []
    for line in ours["lines"]:
        findings += ["%d: %s" % (line["line"], f["message"]) for f in line["findings"]]
    report["findings"] = findings
    return report


def stall_cell(ours, theirs):
    """`20 (51 %), 19 (34 %) / ...`, bold where the lines or their order differ."""
    text = lambda top: ", ".join("%d (%.0f %%)" % (line, 100 * share) for line, share in top)
    same = [line for line, _ in ours] == [line for line, _ in theirs]
    cell = text(ours) + " / " + text(theirs)
    return cell if same else "**" + cell + "**"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuwb", required=True, help="the cuwb command, e.g. build/release/bin/cuwb")
    parser.add_argument("--json", help="write the full comparison here")
    parser.add_argument("--full", action="store_true",
                        help="run ncu with --set full (what a user of Nsight Compute collects) "
                             "instead of the SourceCounters section alone")
    parser.add_argument("projects", nargs="*", help="projects (default: the built-in cases)")
    args = parser.parse_args()
    os.chdir(ROOT)
    reports = []
    for project in args.projects or CASES:
        try:
            reports.append(compare(args.cuwb, project, args.full))
        except Exception as error:  # a case that cannot run is reported, the rest go on
            reports.append({"project": project, "error": str(error)})
    print("| project | kernel | instructions (lines) | warp inst. cuwb = ncu | sectors cuwb = ncu "
          "| ideal = | L1 tag req. = | mismatches | top stall lines: cuwb / ncu | cuwb inspect | ncu "
          "(%s) | findings |" % ("--set full" if args.full else "SourceCounters"))
    print("|---|---|---:|---|---|---|---|---:|---|---:|---:|---|")
    for r in reports:
        if "error" in r:
            print("| %s | %s | | | | | | | | | | %s |" % (r["project"], r.get("kernel", ""),
                                                        r["error"].replace("\n", " ")[:300]))
            continue
        t = r["totals"]
        cell = lambda what: "%d = %d" % (t[what]["cuwb"], t[what]["ncu"]) \
            if t[what]["cuwb"] == t[what]["ncu"] else "**%d ≠ %d**" % (t[what]["cuwb"], t[what]["ncu"])
        print("| %s | %s | %d (%d) | %s | %s | %s | %s | %d | %s | %.2f s | %.2f s | %s |" % (
            r["project"], r["kernel"], r["instructions"], r["lines"], cell("warp instructions"),
            cell("global sectors"), cell("ideal sectors"), cell("L1 tag requests"),
            len(r["instructionMismatches"]),
            stall_cell(r["cuwbTopStallLines"], r["ncuTopStallLines"]),
            r["cuwbSeconds"], r["ncuSeconds"], "; ".join(r["findings"]) or "none"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(reports, f, indent=1)
    return 0 if all("error" not in r and not r["instructionMismatches"] for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
