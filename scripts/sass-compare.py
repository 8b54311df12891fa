#!/usr/bin/env python3
"""Compares the machine code CUDA Workbench builds with the machine code of the user's own build.

For every project (default: samples/*/*.cuwb and tests/realworld/*/*.cuwb) it compiles the
project's source as the workbench does (`cuwb compile PROJECT --cubin`, the project's options
and launch defines bound), once more with NVRTC (`--compiler nvrtc`), and builds the reference
the way a user's build does: `nvcc -cubin -O3 -arch=ARCH` with the same -std, -D, -I and
flags, of the file itself (a header whose template kernels the project instantiates is
included by a two-line .cu that takes their addresses, as a host launch does). Then it
disassembles the three modules with nvdisasm and compares every kernel: SASS instruction
count, registers (from the ELF's .nv.info, through cuobjdump when present, else ptxas' report
that `cuwb compile --json` carries) and whether the instruction text is identical.

Runs without a GPU. Writes a Markdown table (--markdown) and JSON (--json); exits 1 when a
kernel of the workbench's build differs from the reference.

    scripts/sass-compare.py [--cuwb build/release/bin/cuwb] [--markdown OUT.md] [--json OUT.json]
                            [PROJECT.cuwb ...]
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def find_tool(name, explicit):
    if explicit:
        return explicit
    candidates = [os.environ.get(name.upper(), "")]
    for home in (os.environ.get("CUDA_HOME", ""), os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"):
        if home:
            candidates.append(os.path.join(home, "bin", name))
    candidates += glob.glob(os.path.join(ROOT, "build", "*", "tools", "nvdisasm", "nvidia", "*", "bin", name))
    candidates.append(shutil.which(name) or "")
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def disassemble(nvdisasm, cubin):
    """{kernel: [instruction text, ...]} of a CUBIN's code sections."""
    out = subprocess.run([nvdisasm, "-c", cubin], check=True, capture_output=True, text=True).stdout
    functions = {}
    current = None
    for line in out.splitlines():
        section = re.match(r"\s*\.section\s+\.text\.([^,\s]+)", line)
        if section:
            current = section.group(1)
            functions[current] = []
            continue
        match = INSTRUCTION.search(line)
        if match and current is not None and not match.group(2).startswith("."):
            functions[current].append(re.sub(r"\s+", " ", match.group(2)))
    return functions


def registers_from_ptxas(log):
    """{kernel: registers} from ptxas' -v report."""
    registers = {}
    current = None
    for line in log.splitlines():
        entry = re.search(r"Compiling entry function '([^']+)'", line)
        if entry:
            current = entry.group(1)
        used = re.search(r"Used (\d+) registers", line)
        if used and current:
            registers[current] = int(used.group(1))
    return registers


def run_cuwb(cuwb, project, cubin, compiler=None):
    command = [cuwb, "compile", project, "--json", "--cubin", cubin]
    if compiler:
        command += ["--compiler", compiler]
    done = subprocess.run(command, capture_output=True, text=True)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"success": False, "failureMessage": (done.stdout + done.stderr).strip()[-500:]}


def tuner_source(source_path, defines, folder):
    """Kernel Tuner's loop_unroll_factor_N, as the tuner compiles it: `#pragma unroll` does not
    expand macros, so the tuner declares `constexpr int loop_unroll_factor_N = V;` before the
    source, and removes the pragma for V = 0. Returns (path, the other defines)."""
    factors = {}
    rest = []
    for define in defines:
        name, _, value = define.partition("=")
        if re.fullmatch(r"loop_unroll_factor_\w+", name):
            factors[name] = value
        else:
            rest.append(define)
    if not factors:
        return source_path, defines
    with open(source_path) as f:
        text = f.read()
    prefix = ""
    for name, value in factors.items():
        if value.strip() in ("0", "0u"):
            text = re.sub(r"^[ \t]*#[ \t]*pragma[ \t]+unroll[ \t]+%s[ \t]*$" % name, "", text,
                          flags=re.MULTILINE)
        else:
            prefix += "constexpr int %s = %s;\n" % (name, value)
    target = os.path.join(folder, "tuned_" + os.path.basename(source_path))
    with open(target, "w") as out:
        out.write(prefix + text)
    return target, rest


