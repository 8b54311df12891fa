// Fuzzes the kernel signature reader: a declaration in any source, checked against any PTX,
// gives parameters or an error, never a crash. The input is
// "readableName\0loweredName\0sourceLine\0source\0ptx" (see fuzzinput.h).
#include "compiler/kernelinfo.h"
#include "fuzzinput.h"
#include "kernel/kernelsignature.h"

#include <charconv>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto fields = cuwb::fuzz::splitFields(cuwb::fuzz::asText(data, size), 5);
    cuwb::KernelInfo kernel;
    kernel.readableName = std::string(fields[0]);
    kernel.loweredName = std::string(fields[1]);
    std::from_chars(fields[2].data(), fields[2].data() + fields[2].size(), kernel.sourceLine);
    (void)cuwb::parseKernelSignature(fields[3], fields[4], kernel);
    (void)cuwb::ptxEntryParameterSizes(fields[4], fields[1]);
    return 0;
}
