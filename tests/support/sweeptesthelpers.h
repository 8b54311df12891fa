// Builders shared by the sweep tests of core and gui: the add_one request that the stand-in
// worker with a GPU (fakesweepworker.cpp) measures, and axes of each kind of values. Unlike
// sweepfixture.h, which is one finished result, these are the inputs a sweep starts from.
#pragma once

#include "kernel/elementtype.h"
#include "sweep/sweep.h"

#include <string>
#include <utility>
#include <vector>

namespace cuwb::sweeptest {

inline constexpr const char *kAddOneSource =
    R"(extern "C" __global__ void add_one(const float *a, float *c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + 1.0f;
}
)";

// add_one(a, c, n) over N = 1 << 16 floats, one element per thread; a test that needs
// preprocessor switches in the kernel passes its own source with the same signature.
inline RunRequest addOneRequest(const char *source = kAddOneSource)
{
    RunRequest request;
    request.source = source;
    request.fileName = "add_one.cu";
    request.launch.kernel = "add_one";
    request.launch.variables = {{"N", "1 << 16"}};
    ArgumentSpec a;
    a.parameter = "a";
    a.elementType = parseElementType("float").value();
    a.count = "N";
    a.role = BufferRole::In;
    ArgumentSpec c = a;
    c.parameter = "c";
    c.role = BufferRole::Out;
    ArgumentSpec n;
    n.parameter = "n";
    n.isBuffer = false;
    n.elementType = parseElementType("int").value();
    n.value = "N";
    request.launch.arguments = {a, c, n};
    request.launch.grid = {"ceil(N / block.x)", "1", "1"};
    request.launch.block = {"256", "1", "1"};
    return request;
}

inline SweepAxis listAxis(const std::string &target, std::vector<std::string> values)
{
    SweepAxis axis;
    axis.target = target;
    axis.values = std::move(values);
    return axis;
}

inline SweepAxis rangeAxis(const std::string &target, double from, double to, double step)
{
    SweepAxis axis;
    axis.target = target;
    axis.kind = AxisValues::Range;
    axis.from = from;
    axis.to = to;
    axis.step = step;
    return axis;
}

inline SweepAxis powersAxis(const std::string &target, double from, double to)
{
    SweepAxis axis;
    axis.target = target;
    axis.kind = AxisValues::PowersOfTwo;
    axis.from = from;
    axis.to = to;
    return axis;
}

// block.x = 32, 64, ..., 2048: seven points, the last skipped (over 1024 threads).
inline SweepSpec blockPowersSweep()
{
    SweepSpec spec;
    spec.axes = {powersAxis("block.x", 32, 2048)};
    return spec;
}

} // namespace cuwb::sweeptest
