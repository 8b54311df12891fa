#!/usr/bin/env python3
"""Referee `cuwb measure` against Nsight Compute on the same kernels, in one run.

For each case (a sample project, with its block or variables changed), this measures:
  - `cuwb measure --cold` and `--hot` (CUPTI kernel records, the workbench's default figure),
    and again with `--timer profiler` (the profiler's gpu__time_duration, 200 samples);
  - the same kernel, compiled by NVRTC through CuPy from the same source and defines and
    launched by CuPy with the same grid, block and buffer sizes, under
    `ncu --cache-control all|none --clock-control none --metrics gpu__time_duration.sum`:
    the median over the launches ncu timed;
  - for the copy samples, the metrics pass's DRAM bytes against the declared bytes.
and prints one Markdown table (docs/measurement.md keeps the recorded one).

Needs a GPU, `ncu` on PATH, python3 with CuPy and NumPy, and a `cuwb` (the --cuwb option:
a command, e.g. "build/release/bin/cuwb" or "/tmp/portable/run cuwb").

    scripts/compare-ncu.py --cuwb build/release/bin/cuwb [--launches 20] [--json OUT.json]

The same file is also the CuPy harness that ncu runs (--harness PROJECT: launch its kernel
--launches times and exit).
"""
import argparse
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import types

# (label, project, launch overrides, metrics pass): blocks 128/256/1024 of the copy (memory
# bound), the tiled matrix product (compute bound), the float4 copy, and a vector add of 10^7
# floats whose 37-39 µs make it a short kernel.
CASES = [
    ("copy, block 128", "samples/copy/copy.cuwb", {"block.x": "128"}, False),
    ("copy, block 256", "samples/copy/copy.cuwb", {"block.x": "256"}, True),
    ("copy, block 1024", "samples/copy/copy.cuwb", {"block.x": "1024"}, False),
    ("copy_float4, block 256", "samples/copy/copy_float4.cuwb", {}, True),
    ("matmul_tiled 2048, tile 16", "samples/matmul/matmul_tiled.cuwb", {}, False),
    ("vector_add 10^7, block 192", "samples/vector_add/vector_add.cuwb",
     {"block.x": "192", "N": "10000000"}, False),
    ("vector_add 10^7, block 512", "samples/vector_add/vector_add.cuwb",
     {"block.x": "512", "N": "10000000"}, False),
]

NUMPY_TYPES = {
    "float": "float32", "double": "float64", "int": "int32", "unsigned int": "uint32",
    "long long": "int64", "unsigned long long": "uint64", "short": "int16",
    "unsigned short": "uint16", "char": "int8", "unsigned char": "uint8",
}


def project_with(path, overrides, folder):
    """A copy of the project with its block.x and variables overridden, written to folder."""
    with open(path) as f:
        project = json.load(f)
    source = project["source"]
    if "path" in source:
        source["path"] = os.path.abspath(os.path.join(os.path.dirname(path), source["path"]))
    launch = project["launch"]
    for name, value in overrides.items():
        if name == "block.x":
            launch["block"][0] = value
            continue
        for variable in launch.get("variables", []):
            if variable["name"] == name:
                variable["value"] = value
    project.pop("sweep", None)
    out = os.path.join(folder, os.path.basename(path))
    with open(out, "w") as f:
        json.dump(project, f)
    return out


def evaluate(expression, names):
    """A launch expression (muparser syntax as the samples use it) in Python."""
    return eval(str(expression), {"__builtins__": {}, "ceil": math.ceil, "floor": math.floor,
                                  "min": min, "max": max}, names)


def harness(project_path, launches):
    """Launches the project's kernel `launches` times through CuPy (what ncu times)."""
    import cupy
    import numpy

    with open(project_path) as f:
        project = json.load(f)
    with open(project["source"]["path"]) as f:
        source = f.read()
    options = project.get("compileOptions", {})
    flags = ["-D" + d for d in options.get("defines", [])]
    if options.get("lineInfo"):
        flags.append("-lineinfo")
    launch = project["launch"]

    names = {}
    for variable in launch.get("variables", []):
        names[variable["name"]] = evaluate(variable["value"], names)
    # The launch's defines are names in its expressions and -D options of the compile; with
    # tunerDefines, the block's size is defined as Kernel Tuner's block_size_x/y/z.
    for define in launch.get("defines", []):
        text = str(define["value"])
        try:
            value = evaluate(text, names)
            names[define["name"]] = value
            text = str(int(value)) if float(value).is_integer() else repr(value)
        except Exception:  # not a number (a type, a token): passed on as written
            pass
        flags.append("-D%s=%s" % (define["name"], text))
    block = [int(evaluate(b, names)) for b in launch["block"]]
    names["block"] = types.SimpleNamespace(x=block[0], y=block[1], z=block[2])
    if launch.get("tunerDefines"):
        for axis, size in zip("xyz", block):
            flags.append("-Dblock_size_%s=%d" % (axis, size))
    # A name expression finds C++ kernels (mangled names) as well as extern "C" ones.
    module = cupy.RawModule(code=source, options=tuple(flags),
                            name_expressions=(launch["kernel"],))
    kernel = module.get_function(launch["kernel"])
    grid = [int(evaluate(g, names)) for g in launch["grid"]]
    arguments = []
    for argument in launch["arguments"]:
        dtype = numpy.dtype(NUMPY_TYPES[argument["elementType"]])
        if argument["kind"] == "buffer":
            count = int(evaluate(argument["count"], names))
            if dtype.kind == "f":
                arguments.append(cupy.random.random(count, dtype=numpy.float64).astype(dtype))
            else:
                arguments.append(cupy.arange(count, dtype=dtype))
        else:
            arguments.append(dtype.type(evaluate(argument["value"], names)))
    shared = int(evaluate(launch.get("dynamicSharedBytes", "0"), names))
    for _ in range(launches):
        kernel(tuple(grid), tuple(block), tuple(arguments), shared_mem=shared)
    cupy.cuda.runtime.deviceSynchronize()