def reference_build(nvcc, source_path, options, folder):
    """nvcc -cubin -O3 of the file as a user's build would run it; returns (cubin, registers, command)."""
    tuned_path, defines = tuner_source(source_path, options.get("defines", []), folder)
    arguments = ["-cubin", "-O3", "-arch=" + options["arch"], "-std=" + options.get("cppStandard", "c++17")]
    if options.get("deviceDebug"):
        arguments.append("-G")
    if options.get("fastMath"):
        arguments.append("--use_fast_math")
    if options.get("maxRegisters", 0):
        arguments.append("-maxrregcount=%d" % options["maxRegisters"])
    if options.get("optLevel", 3) != 3 and not options.get("deviceDebug"):
        arguments.append("-Xptxas=-O%d" % options["optLevel"])
    arguments += ["-D" + d for d in defines]
    arguments += ["-I" + d for d in options.get("includeDirs", [])]
    arguments += options.get("flags", [])
    arguments.append("-Xptxas=-v")
    expressions = options.get("nameExpressions", [])
    target = tuned_path
    if expressions:
        # What the user's .cu that launches the templates amounts to.
        target = os.path.join(folder, "user.cu")
        with open(target, "w") as out:
            out.write('#include "%s"\n' % os.path.abspath(tuned_path))
            for i, expression in enumerate(expressions):
                out.write("static void *const launched_%d = (void *)&%s;\n" % (i, expression))
    cubin = os.path.join(folder, "reference.cubin")
    command = [nvcc] + arguments + ["-x", "cu", target, "-o", cubin]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("nvcc failed: " + (done.stdout + done.stderr).strip()[-800:])
    shown = ["nvcc"] + [a for a in arguments if not a.startswith("-I") and a != "-Xptxas=-v"]
    shown.append(os.path.relpath(source_path, ROOT) if not expressions else "user.cu")
    return cubin, registers_from_ptxas(done.stdout + done.stderr), " ".join(shown)


