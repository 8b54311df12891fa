#!/usr/bin/env python3
"""The auto-tuner's way of sweeping a kernel, for comparison with `cuwb sweep` on the same space.

Written the way Kernel Tuner works (its `tune_kernel` loop, without the package, which does not
install on the GPU machine): the tunable parameters are a dict of value lists, restrictions are
Python expressions, and for every configuration that passes them the parameters are prepended
to the source as `#define NAME value` lines, the source is compiled with NVRTC (CuPy's
RawModule), the output is copied back and compared with the answer on the host, and the kernel
is timed with CUDA events (one warm-up launch, then SAMPLES launches; the median is kept).

Spaces: the corpus projects tests/realworld/kt_matmul/matmul.cuwb, kt_reduction/reduction.cuwb
and kt_convolution/convolution.cuwb, with the same sizes, the same spaces and the same number
of samples as their "sweep" sections, so that `cuwb sweep PROJECT --verify` measures the same
work.

    python3 bench/tuner_loop.py [matmul|reduction|convolution ...] [--json FILE]
"""
import argparse
import itertools
import json
import math
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "tests", "realworld")


def source_of(path):
    with open(os.path.join(CORPUS, path)) as f:
        return f.read()


def matmul_space():
    width = 4096
    rng = np.random.default_rng(11)
    a = rng.random((width, width), dtype=np.float32)
    b = rng.random((width, width), dtype=np.float32)
    return {
        "name": "matmul",
        "project": "kt_matmul/matmul.cuwb",
        "source": source_of("kt_matmul/matmul.cu"),
        "kernel": "matmul_kernel",
        "tune_params": {
            "block_size_x": [16, 32, 64],
            "block_size_y": [1, 2, 4, 8, 16, 32],
            "tile_size_x": [1, 2, 4],
            "tile_size_y": [1, 2, 4, 8],
        },
        "restrictions": [
            "block_size_x == block_size_y * tile_size_y",
            "4 * block_size_y * tile_size_y * block_size_x * (1 + tile_size_x) <= 48 * 1024",
        ],
        "grid": lambda p: (math.ceil(width / (p["block_size_x"] * p["tile_size_x"])),
                           math.ceil(width / (p["block_size_y"] * p["tile_size_y"])), 1),
        "block": lambda p: (p["block_size_x"], p["block_size_y"], 1),
        "inputs": lambda cp: [cp.zeros(width * width, dtype=cp.float32), cp.asarray(a.ravel()),
                              cp.asarray(b.ravel())],
        "output": 0,
        "answer": lambda: (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32).ravel(),
        "verify": lambda out, answer: np.allclose(out, answer, rtol=1e-4, atol=0),
        "samples": 5,
    }


def reduction_space():
    n = 1 << 24
    rng = np.random.default_rng(81)
    array = rng.random(n, dtype=np.float32)
    total = float(array.astype(np.float64).sum())
    return {
        "name": "reduction",
        "project": "kt_reduction/reduction.cuwb",
        "source": source_of("kt_reduction/reduction.cu"),
        "kernel": "sum_floats",
        "tune_params": {
            "block_size_x": [64, 128, 256, 512, 1024],
            "num_blocks": [128, 1024, 8192],
            "use_shuffle": [0, 1],
            "vector": [1],
            "loop_unroll_factor_0": [8],
        },
        "restrictions": [],
        "grid": lambda p: (p["num_blocks"], 1, 1),
        "block": lambda p: (p["block_size_x"], 1, 1),
        "inputs": lambda cp: [cp.zeros(8192, dtype=cp.float32), cp.asarray(array), np.int32(n)],
        "output": 0,
        "answer": lambda: total,
        # Kernel Tuner's custom verify: the partial sums of the used blocks add up to the total.
        "verify_with": lambda out, answer, p: abs(float(out[: p["num_blocks"]].astype(np.float64).sum()) - answer)
        <= 1e-4 * abs(answer),
        "samples": 10,
    }


def convolution_space():
    w = h = 4096
    rng = np.random.default_rng(16)
    filters = {}
    return {
        "name": "convolution",
        "project": "kt_convolution/convolution.cuwb",
        "source": source_of("kt_convolution/convolution.cu"),
        "kernel": "convolution_kernel",
        "tune_params": {
            "filter_height": [3, 9, 17],  # zipped with filter_width, as the project's group
            "block_size_x": [16, 32, 64],
            "block_size_y": [16],
            "tile_size_x": [1, 2],
            "tile_size_y": [1, 2],
            "use_padding": [1],
            "read_only": [1],
        },
        "derived": lambda p: {"filter_width": p["filter_height"]},
        "restrictions": ["block_size_x * block_size_y >= 64"],
        "grid": lambda p: (math.ceil(w / (p["block_size_x"] * p["tile_size_x"])),
                           math.ceil(h / (p["block_size_y"] * p["tile_size_y"])), 1),
        "block": lambda p: (p["block_size_x"], p["block_size_y"], 1),
        "per_config_inputs": True,
        "rng": rng,
        "filters": filters,
        "w": w,
        "h": h,
        "samples": 10,
    }


