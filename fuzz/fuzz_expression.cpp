// Fuzzes launch expressions (muparser behind evaluateExpression and evaluateVariables): any
// text gives a value or an error, never a crash. The input is "expression" or, with NUL
// bytes, "name\0expression\0name\0expression..." definitions evaluated in order.
#include "fuzzinput.h"
#include "launch/expression.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = cuwb::fuzz::asText(data, size);
    if (text.size() > 4096)
        return 0; // muparser's cost grows with length; longer inputs find nothing new
    const cuwb::Variables variables{{"N", 1024.0}, {"M", 3.0}, {"zero", 0.0}, {"neg", -1.0}};
    (void)cuwb::evaluateExpression(text, variables);

    std::vector<std::pair<std::string, std::string>> definitions;
    const std::vector<std::string_view> fields = cuwb::fuzz::splitAll(text);
    for (std::size_t i = 0; i + 1 < fields.size() && definitions.size() < 16; i += 2)
        definitions.emplace_back(std::string(fields[i]), std::string(fields[i + 1]));
    (void)cuwb::evaluateVariables(definitions);
    return 0;
}
