#include "argumentparser.h"
#include "clitext.h"
#include "commands.h"

#include "device/archlimits.h"
#include "device/devicejson.h"
#include "device/occupancy.h"

#include <cstdio>
#include <iostream>

namespace cuwb::cli {

namespace {

const char *const kOccupancyCommand = "occupancy";

std::string blocksText(int blocks)
{
    return blocks == kUnlimitedBlocks ? std::string("unlimited") : std::to_string(blocks);
}

std::string percent(double fraction)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", fraction * 100.0);
    return text;
}

} // namespace

void printOccupancyHelp(std::ostream &out)
{
    out << "Usage: cuwb occupancy --arch sm_XX --registers R --block N\n"
           "                      [--shared-static BYTES] [--shared-dynamic BYTES] [--json]\n"
           "\n"
           "Theoretical occupancy of a kernel on an architecture, computed without a GPU\n"
           "with the toolkit's cuda_occupancy.h: active blocks and warps per SM, occupancy\n"
           "and the resource that limits it (warps, registers, shared memory, blocks per SM).\n"
           "\n"
           "  --arch sm_XX             target architecture (sm_90a and sm_100f count as the base)\n"
           "  --registers R            registers per thread, as ptxas reports them\n"
           "  --block N                threads per block\n"
           "  --shared-static BYTES    static shared memory per block (default 0)\n"
           "  --shared-dynamic BYTES   dynamic shared memory per block (default 0)\n"
           "  --json                   print the result as JSON\n"
           "\n"
           "Exit status: 0 computed, 1 the configuration cannot run (the reason is printed),\n"
           "2 usage error.\n";
}

int runOccupancy(const std::vector<std::string> &arguments)
{
    ArgumentParser parser;
    parser.addOption({"--arch", "-arch"});
    parser.addOption({"--registers", "--regs"});
    parser.addOption({"--block", "--block-size"});
    parser.addOption({"--shared-static"});
    parser.addOption({"--shared-dynamic"});
    parser.addFlag({"--json"});
    parser.addFlag({"--help", "-h"});
    if (!parser.parse(arguments)) {
        return usageError(kOccupancyCommand, parser.error());
    }
    if (parser.isSet("--help")) {
        printOccupancyHelp(std::cout);
        return ExitSuccess;
    }
    if (!parser.positionals().empty()) {
        return usageError(kOccupancyCommand,
                          "unexpected argument '" + parser.positionals().front() + "'");
    }
    for (const char *required : {"--arch", "--registers", "--block"}) {
        if (!parser.isSet(required)) {
            return usageError(kOccupancyCommand, std::string("missing ") + required);
        }
    }

    const std::string arch = *parser.value("--arch");
    const std::optional<ArchLimits> limits = archLimits(arch);
    if (!limits) {
        return usageError(kOccupancyCommand, "unknown architecture '" + arch +
                                                 "'; known: " + joinedWithCommas(knownArchs()));
    }

    OccupancyInput input;
    const auto number = [&parser](const char *option, long long max,
                                  long long &value) -> std::optional<std::string> {
        const std::optional<std::string> text = parser.value(option);
        if (!text) {
            value = 0;
            return std::nullopt;
        }
        const std::optional<long long> parsed = parseCount(*text);
        if (!parsed || *parsed > max) {
            return std::string(option) + " needs a whole number from 0 to " + std::to_string(max) +
                   ", not '" + *text + "'";
        }
        value = *parsed;
        return std::nullopt;
    };
    long long registers = 0;
    long long block = 0;
    long long sharedStatic = 0;
    long long sharedDynamic = 0;
    constexpr long long kIntMax = 2147483647;
    for (const auto &problem :
         {number("--registers", kIntMax, registers), number("--block", kIntMax, block),
          number("--shared-static", kIntMax, sharedStatic),
          number("--shared-dynamic", kIntMax, sharedDynamic)}) {
        if (problem) {
            return usageError(kOccupancyCommand, *problem);
        }
    }
    input.registersPerThread = int(registers);
    input.blockSize = int(block);
    input.staticSharedBytes = std::size_t(sharedStatic);
    input.dynamicSharedBytes = std::size_t(sharedDynamic);

    const OccupancyResult result = computeOccupancy(*limits, input);

    if (parser.isSet("--json")) {
        nlohmann::json json = result;
        json["arch"] = limits->name();
        json["blockSize"] = input.blockSize;
        json["registersPerThread"] = input.registersPerThread;
        json["staticSharedBytes"] = input.staticSharedBytes;
        json["dynamicSharedBytes"] = input.dynamicSharedBytes;
        std::cout << json.dump(2) << "\n";
        return result.valid ? ExitSuccess : ExitFailure;
    }

    const int warpsPerBlock = (input.blockSize + limits->warpSize - 1) / limits->warpSize;
    std::cout << "architecture: " << limits->name() << "\n"
              << "block: " << input.blockSize << " threads (" << warpsPerBlock << " warps), "
              << input.registersPerThread << " registers per thread, " << input.staticSharedBytes
              << " bytes static + " << input.dynamicSharedBytes << " bytes dynamic shared memory\n";
    if (!result.valid) {
        std::cout << "cannot run: " << result.error << "\n";
        return ExitFailure;
    }
    std::cout << "blocks per SM: " << result.activeBlocksPerSm << "\n"
              << "warps per SM: " << result.activeWarpsPerSm << " of " << result.maxWarpsPerSm
              << "\n"
              << "occupancy: " << percent(result.occupancy) << "\n"
              << "limiter: " << limiterName(result.limiter) << "\n"
              << "blocks per SM allowed by: warps " << blocksText(result.blocksLimitedByWarps)
              << ", registers " << blocksText(result.blocksLimitedByRegisters) << ", shared memory "
              << blocksText(result.blocksLimitedBySharedMemory) << ", block slots "
              << blocksText(result.blocksLimitedBySmBlocks) << "\n";
    return ExitSuccess;
}

} // namespace cuwb::cli