def convolution_inputs(space, cp, p):
    fh = p["filter_height"]
    fw = p["filter_width"]
    key = (fh, fw)
    if key not in space["filters"]:
        rng = np.random.default_rng(16 + fh)
        image = rng.random(((space["h"] + fh - 1), (space["w"] + fw - 1)), dtype=np.float32)
        filt = rng.random((fh, fw), dtype=np.float32)
        # The answer on the host, as a user of the tuner computes it once per filter size.
        from numpy.lib.stride_tricks import sliding_window_view
        windows = sliding_window_view(image.astype(np.float64), (fh, fw))
        answer = np.einsum("ijkl,kl->ij", windows, filt.astype(np.float64)).astype(np.float32)
        space["filters"][key] = (image, filt, answer)
    image, filt, answer = space["filters"][key]
    return image, filt, answer


def configurations(space):
    names = list(space["tune_params"])
    for values in itertools.product(*(space["tune_params"][n] for n in names)):
        p = dict(zip(names, values))
        if "derived" in space:
            p.update(space["derived"](p))
        block = space["block"](p)
        # As Kernel Tuner does by itself: no block above the device's 1024 threads.
        if block[0] * block[1] * block[2] > 1024:
            continue
        if all(eval(r, {}, dict(p)) for r in space["restrictions"]):
            yield p


def run_space(space, cp):
    started = time.perf_counter()
    compile_s = verify_s = bench_s = 0.0
    results = []
    answer = space["answer"]() if "answer" in space else None
    fixed_inputs = None if space.get("per_config_inputs") else space["inputs"](cp)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    for p in configurations(space):
        defines = "".join(f"#define {k} {v}\n" for k, v in p.items())
        t0 = time.perf_counter()
        try:
            module = cp.RawModule(code=defines + space["source"], options=("-std=c++17",),
                                  name_expressions=(space["kernel"],))
            kernel = module.get_function(space["kernel"])
        except Exception as error:  # a configuration that does not compile is skipped
            compile_s += time.perf_counter() - t0
            results.append({"config": p, "status": "compile", "error": str(error)[:200]})
            continue
        compile_s += time.perf_counter() - t0
        if space.get("per_config_inputs"):
            image, filt, answer = convolution_inputs(space, cp, p)
            # The filter into the module's __constant__ d_filter (cudaMemcpyToSymbol).
            d_filter = module.get_global("d_filter")
            cp.ndarray((filt.size,), dtype=cp.float32, memptr=d_filter)[:] = \
                cp.asarray(filt.ravel())
            args = [cp.zeros(space["w"] * space["h"], dtype=cp.float32), cp.asarray(image.ravel()),
                    cp.asarray(filt.ravel())]
            out_index = 0
        else:
            args = fixed_inputs
            out_index = space["output"]
        grid, block = space["grid"](p), space["block"](p)
        t0 = time.perf_counter()
        args[out_index].fill(0)
        try:
            kernel(grid, block, tuple(args))
            out = cp.asnumpy(args[out_index])
        except Exception as error:  # a launch the driver refuses: that configuration fails
            verify_s += time.perf_counter() - t0
            results.append({"config": p, "status": "failed", "error": str(error)[:200]})
            continue
        if "verify_with" in space:
            ok = space["verify_with"](out, answer, p)
        elif space.get("per_config_inputs"):
            ok = np.allclose(out, answer.ravel(), rtol=1e-4, atol=0)
        else:
            ok = space["verify"](out, answer)
        verify_s += time.perf_counter() - t0
        t0 = time.perf_counter()
        kernel(grid, block, tuple(args))  # warm-up
        times = []
        for _ in range(space["samples"]):
            start.record()
            kernel(grid, block, tuple(args))
            end.record()
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end) * 1e3)  # µs
        bench_s += time.perf_counter() - t0
        results.append({"config": p, "status": "ok" if ok else "wrong",
                        "median_us": statistics.median(times)})
    wall = time.perf_counter() - started
    measured = [r for r in results if r["status"] == "ok"]
    best = min(measured, key=lambda r: r["median_us"]) if measured else None
    return {"space": space["name"], "project": space["project"], "points": len(results),
            "measured": len(measured), "wrong": sum(r["status"] == "wrong" for r in results),
            "compile_failed": sum(r["status"] == "compile" for r in results),
            "wall_s": wall, "compile_s": compile_s, "verify_s": verify_s, "bench_s": bench_s,
            "best": best, "results": results}


def main():
    spaces = {"matmul": matmul_space, "reduction": reduction_space,
              "convolution": convolution_space}
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", default=list(spaces))
    parser.add_argument("--json")
    args = parser.parse_args()
    import cupy as cp
    cp.zeros(1).sum()  # the context, before anything is timed
    summaries = []
    for name in args.names:
        summary = run_space(spaces[name](), cp)
        best = summary["best"]
        print(f"{name}: {summary['points']} points, {summary['measured']} measured, "
              f"{summary['wrong']} wrong, {summary['compile_failed']} did not compile; "
              f"wall {summary['wall_s']:.2f} s (compile {summary['compile_s']:.2f} s, verify "
              f"{summary['verify_s']:.2f} s, benchmark {summary['bench_s']:.2f} s); best "
              + (f"{best['config']} at {best['median_us']:.1f} µs" if best else "none"),
              flush=True)
        summaries.append(summary)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summaries, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
