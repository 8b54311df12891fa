// Fuzzes the NVRTC log parser: any log gives diagnostics with sane positions, never a
// crash. The input is "log", or "mainFile\0lastSourceLine\0log".
#include "compiler/diagnosticparser.h"
#include "fuzzinput.h"

#include <charconv>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = cuwb::fuzz::asText(data, size);
    (void)cuwb::parseNvrtcLog(text);
    if (text.find('\0') == std::string_view::npos)
        return 0;
    const auto fields = cuwb::fuzz::splitFields(text, 3);
    int lastLine = 0;
    std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), lastLine);
    (void)cuwb::parseNvrtcLog(fields[2], fields[0], lastLine);
    return 0;
}
