// bench_compile: what a compile costs on each of the workbench's two paths, for the same
// source, options and file: nvcc (`nvcc -cubin`, the user's build; the default where the
// toolkit has it) and NVRTC (in process). Both run through KernelCompiler with its cache
// cleared before each compile, interleaved so that a busy machine slows both alike. Prints a
// Markdown table for docs/benchmarks.md.
//
//   bench_compile [FILE.cu ...] [--arch sm_90] [--repeat N]
//
// Without files it compiles every sample's .cu.

#include "compiler/kernelcompiler.h"
#include "compiler/nvcc.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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
    return n == 0 ? 0.0 : n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> paths;
    std::string arch = "sm_90";
    int repeat = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--arch" && i + 1 < argc) {
            arch = argv[++i];
        } else if (arg == "--repeat" && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else if (!arg.empty() && arg[0] != '-') {
            paths.push_back(arg);
        } else {
            std::cerr << "usage: bench_compile [FILE.cu ...] [--arch sm_XX] [--repeat N]\n";
            return 2;
        }
    }
    if (paths.empty()) {
        for (const auto &entry : std::filesystem::directory_iterator(CUWB_SAMPLES_DIR)) {
            for (const auto &file : std::filesystem::directory_iterator(entry.path())) {
                if (file.path().extension() == ".cu")
                    paths.push_back(file.path().string());
            }
        }
        std::sort(paths.begin(), paths.end());
    }
    if (!cuwb::nvccInstallation().found()) {
        std::cerr << "bench_compile: " << cuwb::nvccInstallation().problem << "\n";
        return 1;
    }

    std::printf("Compile for %s, median of %d (KernelCompiler, cache cleared each time); nvcc "
                "%s\n\n",
                arch.c_str(), repeat, cuwb::nvccInstallation().version.c_str());
    std::printf("| file | nvcc ms | NVRTC ms | nvcc / NVRTC |\n|---|---:|---:|---:|\n");
    std::vector<double> ratios;
    cuwb::KernelCompiler compiler;
    for (const std::string &path : paths) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream buffer;
        buffer << in.rdbuf();
        const std::string source = buffer.str();
        const std::string name = std::filesystem::path(path).filename().string();
        cuwb::CompileOptions nvcc;
        nvcc.arch = arch;
        nvcc.compiler = "nvcc";
        nvcc.includeDirs = {std::filesystem::path(path).parent_path().string()};
        cuwb::CompileOptions nvrtc = nvcc;
        nvrtc.compiler = "nvrtc";
        std::vector<double> nvccMs;
        std::vector<double> nvrtcMs;
        bool ok = true;
        for (int i = 0; i < repeat && ok; ++i) {
            for (auto [options, times] : {std::pair{&nvcc, &nvccMs}, std::pair{&nvrtc, &nvrtcMs}}) {
                compiler.clearCache();
                const auto start = Clock::now();
                const cuwb::CompileResult result = compiler.compile(source, name, *options);
                times->push_back(msSince(start));
                ok = ok && result.success;
            }
        }
        if (!ok) {
            std::printf("| %s | did not compile | | |\n", name.c_str());
            continue;
        }
        ratios.push_back(median(nvccMs) / median(nvrtcMs));
        std::printf("| %s | %.0f | %.0f | %.1f× |\n", name.c_str(), median(nvccMs), median(nvrtcMs),
                    ratios.back());
    }
    std::printf("\nmedian ratio nvcc / NVRTC: %.1f× over %zu files\n", median(ratios),
                ratios.size());
    return 0;
}
