// GpuHelpers: the runner's own kernels, compiled once per process with NVRTC for the device's
// architecture: fill a buffer with generated values (constant, range, uniform and normal
// random from a counter-based hash, so no data passes through host memory), write a byte
// pattern (poison), count elements still holding a pattern, per-buffer statistics, the
// element-wise comparison behind verification, and a kernel that holds a stream (timing). The
// kernels that touch values take the element kind as an argument (cuwb::ScalarKind's order) and
// work on lanes flattened into scalars.
#pragma once

#include "cuda/devicememory.h"
#include "cuda/driverwrappers.h"
#include "device/deviceinfo.h"
#include "kernel/elementtype.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

enum class FillMode { Constant = 0, Range = 1, Uniform = 2, Normal = 3 };

struct ScalarStats
{
    double min = 0.0;
    double max = 0.0;
    double sum = 0.0;
    std::uint64_t finite = 0;
    std::uint64_t nan = 0;
    std::uint64_t inf = 0;
};

struct PatternCount
{
    std::uint64_t count = 0;
    std::int64_t first = -1;
};

struct CompareSummary
{
    std::uint64_t mismatches = 0;
    double maxError = 0.0;
    std::uint64_t maxErrorScalar = 0; // scalar (lane-flattened) index of the largest error
    std::int64_t firstScalar = -1;    // smallest mismatching scalar index >= from
    // |actual - expected| and, over the elements whose expected value is not 0, that over
    // |expected|: the largest of each and its scalar index; absent when none was compared.
    std::optional<double> maxAbsError;
    std::uint64_t maxAbsErrorScalar = 0;
    std::optional<double> maxRelError;
    std::uint64_t maxRelErrorScalar = 0;
};

// The per-block results of cuwb_compare reduced on the host: `errors` and `indices` hold three
// entries a block (the tolerance's error, the absolute error, the relative error; -1 where a
// block compared nothing), `counts` one, `first` the smallest mismatching index or ~0. Ties go
// to the smaller index. Public so that the reduction is tested without a GPU.
CompareSummary summariseCompare(const std::vector<double> &errors,
                                const std::vector<std::uint64_t> &indices,
                                const std::vector<std::uint64_t> &counts, std::uint64_t first);

// The source of the helper kernels, for a test that compiles it without a GPU.
const char *helperKernelSource();

class GpuHelpers;

// The buffer that cold samples and the metrics pass read to flush the L2 (readFlush): twice
// the device's L2, written once so that what the flush reads is defined, then read once.
DeviceBuffer l2FlushBuffer(const DeviceInfo &device, const GpuHelpers &helpers,
                           const Stream &stream);

class GpuHelpers
{
public:
    // Compiles and loads the helper module for `arch` (e.g. "sm_90"); throws std::runtime_error
    // when NVRTC fails (a bug, not the user's) and ApiError when loading fails.
    GpuHelpers(const std::string &arch, int smCount);

    // `scalars` values of `kind` at `pointer`: value j = a (Constant), a + j*b (Range),
    // uniform in [a, b) (Uniform) or normal with mean a and deviation b (Normal).
    void fill(DevicePointer pointer, std::uint64_t scalars, ScalarKind kind, FillMode mode,
              double a, double b, std::uint64_t seed, const Stream &stream) const;
    // Queues a one-thread kernel that holds `stream` until the host sets word 0 of `flags`, or
    // until timeoutNs have passed (it then sets word 1). Launches queued behind it start
    // back to back once it is released, so events around them time the GPU, not the host.
    void block(const MappedHostFlags &flags, std::uint64_t timeoutNs, const Stream &stream) const;
    // Reads the first `bytes` of `pointer` (16-byte aligned) through the L2, leaving it full of
    // clean lines of that buffer: what evicts a timed kernel's data without leaving dirty lines
    // for the next launch to write back (the L2 flush of cold samples, docs/measurement.md).
    // `key` only keeps the reads from being optimised away; the buffer's first word may change.
    void readFlush(DevicePointer pointer, std::uint64_t bytes, unsigned key,
                   const Stream &stream) const;
    // Writes `bytes` bytes of a 64-bit pattern (repeating every 1, 2, 4 or 8 bytes);
    // `pointer` must be 8-byte aligned.
    void pattern(DevicePointer pointer, std::uint64_t bytes, std::uint64_t pattern,
                 const Stream &stream) const;
    // How many of `count` elements of `elementBytes` bytes consist only of the pattern.
    PatternCount countPattern(DevicePointer pointer, std::uint64_t count, std::size_t elementBytes,
                              std::uint64_t pattern, const Stream &stream) const;
    ScalarStats stats(DevicePointer pointer, std::uint64_t scalars, ScalarKind kind,
                      const Stream &stream) const;
    // tolerance: 0 absolute, 1 relative, 2 ULP (each against `bound`), 3 allclose (|a - e| <=
    // bound + rtol * |e|). Only scalars >= fromScalar count for firstScalar; the other fields
    // cover all scalars. With a `mask` (one byte per element of `lanes` scalars), only the
    // elements whose byte is not 0 are compared.
    CompareSummary compare(DevicePointer actual, DevicePointer expected, std::uint64_t scalars,
                           ScalarKind kind, int tolerance, double bound, double rtol,
                           std::uint64_t fromScalar, const Stream &stream, DevicePointer mask = 0,
                           std::uint64_t lanes = 1) const;

private:
    unsigned blocksFor(std::uint64_t items) const;
    Module m_module;
    Function m_fill;
    Function m_pattern;
    Function m_countPattern;
    Function m_stats;
    Function m_compare;
    Function m_block;
    Function m_readFlush;
    int m_smCount = 1;
};

// The bit pattern poisoning an element of `kind`, repeated to fill 64 bits: a quiet NaN
// with a recognisable payload for floating types, 0xFF bytes otherwise.
std::uint64_t poisonPattern(ScalarKind kind);

} // namespace cuwb
