#!/usr/bin/env python3
"""The corpus collections' own benchmark programs against Nsight Compute and `cuwb measure`.

Three collections in tests/realworld/ ship a program that times their kernels:
  - SGEMM_CUDA (sg_sgemm/): `sgemm K` times kernel K at 128..4096 with cudaEvents around 50
    back-to-back launches (hot); built as its CMakeLists.txt's Release build does
    (nvcc -O3 -DNDEBUG, -I src, cuBLAS), for sm_90 instead of the file's sm_86;
  - llm.c dev/cuda (lc_devcuda/): `gelu_forward 1` etc. time each kernel at each block size
    with cudaEvents around single launches, each after a memset of an L2-sized buffer
    (cold); built as dev/cuda/Makefile does (nvcc -O3 --use_fast_math -std=c++17, cuBLAS and
    cuBLASLt, -fopenmp for matmul_forward) for sm_90;
  - the CUDA C/C++ blog series (nb_transpose/, nb_finitediff/): cudaEvents around 100 (20)
    back-to-back launches (hot); built with nvcc -O3 for sm_90.
For each kernel (and block size where the program varies it) this builds the program from the
verbatim files, runs it, runs it again under
`ncu --cache-control none|all --clock-control none --metrics gpu__time_duration.sum` (hot and
cold, as docs/measurement.md defines them; the workbench leaves the clocks alone, and so does
ncu here), and runs `cuwb measure` (or `cuwb sweep` over the program's block sizes) --hot and
--cold on the matching project. It writes the raw figures as JSON and a Markdown table: the
program's figure, ncu's median, cuwb's median and their difference, hot with hot and cold with
cold, the best configuration named by each, and what the program's event timing adds.

Needs a GPU, nvcc and ncu on PATH, and a cuwb (default "/tmp/portable/run cuwb"). Nothing is
written inside the repository: the programs are built under OUT/build.

    scripts/realworld-bench.py OUT [--cuwb CMD] [--only blog,sgemm,llmc] [--full] [--build-only]

The default run is estimated at 7-8 minutes on an H200 (blog about 1, SGEMM about 4, llm.c
about 3): every stage's time is logged and kept in the JSON.
"""
import argparse
import concurrent.futures
import csv
import io
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, "tests", "realworld")
NCU = ["ncu", "--clock-control", "none", "--metrics", "gpu__time_duration.sum", "--csv",
       "--print-units", "base"]
CACHE = {"hot": "none", "cold": "all"}

# --- what is built, from which verbatim files, with which command --------------------------

SGEMM_FILES = ["sgemm.cu", "src/runner.cu", "src/runner.cuh", "src/kernels.cuh"] + [
    "src/kernels/" + f for f in (
        "1_naive.cuh", "2_kernel_global_mem_coalesce.cuh", "3_kernel_shared_mem_blocking.cuh",
        "4_kernel_1D_blocktiling.cuh", "5_kernel_2D_blocktiling.cuh", "6_kernel_vectorize.cuh",
        "7_kernel_resolve_bank_conflicts.cuh", "8_kernel_bank_extra_col.cuh",
        "9_kernel_autotuned.cuh", "10_kernel_warptiling.cuh", "11_kernel_double_buffering.cuh",
        "12_kernel_double_buffering.cuh")]
LLMC_PROGRAMS = ["gelu_forward", "residual_forward", "encoder_forward", "layernorm_forward",
                 "matmul_forward", "adamw"]
PROGRAMS = {
    # name: (corpus folder, files to copy, build command)
    "sgemm": ("sg_sgemm", SGEMM_FILES,
              "nvcc -O3 -DNDEBUG -arch=sm_90 -I src sgemm.cu src/runner.cu -o sgemm -lcublas"),
    "transpose": ("nb_transpose", ["transpose.cu"], "nvcc -O3 -arch=sm_90 transpose.cu -o transpose"),
    "finite-difference": ("nb_finitediff", ["finite-difference.cu"],
                          "nvcc -O3 -arch=sm_90 finite-difference.cu -o finite-difference"),
}
for _p in LLMC_PROGRAMS:
    PROGRAMS[_p] = ("lc_devcuda", ["common.h", _p + ".cu"],
                    f"nvcc -O3 --use_fast_math -arch=sm_90 -lcublas -lcublasLt -std=c++17"
                    f"{' -Xcompiler -fopenmp' if _p == 'matmul_forward' else ''} {_p}.cu -o {_p}")

