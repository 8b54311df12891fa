// JsonDepth: how deep a JSON text nests its objects and arrays, found in one pass over the text
// (strings skipped, escapes honoured) before a parser builds a tree of it. nlohmann::json parses
// without recursion, but copying, comparing, printing and converting the tree it built recurse
// once per level: a project file of 400 KB nested 200,000 deep overflowed the stack and took a
// whole grading run with it. Callers refuse a text nested deeper than their limit with the
// place where it goes too deep, before anything is built.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace cuwb {

// The offset of the first `[` or `{` that opens level maxDepth + 1 outside a string; nullopt
// when the text never nests deeper than maxDepth. Malformed text is scanned all the same (the
// parser reports what is wrong with it).
std::optional<std::size_t> findJsonDeeperThan(std::string_view text, std::size_t maxDepth);

} // namespace cuwb
