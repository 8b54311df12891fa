#!/usr/bin/env python3
"""The block-size sweep a Python user writes today, for comparison with `cuwb sweep`.

Compiles the copy sample, then for block sizes 32..1024 step 32 launches it once to warm up
and 20 times back to back, each launch between a pair of CUDA events, and keeps the median.
Prints one line per point and the total wall time against the sum of the kernel times.

    python3 bench/python_sweep.py [--backend cupy|ctypes] [--n 67108864] [--samples 20]

cupy:   cupy.RawKernel and cupy.cuda.Event (what a CuPy user writes).
ctypes: the same steps through libnvrtc and libcuda with ctypes, for machines without CuPy
        (what PyCUDA does underneath).
"""
import argparse
import ctypes
import ctypes.util
import math
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = open(os.path.join(HERE, "..", "samples", "copy", "copy.cu")).read()
BLOCKS = list(range(32, 1025, 32))


def sweep_cupy(n, samples):
    import cupy as cp
    kernel = cp.RawKernel(SOURCE, "copy")
    src = cp.arange(n, dtype=cp.float32)
    dst = cp.zeros(n, dtype=cp.float32)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    for block in BLOCKS:
        grid = (n + block - 1) // block
        args = (src, dst, cp.uint64(n))
        kernel((grid,), (block,), args)  # warm-up
        times = []
        for _ in range(samples):
            start.record()
            kernel((grid,), (block,), args)
            end.record()
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end) * 1e3)  # µs
        yield block, times


def sweep_ctypes(n, samples):
    def lib(names):
        for name in names:
            try:
                return ctypes.CDLL(name)
            except OSError:
                pass
        sys.exit("cannot load any of " + ", ".join(names))

    cuda = lib(["libcuda.so.1"])
    nvrtc = lib(["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"])

    def check(result, what):
        if result != 0:
            sys.exit(f"{what} failed with {result}")

    prog = ctypes.c_void_p()
    check(nvrtc.nvrtcCreateProgram(ctypes.byref(prog), SOURCE.encode(), b"copy.cu", 0, None, None),
          "nvrtcCreateProgram")
    check(cuda.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cuda.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    major, minor = ctypes.c_int(), ctypes.c_int()
    check(cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, dev), "major")
    check(cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev), "minor")
    opts = (ctypes.c_char_p * 1)(f"-arch=sm_{major.value}{minor.value}".encode())
    check(nvrtc.nvrtcCompileProgram(prog, 1, opts), "nvrtcCompileProgram")
    size = ctypes.c_size_t()
    check(nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(size)), "nvrtcGetCUBINSize")
    cubin = ctypes.create_string_buffer(size.value)
    check(nvrtc.nvrtcGetCUBIN(prog, cubin), "nvrtcGetCUBIN")
    ctx = ctypes.c_void_p()
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(module), cubin), "cuModuleLoadData")
    check(cuda.cuModuleGetFunction(ctypes.byref(function), module, b"copy"), "cuModuleGetFunction")
    src, dst = ctypes.c_uint64(), ctypes.c_uint64()
    check(cuda.cuMemAlloc_v2(ctypes.byref(src), ctypes.c_size_t(4 * n)), "cuMemAlloc")
    check(cuda.cuMemAlloc_v2(ctypes.byref(dst), ctypes.c_size_t(4 * n)), "cuMemAlloc")
    check(cuda.cuMemsetD8_v2(src, 1, ctypes.c_size_t(4 * n)), "cuMemsetD8")
    start, end = ctypes.c_void_p(), ctypes.c_void_p()
    check(cuda.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
    check(cuda.cuEventCreate(ctypes.byref(end), 0), "cuEventCreate")
    count = ctypes.c_uint64(n)
    params = (ctypes.c_void_p * 3)(ctypes.addressof(src), ctypes.addressof(dst),
                                   ctypes.addressof(count))
    ms = ctypes.c_float()
    for block in BLOCKS:
        grid = (n + block - 1) // block

        def launch():
            check(cuda.cuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, None, params, None),
                  "cuLaunchKernel")

        launch()  # warm-up
        times = []
        for _ in range(samples):
            check(cuda.cuEventRecord(start, None), "cuEventRecord")
            launch()
            check(cuda.cuEventRecord(end, None), "cuEventRecord")
            check(cuda.cuEventSynchronize(end), "cuEventSynchronize")
            check(cuda.cuEventElapsedTime(ctypes.byref(ms), start, end), "cuEventElapsedTime")
            times.append(ms.value * 1e3)
        yield block, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["cupy", "ctypes"], default="cupy")
    parser.add_argument("--n", type=int, default=1 << 26)
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    run = sweep_cupy if args.backend == "cupy" else sweep_ctypes
    begin = time.perf_counter()
    kernel_us = 0.0
    for block, times in run(args.n, args.samples):
        median = statistics.median(times)
        kernel_us += sum(times)
        print(f"block {block:5d}: median {median:9.2f} µs, {2 * 4 * args.n / median / 1e3:7.1f} GB/s",
              flush=True)
    wall = time.perf_counter() - begin
    points = len(BLOCKS)
    print(f"{args.backend}: {points} points x {args.samples} samples in {wall:.3f} s wall, "
          f"{kernel_us / 1e6:.3f} s of kernel time (events), "
          f"{(wall - kernel_us / 1e6) / points * 1e3:.1f} ms overhead per point")


if __name__ == "__main__":
    main()