def ncu_median_us(project_path, kernel, cache, launches):
    command = ["ncu", "--cache-control", cache, "--clock-control", "none",
               "--metrics", "gpu__time_duration.sum", "--csv", "--print-units", "base",
               "-k", "regex:^" + kernel + "$", "--launch-skip", "1",
               sys.executable, os.path.abspath(__file__), "--harness", project_path,
               "--launches", str(launches + 1)]
    done = subprocess.run(command, capture_output=True, text=True)
    times = []
    for line in done.stdout.splitlines():
        cells = [c.strip('"') for c in line.split('","')]
        if len(cells) > 3 and cells[-3] == "gpu__time_duration.sum":
            times.append(float(cells[-1].strip('"').replace(",", "")) / 1e3)
    if not times:
        raise RuntimeError("ncu timed nothing:\n" + done.stdout[-2000:] + done.stderr[-2000:])
    return statistics.median(times), len(times)


def cuwb_measure(cuwb, project_path, mode, metrics=False, timer=None):
    command = shlex.split(cuwb) + ["measure", project_path, "--json", "--" + mode, "--cap", "5"]
    if metrics:
        command.append("--metrics")
    if timer:
        # The profiler costs host time per sample: a fixed count keeps the run short.
        command += ["--timer", timer, "--samples", "200"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(" ".join(command) + " failed:\n" + done.stdout[-2000:] + done.stderr)
    return json.loads(done.stdout)


def percent(ours, reference):
    return 100.0 * (ours - reference) / reference


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cuwb", default="cuwb")
    parser.add_argument("--launches", type=int, default=20)
    parser.add_argument("--harness")
    parser.add_argument("--json")
    parser.add_argument("--only", help="run only the cases whose label contains this")
    args = parser.parse_args()
    if args.harness:
        harness(args.harness, args.launches)
        return 0

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for label, path, overrides, metrics in CASES:
            if args.only and args.only not in label:
                continue
            project = project_with(path, overrides, folder)
            with open(project) as f:
                kernel = json.load(f)["launch"]["kernel"]
            row = {"case": label}
            for mode, cache in (("cold", "all"), ("hot", "none")):
                measured = cuwb_measure(args.cuwb, project, mode, metrics and mode == "cold")
                ours = measured["statistics"]["medianNs"] / 1e3
                reference, count = ncu_median_us(project, kernel, cache, args.launches)
                profiled = cuwb_measure(args.cuwb, project, mode, timer="profiler")
                profiled_us = profiled["statistics"]["medianNs"] / 1e3
                row[mode] = {"cuwb_us": ours, "ncu_us": reference, "ncu_launches": count,
                             "gap_percent": percent(ours, reference),
                             "samples": measured["statistics"]["count"],
                             "profiler_us": profiled_us,
                             "profiler_source": profiled["timingSource"],
                             "profiler_gap_percent": percent(profiled_us, reference)}
                if metrics and mode == "cold":
                    values = measured.get("metrics", {}).get("values", {})
                    declared = measured["throughput"].get("bytes")
                    row["dram"] = {"read": values.get("dram__bytes_read.sum"),
                                   "write": values.get("dram__bytes_write.sum"),
                                   "declared_each": declared / 2 if declared else None}
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)

    print("| case | cold: cuwb / ncu `--cache-control all` (µs) | gap | `--timer profiler` | gap | "
          "hot: cuwb / ncu `--cache-control none` (µs) | gap | `--timer profiler` | gap |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        cells = [row["case"]]
        for mode in ("cold", "hot"):
            m = row[mode]
            cells += [f"{m['cuwb_us']:.2f} / {m['ncu_us']:.2f}", f"{m['gap_percent']:+.2f} %",
                      f"{m['profiler_us']:.2f} ({m['profiler_source']})",
                      f"{m['profiler_gap_percent']:+.2f} %"]
        print("| " + " | ".join(cells) + " |")
    dram = [row for row in rows if "dram" in row]
    if dram:
        print("\n| case | DRAM read | DRAM written | declared each | read gap | write gap |")
        print("|---|---|---|---|---|---|")
        for row in dram:
            d = row["dram"]
            if d["read"] is None or d["declared_each"] is None:
                print(f"| {row['case']} | not collected | | | | |")
                continue
            print(f"| {row['case']} | {d['read']:,.0f} | {d['write']:,.0f} | "
                  f"{d['declared_each']:,.0f} | {percent(d['read'], d['declared_each']):+.3f} % | "
                  f"{percent(d['write'], d['declared_each']):+.3f} % |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
