// bench_compile: how long the vector-add sample takes to compile, the ways the workbench can
// compile it. Prints a Markdown table for docs/benchmarks.md.
//
//   bench_compile [FILE.cu] [--arch sm_90] [--repeat N]
//
// cold:   the first NVRTC compile in this process (includes NVRTC's own start-up)
// warm:   later compiles of the same source with the cache cleared each time
// cached: the same source and options again (served from KernelCompiler's cache)
// nvcc:   `nvcc --cubin` as a subprocess, the way PyCUDA compiles

#include "compiler/kernelcompiler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

void printRow(const char *what, const std::vector<double> &ms)
{
    const auto [lo, hi] = std::minmax_element(ms.begin(), ms.end());
    std::printf("| %-34s | %8.2f | %8.2f | %8.2f | %4zu |\n", what, median(ms), *lo, *hi,
                ms.size());
}

} // namespace

int main(int argc, char **argv)
{
    std::string path = CUWB_SAMPLES_DIR "/vector_add/vector_add.cu";
    std::string arch = "sm_90";
    int repeat = 10;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--arch" && i + 1 < argc) {
            arch = argv[++i];
        } else if (arg == "--repeat" && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else if (!arg.empty() && arg[0] != '-') {
            path = arg;
        } else {
            std::cerr << "usage: bench_compile [FILE.cu] [--arch sm_XX] [--repeat N]\n";
            return 2;
        }
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "bench_compile: cannot read " << path << "\n";
        return 2;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string source = buffer.str();

    cuwb::CompileOptions options;
    options.arch = arch;
    cuwb::KernelCompiler compiler;

    auto start = Clock::now();
    const cuwb::CompileResult first = compiler.compile(source, "vector_add.cu", options);
    const double coldMs = msSince(start);
    if (!first.success) {
        std::cerr << "bench_compile: the sample did not compile: " << first.failureMessage
                  << first.log << "\n";
        return 1;
    }

    std::vector<double> warm, nvrtcOnly, cached;
    for (int i = 0; i < repeat; ++i) {
        compiler.clearCache();
        start = Clock::now();
        const cuwb::CompileResult r = compiler.compile(source, "vector_add.cu", options);
        warm.push_back(msSince(start));
        nvrtcOnly.push_back(r.compileTimeMs);
    }
    for (int i = 0; i < repeat; ++i) {
        start = Clock::now();
        const cuwb::CompileResult r = compiler.compile(source, "vector_add.cu", options);
        cached.push_back(msSince(start));
        if (!r.fromCache) {
            std::cerr << "bench_compile: expected a cache hit\n";
            return 1;
        }
    }

    std::vector<double> nvcc;
    const std::string nvccPath = "/usr/local/cuda/bin/nvcc";
    const std::string command = nvccPath + " --cubin -arch=" + arch +
                                " -lineinfo -o /tmp/bench_compile.cubin '" + path +
                                "' > /dev/null 2>&1";
    for (int i = 0; i < std::min(repeat, 5); ++i) {
        start = Clock::now();
        if (std::system(command.c_str()) != 0) {
            nvcc.clear();
            break;
        }
        nvcc.push_back(msSince(start));
    }

    std::printf("Compile of %s for %s (%d repeats)\n\n", path.c_str(), arch.c_str(), repeat);
    std::printf("| %-34s | %8s | %8s | %8s | %4s |\n", "what", "median ms", "min ms", "max ms",
                "n");
    std::printf("|%s|---------:|---------:|---------:|-----:|\n", std::string(36, '-').c_str());
    printRow("NVRTC cold (first in process)", {coldMs});
    printRow("NVRTC warm (cache cleared)", warm);
    printRow("  of which inside NVRTC+parsing", nvrtcOnly);
    printRow("cached recompile", cached);
    if (!nvcc.empty())
        printRow("nvcc --cubin subprocess", nvcc);
    else
        std::printf("| %-34s | %8s | %8s | %8s | %4s |\n", "nvcc --cubin subprocess", "n/a", "", "",
                    "");
    return 0;
}
