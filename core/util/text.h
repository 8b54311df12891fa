// Small text helpers shared by the parsers of NVRTC's and ptxas' output and of CUDA sources.
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

// A character of a C/C++ identifier after its first: a letter, a digit or '_'.
inline bool isIdentifierChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Without leading and trailing spaces, tabs and line ends.
inline std::string_view trimmed(std::string_view text)
{
    const auto isSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
    };
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

// The text's lines, without their line ends (a trailing \r included).
inline std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
    }
    return lines;
}

// The words of a command line as `--worker` and a command target take it: split at blanks, no
// quoting.
inline std::vector<std::string> splitWords(const std::string &text)
{
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string word; in >> word;)
        words.push_back(word);
    return words;
}

// User text as a message quotes it: whole up to `limit` bytes, else its beginning and how
// many characters it has ("xxxx… (200000 characters)"), so that a 200 KB value does not become a
// 200 KB message. Cut at a UTF-8 character boundary.
inline std::string elided(std::string_view text, std::size_t limit = 80)
{
    if (text.size() <= limit)
        return std::string(text);
    const auto continues = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
    std::size_t cut = limit;
    while (cut > 0 && continues(text[cut]))
        --cut; // not inside a multi-byte character
    std::size_t characters = 0;
    for (const char c : text)
        characters += continues(c) ? 0 : 1;
    return std::string(text.substr(0, cut)) + "\u2026 (" + std::to_string(characters) +
           " characters)";
}

inline bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.starts_with(prefix);
}

// The source with comments and string/char literals blanked out, newlines kept, so that
// searching it finds only code and line numbers stay right.
inline std::string codeOnly(std::string_view source)
{
    std::string code(source);
    enum class State { Code, LineComment, BlockComment, String, Char } state = State::Code;
    for (std::size_t i = 0; i < code.size(); ++i) {
        const char c = code[i];
        const char next = i + 1 < code.size() ? code[i + 1] : '\0';
        switch (state) {
        case State::Code:
            if (c == '/' && next == '/')
                state = State::LineComment;
            else if (c == '/' && next == '*')
                state = State::BlockComment;
            else if (c == '"')
                state = State::String;
            else if (c == '\'')
                state = State::Char;
            else
                continue;
            code[i] = ' ';
            break;
        case State::LineComment:
            if (c == '\n')
                state = State::Code;
            else
                code[i] = ' ';
            break;
        case State::BlockComment:
            if (c == '*' && next == '/') {
                code[i] = code[i + 1] = ' ';
                ++i;
                state = State::Code;
            } else if (c != '\n') {
                code[i] = ' ';
            }
            break;
        case State::String:
        case State::Char:
            if (c == '\\' && next != '\0' && next != '\n') {
                code[i] = code[i + 1] = ' ';
                ++i;
            } else if (c == (state == State::String ? '"' : '\'') || c == '\n') {
                if (c != '\n')
                    code[i] = ' ';
                state = State::Code;
            } else {
                code[i] = ' ';
            }
            break;
        }
    }
    return code;
}

} // namespace cuwb
