// bench_compileserver: what compiling in `cuwb compile-server` (the GUI's compiler process,
// worker/isolatedcompiler.h) costs against compiling in-process, as the GUI did before.
// Prints a Markdown table for docs/benchmarks.md.
//
//   bench_compileserver [CUWB] [--repeat N]      (CUWB: default the cuwb beside this program)
//
// Each timed compile is a new source (a comment with a counter appended), so NVRTC and ptxas
// really run, as after an edit. "first compile" includes the process start and NVRTC's load;
// "after a kill" is the first compile once a superseded compile's process was killed.

#include "compiler/kernelcompiler.h"
#include "worker/isolatedcompiler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
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
    std::printf("| %-44s | %8.2f | %8.2f | %8.2f | %4zu |\n", what, median(ms), *lo, *hi,
                ms.size());
}

} // namespace

int main(int argc, char **argv)
{
    std::string cuwb =
        (std::filesystem::canonical("/proc/self/exe").parent_path() / "cuwb").string();
    int repeat = 10;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--repeat" && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else if (!arg.empty() && arg[0] != '-') {
            cuwb = arg;
        } else {
            std::cerr << "usage: bench_compileserver [CUWB] [--repeat N]\n";
            return 2;
        }
    }
    std::ifstream in(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu", std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string sample = buffer.str();
    int counter = 0;
    const auto edited = [&] { return sample + "// edit " + std::to_string(++counter) + "\n"; };

    cuwb::CompileOptions options;
    cuwb::KernelCompiler inProcess;
    cuwb::IsolatedCompiler server(cuwb);

    std::vector<double> first;
    std::vector<double> local;
    std::vector<double> isolated;
    std::vector<double> cachedLocal;
    std::vector<double> cachedIsolated;
    std::vector<double> afterKill;

    auto start = Clock::now();
    if (!server.compile(edited(), "vector_add.cu", options).success) {
        std::cerr << "bench_compileserver: the compile server failed (is " << cuwb << " built?)\n";
        return 1;
    }
    first.push_back(msSince(start));
    inProcess.compile(edited(), "vector_add.cu", options); // NVRTC's load, not timed

    for (int i = 0; i < repeat; ++i) {
        const std::string a = edited();
        start = Clock::now();
        inProcess.compile(a, "vector_add.cu", options);
        local.push_back(msSince(start));
        start = Clock::now();
        inProcess.compile(a, "vector_add.cu", options);
        cachedLocal.push_back(msSince(start));

        const std::string b = edited();
        start = Clock::now();
        server.compile(b, "vector_add.cu", options);
        isolated.push_back(msSince(start));
        start = Clock::now();
        server.compile(b, "vector_add.cu", options);
        cachedIsolated.push_back(msSince(start));
    }
    // A superseded compile: its process is killed, the next compile starts a new one.
    for (int i = 0; i < std::max(3, repeat / 2); ++i) {
        const std::uint64_t job = std::uint64_t(2 * i + 1);
        std::thread stopper([&server, job] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            server.stopUpTo(job);
        });
        server.compile(edited(), "vector_add.cu", options, job);
        stopper.join();
        start = Clock::now();
        server.compile(edited(), "vector_add.cu", options, job + 1);
        afterKill.push_back(msSince(start));
    }

    std::printf("| vector_add, sm_90 | median ms | min | max | n |\n|---|---|---|---|---|\n");
    printRow("in-process (the GUI before): new source", local);
    printRow("compile server: new source", isolated);
    printRow("in-process: same source again (cache)", cachedLocal);
    printRow("compile server: same source again (cache)", cachedIsolated);
    printRow("compile server: first compile (start + load)", first);
    printRow("compile server: first compile after a kill", afterKill);
    std::printf("(%d compile-server processes started)\n", server.serverStarts());
    return 0;
}