# --- the cases: one program invocation, the kernels it times, the projects that match -------

SGEMM_KERNELS = [
    (1, "sgemm_naive", "01_naive"), (2, "sgemm_global_mem_coalesce", "02_global_mem_coalesce"),
    (3, "sgemm_shared_mem_block", "03_shared_mem_blocking"),
    (4, "sgemm1DBlocktiling", "04_1D_blocktiling"), (5, "sgemm2DBlocktiling", "05_2D_blocktiling"),
    (6, "sgemmVectorize", "06_vectorize"), (7, "sgemmResolveBankConflicts", "07_resolve_bank_conflicts"),
    (8, "sgemmResolveBankExtraCol", "08_bank_extra_col"), (9, "sgemmAutotuned", "09_autotuned"),
    (10, "sgemmWarptiling", "10_warptiling"), (11, "sgemmDoubleBuffering", "11_double_buffering"),
]
# program, argument, kernel, project, how cuwb covers the program's configurations, and
# whether only --full runs it (each llm.c kernel costs about 20 s: the program, two ncu runs,
# two cuwb sweeps)
LLMC_KERNELS = [
    ("gelu_forward", "1", "gelu_forward_kernel1", "gelu_forward_kernel1", "sweep", False),
    ("gelu_forward", "2", "gelu_forward_kernel2", "gelu_forward_kernel2", "sweep", False),
    ("residual_forward", "1", "residual_forward_kernel1", "residual_forward_kernel1", "sweep", True),
    ("residual_forward", "2", "residual_forward_kernel2", "residual_forward_kernel2", "sweep", False),
    ("encoder_forward", "2", "encoder_forward_kernel2", "encoder_forward_kernel2", "sweep", True),
    ("encoder_forward", "3", "encoder_forward_kernel3", "encoder_forward_kernel3", "sweep", False),
    ("layernorm_forward", "3", "layernorm_forward_kernel3", "layernorm_forward_kernel3", "sweep", False),
    ("layernorm_forward", "4", "layernorm_forward_kernel4", "layernorm_forward_kernel4", "sweep", True),
    # version 4 ignores the block size it is given (always 16 x 16): one configuration
    ("matmul_forward", "4", "matmul_forward_kernel4", "matmul_forward_kernel4", "measure", False),
    ("adamw", "1", "adamw_kernel1", "adamw_kernel1", "measure", False),
]
TRANSPOSE_KERNELS = [("copy", "copy"), ("shared memory copy", "copySharedMem"),
                     ("naive transpose", "transposeNaive"),
                     ("coalesced transpose", "transposeCoalesced"),
                     ("conflict-free transpose", "transposeNoBankConflicts")]
FD_KERNELS = ["derivative_x", "derivative_x_lPencils", "derivative_y", "derivative_y_lPencils",
              "derivative_z", "derivative_z_lPencils"]


def log(*parts):
    print(time.strftime("%H:%M:%S"), *parts, file=sys.stderr, flush=True)


