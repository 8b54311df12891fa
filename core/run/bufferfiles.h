// BufferFiles: a device buffer's elements from and to the files the user names. Reading takes
// NumPy's .npy (recognised by its magic; dtype, order and number of values checked against the
// buffer, also without a GPU: checkBufferFile) or raw bytes of exactly the buffer's size; writing
// makes .npy, raw .bin or CSV. Both pass through host memory in 4 MiB chunks with the device's
// context current. Used by the runner for `file` initialisation, file references and
// exportBuffer().
#pragma once

#include "cuda/devicememory.h"
#include "kernel/elementtype.h"
#include "run/runrequest.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cuwb {

// A problem with a file the user named; the caller decides what it means for the run.
struct FileProblem : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// Whether `path` holds exactly `count` elements of `type`, from its header alone (no GPU, no
// read of the data): a .npy (by its magic) of the same dtype, in C order (or 1-D), with
// count × lanes values whatever its shape; a raw file of count × the element's size bytes.
// Returns where the data starts; throws FileProblem with a plain sentence that names `forWhat`
// ("`a`", "the reference of `c`"). `cuwb check` and loadFileToDevice ask the same.
std::uint64_t checkBufferFile(const std::string &path, const ElementType &type, std::uint64_t count,
                              const std::string &forWhat);

// Reads a .npy (by its magic) or raw file of `count` elements of `type` (checkBufferFile) and
// copies it to the device in chunks, in order on `stream`. Throws FileProblem with a plain
// sentence that names `forWhat`.
void loadFileToDevice(const std::string &path, const ElementType &type, std::uint64_t count,
                      DevicePointer destination, const Stream &stream, const std::string &forWhat);

// Writes `count` elements of `type` at `data` to `path` as `format`; returns the bytes written.
// Throws std::runtime_error with a plain message when the file cannot be written.
std::uint64_t writeBufferFile(const std::string &path, ExportFormat format, DevicePointer data,
                              const ElementType &type, std::uint64_t count, const Stream &stream);

} // namespace cuwb
