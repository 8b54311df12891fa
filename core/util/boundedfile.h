// Reading a file a user named, whatever it turns out to be: only a regular file is read, and
// only up to a limit checked before the first byte. A device (/dev/zero, /dev/urandom) would
// be read without end, a FIFO would block forever, a directory is not text, and a path with a
// NUL in it would name another file than the one typed: each is refused with a sentence that
// says what the path is and which limit applies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuwb {

// The limits of the files a project names (docs/projects.md, "Limits").
inline constexpr std::uint64_t kMaxProjectFileBytes = 16ull << 20; // a .cuwb
inline constexpr std::uint64_t kMaxSourceFileBytes = 16ull << 20;  // a .cu

struct BoundedRead
{
    std::string text;  // the file's bytes, when ok
    std::string error; // "cannot read '/dev/zero': it is a character device, not a file"
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// Reads `path` whole if it is a regular file of at most `maxBytes`. `what` names it in the
// errors ("source", "project"); the limit is named in bytes with its unit.
BoundedRead readBoundedFile(std::string_view path, std::uint64_t maxBytes, std::string_view what);

// What kind of file `mode` (from stat) is, in words: "a directory", "a FIFO (named pipe)", ...
std::string fileKindName(unsigned mode);

} // namespace cuwb