def run(command, cwd=None, timeout=600, stdout_only=False):
    """Run a command (a list or a shell string); return (exit code, its output, seconds): stdout
    and stderr together, or stdout alone (stderr is then appended to a failure's output)."""
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              shell=isinstance(command, str))
        code = done.returncode
        out = done.stdout if stdout_only and code == 0 else done.stdout + done.stderr
    except subprocess.TimeoutExpired as e:
        code = 124
        out = (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace")
    return code, out, time.monotonic() - start


# --- building -------------------------------------------------------------------------------

def build(name, build_root):
    folder, files, command = PROGRAMS[name]
    where = os.path.join(build_root, name)
    shutil.rmtree(where, ignore_errors=True)
    for f in files:
        os.makedirs(os.path.dirname(os.path.join(where, f)), exist_ok=True)
        shutil.copyfile(os.path.join(CORPUS, folder, f), os.path.join(where, f))
    code, out, seconds = run(command, cwd=where)
    return {"program": name, "command": command, "exit": code, "seconds": round(seconds, 1),
            "log": out[-3000:], "binary": os.path.join(where, command.split(" -o ")[1].split()[0])}


# --- the programs' own figures --------------------------------------------------------------

def parse_sgemm(text):
    """{size: µs per launch} from 'Average elapsed time: (x) s, performance: (y) GFLOPS. size: (n).'"""
    found = {}
    for m in re.finditer(r"Average elapsed time: \(\s*([0-9.]+)\) s, performance: \(\s*([0-9.]+)\) "
                         r"GFLOPS\. size: \((\d+)\)", text):
        found[int(m.group(3))] = float(m.group(1)) * 1e6
    return found


def parse_llmc(text):
    """{block size: µs} from 'block_size  128 | time 0.0123 ms | ...' (sqrt_block_size for
    matmul_forward, where the figure is for the block the launcher picks), or {None: µs} from
    adamw's 'time gpu 0.0123 ms'."""
    found = {}
    for m in re.finditer(r"(?:sqrt_)?block_size\s+(\d+) \| time ([0-9.]+) ms", text):
        found[int(m.group(1))] = float(m.group(2)) * 1e3
    m = re.search(r"time gpu ([0-9.]+) ms", text)
    if m:
        found[None] = float(m.group(1)) * 1e3
    return found


def parse_transpose(text, n=1024 * 1024, reps=100):
    """{routine: µs per launch} from its table of GB/s: bw = 2 n 4 B 1e-6 reps / ms."""
    found = {}
    for label, _ in TRANSPOSE_KERNELS:
        m = re.search(r"^\s*" + re.escape(label) + r"\s+([0-9.]+)\s*$", text, re.M)
        if m and float(m.group(1)) > 0:
            found[label] = 2 * n * 4 * 1e-6 * reps / float(m.group(1)) / reps * 1e3
    return found


def parse_finite_difference(text):
    """[µs, ...] in the order the program runs them (x, x lPencils, y, ..., z lPencils)."""
    return [float(v) * 1e3 for v in re.findall(r"Average time \(ms\): ([0-9.]+)", text)]


# --- Nsight Compute -------------------------------------------------------------------------

def base_name(kernel):
    m = re.match(r"\s*(?:void\s+)?([A-Za-z_]\w*)", kernel)
    return m.group(1) if m else kernel


def parse_ncu(text):
    """[(kernel base name, block size x, µs), ...] from ncu --csv --print-units base."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        return []
    rows = []
    for row in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        try:
            ns = float(row["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            continue
        block = re.match(r"\(?\s*(\d+)", row.get("Block Size", "") or "")
        rows.append((base_name(row.get("Kernel Name", "")), int(block.group(1)) if block else None,
                     ns / 1e3))
    return rows


def ncu(binary, arguments, mode, filters, can_kill, timeout=600):
    command = NCU + ["--cache-control", CACHE[mode]] + filters
    if can_kill and "--launch-count" in filters and "--filter-mode" not in filters:
        command += ["--kill", "yes"]
    code, out, seconds = run(command + [binary] + arguments, cwd=os.path.dirname(binary),
                             timeout=timeout)
    return {"command": " ".join(shlex.quote(c) for c in command + [binary] + arguments),
            "exit": code, "seconds": round(seconds, 1), "rows": parse_ncu(out),
            "tail": out[-1500:]}


def medians(rows, key=lambda r: (r[0], r[1]), skip_first=0):
    """Median µs per key over the profiled launches (after skipping the first few of each)."""
    groups = {}
    for r in rows:
        groups.setdefault(key(r), []).append(r[2])
    return {k: {"medianUs": statistics.median(v[skip_first:] or v), "launches": len(v[skip_first:] or v)}
            for k, v in groups.items()}


# --- cuwb -----------------------------------------------------------------------------------

TIMER = []  # ["--timer", "profiler"] with --timer: each sample as Nsight Compute times it


def cuwb_measure(cuwb, project, mode, samples):
    command = shlex.split(cuwb) + ["measure", project, "--json", "--" + mode,
                                   "--samples", str(samples), "--cap", "10"] + TIMER
    code, out, seconds = run(command, stdout_only=True)
    result = {"command": " ".join(command), "exit": code, "seconds": round(seconds, 1)}
    try:
        measured = json.loads(out) if code == 0 else None
    except ValueError:
        measured = None
    if measured:
        result["medianUs"] = measured["statistics"]["medianNs"] / 1e3
        result["noise"] = measured["statistics"].get("relativeNoise")
        result["source"] = measured.get("timingSource") or measured.get("source")
    else:
        result["tail"] = out[-1500:]
    return result


def cuwb_sweep(cuwb, project, mode, samples, out_file):
    command = shlex.split(cuwb) + ["sweep", project, "--" + mode, "--samples", str(samples),
                                   "--json", out_file] + TIMER
    code, out, seconds = run(command)
    result = {"command": " ".join(command), "exit": code, "seconds": round(seconds, 1), "points": {}}
    try:
        with open(out_file) as f:
            document = json.load(f)
    except (OSError, ValueError):
        result["tail"] = out[-1500:]
        return result
    for point in document.get("points", []):
        if point.get("status") != "measured":
            continue
        block = point["block"][0]
        result["points"][block] = point["measurement"]["statistics"]["medianNs"] / 1e3
    points = document.get("points", [])
    best = document.get("best")
    if best is not None:
        result["best"] = points[best]["block"][0]
        result["tied"] = [points[i]["block"][0] for i in document.get("tiedWithBest", [])]
    return result


# --- the collections ------------------------------------------------------------------------

def project_path(folder, name):
    return os.path.join(CORPUS, folder, name + ".cuwb")


def bench_sgemm(args, builds, can_kill):
    binary = builds["sgemm"]["binary"]
    rows = []
    for number, kernel, project in SGEMM_KERNELS:
        log(f"sgemm {number} ({kernel})")
        code, out, seconds = run([binary, str(number)], cwd=os.path.dirname(binary))
        program = parse_sgemm(out)
        row = {"collection": "SGEMM_CUDA", "kernel": kernel, "config": "4096³",
               "program": {"exit": code, "seconds": round(seconds, 1), "figures": program,
                           "timed": "hot (50 launches back to back, cudaEvents)"},
               "programUs": program.get(4096), "ncu": {}, "cuwb": {}}
        if code != 0:
            row["program"]["tail"] = out[-1500:]
        for mode in ("hot", "cold"):
            # 1 checking launch + 50 timed launches at each of 128 ... 2048, then 4096's
            profiled = ncu(binary, [str(number)], mode,
                           ["-k", "regex:" + kernel, "--launch-skip", "255", "--launch-count", "5"],
                           can_kill)
            found = medians(profiled["rows"], key=lambda r: r[0])
            row["ncu"][mode] = dict(profiled, rows=None, **(found.get(kernel) or {}))
            row["cuwb"][mode] = cuwb_measure(args.cuwb, project_path("sg_sgemm", project), mode,
                                             args.samples_long)
        rows.append(row)
    return rows


def bench_llmc(args, builds, can_kill):
    rows = []
    for program_name, argument, kernel, project, how, full_only in LLMC_KERNELS:
        if full_only and not args.full:
            continue
        log(f"{program_name} {argument} ({kernel})")
        binary = builds[program_name]["binary"]
        code, out, seconds = run([binary, argument], cwd=os.path.dirname(binary))
        program = parse_llmc(out)
        ncu_runs, cuwb_runs = {}, {}
        for mode in ("hot", "cold"):
            # per launch configuration: skip the checking launch, time 5 of the benchmark's
            filters = ["-k", "regex:" + kernel, "--filter-mode", "per-launch-config",
                       "--launch-skip", "1", "--launch-count", "5"]
            ncu_runs[mode] = ncu(binary, [argument], mode, filters, can_kill)
            path = project_path("lc_devcuda", project)
            if how == "sweep":
                cuwb_runs[mode] = cuwb_sweep(args.cuwb, path, mode, args.samples,
                                             os.path.join(args.out, f"sweep-{project}-{mode}.json"))
            else:
                cuwb_runs[mode] = cuwb_measure(args.cuwb, path, mode, args.samples)
        ncu_by_block = {mode: {k: v["medianUs"] for k, v in medians(ncu_runs[mode]["rows"],
                                                                   key=lambda r: r[1]).items()}
                        for mode in ncu_runs}
        configs = sorted(k for k in program if k is not None) or [None]
        for block in configs:
            # one configuration: the figures the program prints for it (matmul_forward's four
            # block sizes all launch the same 16 x 16 blocks) and their median
            program_us = program.get(block) if how == "sweep" else \
                (statistics.median(program.values()) if program else None)
            row = {"collection": "llm.c dev/cuda", "kernel": kernel,
                   "config": f"block {block}" if how == "sweep" else "the program's configuration",
                   "program": {"exit": code, "seconds": round(seconds, 1), "figures": program,
                               "timed": "cold (memset of an L2-sized buffer before each launch, cudaEvents)"},
                   "programUs": program_us, "ncu": {}, "cuwb": {}}
            for mode in ("hot", "cold"):
                if how == "sweep":
                    ncu_us = ncu_by_block[mode].get(block)
                    cuwb_us = cuwb_runs[mode]["points"].get(block)
                else:
                    ncu_us = statistics.median(ncu_by_block[mode].values()) if ncu_by_block[mode] else None
                    cuwb_us = cuwb_runs[mode].get("medianUs")
                row["ncu"][mode] = {"medianUs": ncu_us}
                row["cuwb"][mode] = {"medianUs": cuwb_us}
            rows.append(row)
            if how == "measure":
                break
        if how == "sweep" and len(configs) > 1:
            best = {"program": min(program, key=program.get) if program else None}
            for mode in ("hot", "cold"):
                if ncu_by_block[mode]:
                    best["ncu " + mode] = min(ncu_by_block[mode], key=ncu_by_block[mode].get)
                best["cuwb " + mode] = cuwb_runs[mode].get("best")
                best["cuwb " + mode + " tied"] = cuwb_runs[mode].get("tied")
            rows[-1]["best"] = best
        rows[-1]["raw"] = {"program": out[-2000:] if code else None,
                           "ncu": {m: dict(r, rows=None) for m, r in ncu_runs.items()},
                           "cuwb": cuwb_runs}
    return rows


def bench_blog(args, builds, can_kill):
    rows = []
    for program_name, folder, kernels, parse in (
            ("transpose", "nb_transpose", [k for _, k in TRANSPOSE_KERNELS], parse_transpose),
            ("finite-difference", "nb_finitediff", FD_KERNELS, parse_finite_difference)):
        log(program_name)
        binary = builds[program_name]["binary"]
        code, out, seconds = run([binary], cwd=os.path.dirname(binary))
        program = parse(out)
        if isinstance(program, dict):
            program = {k: program.get(label) for label, k in TRANSPOSE_KERNELS}
        else:
            program = dict(zip(FD_KERNELS, program))
        # every launch profiled; the first of each kernel is the program's warm-up
        profiled = {mode: ncu(binary, [], mode, [], can_kill) for mode in ("hot", "cold")}
        for kernel in kernels:
            row = {"collection": "CUDA C/C++ blog series", "kernel": kernel,
                   "config": "1024²" if program_name == "transpose" else "64³",
                   "program": {"exit": code, "seconds": round(seconds, 1),
                               "timed": "hot (100 or 20 launches back to back, cudaEvents)"},
                   "programUs": program.get(kernel), "ncu": {}, "cuwb": {}}
            for mode in ("hot", "cold"):
                found = medians(profiled[mode]["rows"], key=lambda r: r[0], skip_first=1)
                row["ncu"][mode] = found.get(kernel, {})
                row["cuwb"][mode] = cuwb_measure(args.cuwb, project_path(folder, kernel), mode,
                                                 args.samples_short)
            rows.append(row)
        rows[-1]["raw"] = {"program": out[-2000:],
                           "ncu": {m: dict(r, rows=None) for m, r in profiled.items()}}
    return rows


# --- the table --------------------------------------------------------------------------------

def fmt(us):
    return "—" if us is None else (f"{us:,.1f}" if us >= 100 else f"{us:.2f}")


def gap(ours, reference):
    if ours is None or reference is None or reference == 0:
        return "—"
    return f"{100.0 * (ours - reference) / reference:+.2f} %"


def table(rows):
    out = ["| collection | kernel | configuration | program (µs), timed | ncu hot | cuwb hot | "
           "gap hot | ncu cold | cuwb cold | gap cold | program − ncu (same mode) |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        timed = r["program"]["timed"].split(" ")[0]
        n, c = r["ncu"], r["cuwb"]
        same = n[timed].get("medianUs") if timed in n else None
        over = "—" if r["programUs"] is None or same is None else \
            f"{r['programUs'] - same:+.2f} µs ({gap(r['programUs'], same)})"
        out.append(f"| {r['collection']} | `{r['kernel']}` | {r['config']} | "
                   f"{fmt(r['programUs'])} ({timed}) | "
                   f"{fmt(n['hot'].get('medianUs'))} | {fmt(c['hot'].get('medianUs'))} | "
                   f"{gap(c['hot'].get('medianUs'), n['hot'].get('medianUs'))} | "
                   f"{fmt(n['cold'].get('medianUs'))} | {fmt(c['cold'].get('medianUs'))} | "
                   f"{gap(c['cold'].get('medianUs'), n['cold'].get('medianUs'))} | {over} |")
    best = [r for r in rows if "best" in r]
    if best:
        out += ["", "| kernel | best block: program | ncu hot | ncu cold | cuwb hot (tied) | "
                "cuwb cold (tied) |", "|---|---|---|---|---|---|"]
        for r in best:
            b = r["best"]
            out.append(f"| `{r['kernel']}` | {b.get('program')} | {b.get('ncu hot')} | "
                       f"{b.get('ncu cold')} | {b.get('cuwb hot')} ({b.get('cuwb hot tied')}) | "
                       f"{b.get('cuwb cold')} ({b.get('cuwb cold tied')}) |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="folder for the builds, the raw results and the table")
    parser.add_argument("--cuwb", default="/tmp/portable/run cuwb")
    parser.add_argument("--only", default="blog,sgemm,llmc",
                        help="comma-separated collections: blog, sgemm, llmc")
    parser.add_argument("--build-only", action="store_true", help="build the programs and stop")
    parser.add_argument("--full", action="store_true",
                        help="also llm.c's residual_forward 1, encoder_forward 2 and "
                             "layernorm_forward 4 (about a minute more)")
    parser.add_argument("--timer", choices=["cupti", "profiler"], default="cupti",
                        help="what times cuwb's samples: CUPTI's kernel records (the default) "
                             "or the profiler's gpu__time_duration, Nsight Compute's own figure")
    parser.add_argument("--samples", type=int, default=10, help="cuwb samples (llm.c)")
    parser.add_argument("--samples-long", type=int, default=20, help="cuwb samples (SGEMM)")
    parser.add_argument("--samples-short", type=int, default=100,
                        help="cuwb samples (the blog's kernels of a few µs)")
    args = parser.parse_args()
    args.out = os.path.abspath(args.out)
    TIMER[:] = ["--timer", args.timer] if args.timer != "cupti" else []
    only = set(args.only.split(","))
    os.makedirs(args.out, exist_ok=True)
    started = time.monotonic()

    wanted = [p for p in PROGRAMS if
              ("sgemm" in only and p == "sgemm") or ("llmc" in only and p in LLMC_PROGRAMS) or
              ("blog" in only and p in ("transpose", "finite-difference"))]
    log("building", ", ".join(wanted))
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        builds = {b["program"]: b for b in pool.map(
            lambda p: build(p, os.path.join(args.out, "build")), wanted)}
    for b in builds.values():
        log(f"  {b['program']}: exit {b['exit']} in {b['seconds']} s")
        if b["exit"]:
            print(b["log"], file=sys.stderr)
    environment = {"builds": {k: dict(v, log=v["log"][-500:]) for k, v in builds.items()}}
    if args.build_only or any(b["exit"] for b in builds.values()):
        with open(os.path.join(args.out, "realworld-bench.json"), "w") as f:
            json.dump(environment, f, indent=1)
        return 0 if args.build_only and not any(b["exit"] for b in builds.values()) else 1

    for what, command in (("gpu", "nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem "
                                  "--format=csv,noheader"),
                          ("nvcc", "nvcc --version | tail -2"), ("ncu", "ncu --version | tail -1"),
                          ("cuwb", args.cuwb + " --version")):
        environment[what] = run(command)[1].strip()
    can_kill = "--kill" in run(["ncu", "--help"])[1]
    environment["ncuKill"] = can_kill
    rows = []
    stages = {}
    for name, bench in (("blog", bench_blog), ("sgemm", bench_sgemm), ("llmc", bench_llmc)):
        if name in only:
            stage = time.monotonic()
            rows += bench(args, builds, can_kill)
            stages[name] = round(time.monotonic() - stage, 1)
            log(f"{name} done in {stages[name]} s")
    environment["stageSeconds"] = stages
    environment["wallSeconds"] = round(time.monotonic() - started, 1)
    with open(os.path.join(args.out, "realworld-bench.json"), "w") as f:
        json.dump({"environment": environment, "rows": rows}, f, indent=1, default=str)
    text = table(rows)
    with open(os.path.join(args.out, "realworld-bench.md"), "w") as f:
        f.write(text + "\n")
    print(json.dumps({k: v for k, v in environment.items() if k != "builds"}, indent=1))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