def compare(reference, other):
    """'equal', or the first difference in words."""
    if reference == other:
        return "equal"
    return "%+d instructions" % (len(other) - len(reference)) if len(other) != len(reference) \
        else "same count, %d differ" % sum(1 for a, b in zip(reference, other) if a != b)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("projects", nargs="*")
    parser.add_argument("--cuwb", default=os.path.join(ROOT, "build", "release", "bin", "cuwb"))
    parser.add_argument("--nvcc")
    parser.add_argument("--nvdisasm")
    parser.add_argument("--markdown")
    parser.add_argument("--json")
    args = parser.parse_args()

    nvcc = find_tool("nvcc", args.nvcc)
    nvdisasm = find_tool("nvdisasm", args.nvdisasm)
    if not nvcc or not nvdisasm:
        sys.exit("sass-compare: needs nvcc and nvdisasm (./workbench build installs nvdisasm)")
    projects = args.projects or sorted(glob.glob(os.path.join(ROOT, "samples", "*", "*.cuwb")) +
                                       glob.glob(os.path.join(ROOT, "tests", "realworld", "*", "*.cuwb")))
    rows = []
    seen = set()
    differences = 0
    for project in projects:
        with tempfile.TemporaryDirectory(prefix="sass-compare-") as folder:
            workbench = run_cuwb(args.cuwb, project, os.path.join(folder, "workbench.cubin"))
            name = os.path.relpath(project, ROOT)
            if not workbench.get("success"):
                rows.append({"project": name, "error": workbench.get("failureMessage") or
                             "; ".join(d.get("message", "") for d in workbench.get("diagnostics", []))[:300]})
                differences += 1
                continue
            options = workbench["options"]
            source = workbench["fileName"]
            key = (os.path.abspath(source), json.dumps(options, sort_keys=True))
            if key in seen:
                continue  # another project of the same file and options: the same module
            seen.add(key)
            nvrtc = run_cuwb(args.cuwb, project, os.path.join(folder, "nvrtc.cubin"), "nvrtc")
            try:
                reference, reference_registers, command = reference_build(nvcc, source, options, folder)
            except RuntimeError as error:
                rows.append({"project": name, "error": str(error)})
                differences += 1
                continue
            ref_sass = disassemble(nvdisasm, reference)
            wb_sass = disassemble(nvdisasm, os.path.join(folder, "workbench.cubin"))
            rtc_sass = disassemble(nvdisasm, os.path.join(folder, "nvrtc.cubin")) if nvrtc.get("success") else {}
            wb_registers = {k["loweredName"]: k["resources"]["registers"] for k in workbench["kernels"]}
            rtc_registers = {k["loweredName"]: k["resources"]["registers"] for k in nvrtc.get("kernels", [])}
            for kernel in workbench["kernels"]:
                lowered = kernel["loweredName"]
                ref = ref_sass.get(lowered)
                row = {"project": name, "kernel": kernel.get("readableName") or lowered,
                       "compiler": workbench.get("compiledBy", {}).get("name", ""),
                       "reference": command,
                       "nvccInstructions": len(ref) if ref is not None else None,
                       "nvccRegisters": reference_registers.get(lowered),
                       "workbenchInstructions": len(wb_sass.get(lowered, [])),
                       "workbenchRegisters": wb_registers.get(lowered),
                       "workbench": compare(ref, wb_sass.get(lowered)) if ref is not None else "not in nvcc's build",
                       "nvrtcInstructions": len(rtc_sass[lowered]) if lowered in rtc_sass else None,
                       "nvrtcRegisters": rtc_registers.get(lowered),
                       "nvrtc": (compare(ref, rtc_sass[lowered]) if ref is not None and lowered in rtc_sass
                                 else (nvrtc.get("failureMessage") or "did not compile")[:120])}
                if row["workbench"] != "equal" or row["nvccRegisters"] != row["workbenchRegisters"]:
                    differences += 1
                rows.append(row)

    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)
    # Per project: its module's kernels, how many equal nvcc's build; then every kernel where
    # NVRTC's code differs (the per-kernel rows of every project are in --json).
    lines = ["| project | kernels | workbench = nvcc -O3 (instructions, text, registers) | NVRTC = nvcc -O3 | NVRTC differs | NVRTC cannot compile |",
             "|---|---:|---:|---:|---:|---:|"]
    by_project = {}
    for row in rows:
        by_project.setdefault(row["project"], []).append(row)
    for project, group in by_project.items():
        if "error" in group[0]:
            lines.append("| `%s` | — | **%s** | — | — | — |" % (project, group[0]["error"].replace("|", "\\|")[:200]))
            continue
        same = sum(1 for r in group if r["workbench"] == "equal" and r["nvccRegisters"] == r["workbenchRegisters"])
        rtc_same = sum(1 for r in group if r["nvrtc"] == "equal" and r["nvccRegisters"] == r["nvrtcRegisters"])
        rtc_none = sum(1 for r in group if r["nvrtcInstructions"] is None)
        lines.append("| `%s` | %d | %d | %d | %d | %d |" % (project, len(group), same, rtc_same,
                                                          len(group) - rtc_same - rtc_none, rtc_none))
    lines += ["", "Where NVRTC's code differs from nvcc's (instructions / registers):", "",
              "| project | kernel | nvcc -O3 | NVRTC | NVRTC's SASS |", "|---|---|---|---|---|"]
    for row in rows:
        if "error" in row or row["nvrtcInstructions"] is None:
            continue
        if row["nvrtc"] == "equal" and row["nvrtcRegisters"] == row["nvccRegisters"]:
            continue
        kernel = row["kernel"] if len(row["kernel"]) < 60 else row["kernel"][:57] + "…"
        lines.append("| `%s` | `%s` | %s / %s | %s / %s | %s |" % (
            row["project"], kernel.replace("|", "\\|"), row["nvccInstructions"], row["nvccRegisters"],
            row["nvrtcInstructions"], row["nvrtcRegisters"], row["nvrtc"].replace("|", "\\|")))
    kernels = [r for r in rows if "error" not in r]
    equal = sum(1 for r in kernels if r["workbench"] == "equal" and r["nvccRegisters"] == r["workbenchRegisters"])
    nvrtc_equal = sum(1 for r in kernels if r["nvrtc"] == "equal" and r["nvccRegisters"] == r["nvrtcRegisters"])
    nvrtc_none = sum(1 for r in kernels if r["nvrtcInstructions"] is None)
    summary = ("%d kernels in the modules of %d projects (%d could not be compared): the workbench's SASS "
               "equals nvcc -O3's in %d (instruction text and registers). NVRTC's equals it in %d, "
               "differs in %d, and NVRTC cannot compile %d (their files have host code)." %
               (len(kernels), len(by_project), len(rows) - len(kernels), equal, nvrtc_equal,
                len(kernels) - nvrtc_equal - nvrtc_none, nvrtc_none))
    text = summary + "\n\n" + "\n".join(lines) + "\n"
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text)
    print(text)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
