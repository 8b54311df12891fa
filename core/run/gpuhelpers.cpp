#include "run/gpuhelpers.h"

#include "compiler/kernelcompiler.h"
#include "cuda/apierror.h"
#include "cuda/nvrtcinfo.h"
#include "measure/measurement.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace cuwb {

namespace {

// Kind numbers follow cuwb::ScalarKind. Grid-stride loops, so one launch size serves every
// buffer; 64-bit indices, so 2^30-element buffers and more are fine.
const char *const kHelperSource = R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>

typedef unsigned long long u64;
typedef long long i64;
enum { K_BOOL, K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64, K_F16, K_BF16, K_F32, K_F64 };

#define INF __longlong_as_double(0x7ff0000000000000ll)
#define GRID_STRIDE(j, n) \
    for (u64 j = blockIdx.x * (u64)blockDim.x + threadIdx.x; j < (n); j += (u64)gridDim.x * blockDim.x)

__device__ double loadScalar(const void *p, u64 j, int kind)
{
    switch (kind) {
    case K_BOOL: return ((const unsigned char *)p)[j] ? 1.0 : 0.0;
    case K_I8: return ((const signed char *)p)[j];
    case K_U8: return ((const unsigned char *)p)[j];
    case K_I16: return ((const short *)p)[j];
    case K_U16: return ((const unsigned short *)p)[j];
    case K_I32: return ((const int *)p)[j];
    case K_U32: return ((const unsigned *)p)[j];
    case K_I64: return (double)((const i64 *)p)[j];
    case K_U64: return (double)((const u64 *)p)[j];
    case K_F16: return __half2float(((const __half *)p)[j]);
    case K_BF16: return __bfloat162float(((const __nv_bfloat16 *)p)[j]);
    case K_F32: return ((const float *)p)[j];
    default: return ((const double *)p)[j];
    }
}

__device__ void storeScalar(void *p, u64 j, int kind, double v)
{
    // Integers take the floor, so uniform values in [lo, hi) stay below hi.
    const double f = floor(v);
    switch (kind) {
    case K_BOOL: ((unsigned char *)p)[j] = v != 0.0; break;
    case K_I8: ((signed char *)p)[j] = (signed char)(i64)f; break;
    case K_U8: ((unsigned char *)p)[j] = (unsigned char)(i64)f; break;
    case K_I16: ((short *)p)[j] = (short)(i64)f; break;
    case K_U16: ((unsigned short *)p)[j] = (unsigned short)(i64)f; break;
    case K_I32: ((int *)p)[j] = (int)(i64)f; break;
    case K_U32: ((unsigned *)p)[j] = (unsigned)(i64)f; break;
    case K_I64: ((i64 *)p)[j] = (i64)f; break;
    case K_U64: ((u64 *)p)[j] = f < 0.0 ? (u64)(i64)f : (u64)f; break;
    case K_F16: ((__half *)p)[j] = __double2half(v); break;
    case K_BF16: ((__nv_bfloat16 *)p)[j] = __double2bfloat16(v); break;
    case K_F32: ((float *)p)[j] = (float)v; break;
    default: ((double *)p)[j] = v; break;
    }
}

// Uniform values must stay below hi, but rounding a double just under hi to float, half or
// bfloat16 can land on hi itself: step such a value down to the largest one below hi.
__device__ void keepBelow(void *p, u64 j, int kind, double hi)
{
    for (int step = 0; step < 4 && loadScalar(p, j, kind) >= hi; ++step) {
        switch (kind) {
        case K_F32: {
            float *f = (float *)p + j;
            *f = nextafterf(*f, -__int_as_float(0x7f800000));
            break;
        }
        case K_F64: {
            double *d = (double *)p + j;
            *d = nextafter(*d, -INF);
            break;
        }
        case K_F16:
        case K_BF16: {
            unsigned short *bits = (unsigned short *)p + j;
            if (*bits & 0x8000u)
                *bits = (unsigned short)(*bits + 1); // negative: one step further from zero
            else if (*bits == 0)
                *bits = 0x8001u; // +0: the smallest negative subnormal
            else
                *bits = (unsigned short)(*bits - 1);
            break;
        }
        default: return; // integers take the floor and are below hi already
        }
    }
}

// splitmix64's finaliser: a counter-based generator, value j depends only on (seed, j).
__device__ u64 mix(u64 x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

__device__ double unit(u64 x) { return (double)(x >> 11) * (1.0 / 9007199254740992.0); }

// Element j of the stream of `key`: the key advanced by j steps of an odd constant, then mixed.
// Seed and index play different parts, so seed s at index j never repeats seed j at index s.
__device__ u64 draw(u64 key, u64 j) { return mix(key + j * 0xD1B54A32D192ED03ull); }

extern "C" __global__ void cuwb_fill(void *p, u64 n, int kind, int mode, double a, double b, u64 seed)
{
    const u64 key = mix(seed);
    GRID_STRIDE(j, n) {
        double v;
        if (mode == 0) {
            v = a;
        } else if (mode == 1) {
            v = a + (double)j * b;
        } else if (mode == 2) {
            v = a + (b - a) * unit(draw(key, j));
        } else {
            const double u1 = 1.0 - unit(draw(key, 2 * j));
            const double u2 = unit(draw(key, 2 * j + 1));
            v = a + b * sqrt(-2.0 * log(u1)) * cospi(2.0 * u2);
        }
        storeScalar(p, j, kind, v);
        if (mode == 2)
            keepBelow(p, j, kind, b);
    }
}

extern "C" __global__ void cuwb_pattern(unsigned char *p, u64 bytes, u64 pattern)
{
    const u64 words = bytes / 8;
    GRID_STRIDE(k, words) { ((u64 *)p)[k] = pattern; }
    const u64 t = blockIdx.x * (u64)blockDim.x + threadIdx.x;
    if (t < bytes - words * 8)
        p[words * 8 + t] = (unsigned char)(pattern >> (8 * t));
}

extern "C" __global__ void cuwb_count_pattern(const unsigned char *p, u64 count, int elementBytes,
                                              int unitBytes, u64 pattern, u64 *result)
{
    const u64 mask = unitBytes == 8 ? ~0ull : ((1ull << (8 * unitBytes)) - 1);
    const u64 want = pattern & mask;
    u64 found = 0, first = ~0ull;
    GRID_STRIDE(i, count) {
        const unsigned char *e = p + i * elementBytes;
        bool all = true;
        for (int o = 0; o < elementBytes && all; o += unitBytes) {
            u64 v;
            switch (unitBytes) {
            case 8: v = *(const u64 *)(e + o); break;
            case 4: v = *(const unsigned *)(e + o); break;
            case 2: v = *(const unsigned short *)(e + o); break;
            default: v = e[o]; break;
            }
            all = v == want;
        }
        if (all) {
            ++found;
            first = min(first, i);
        }
    }
    if (found) {
        atomicAdd(&result[0], found);
        atomicMin(&result[1], first);
    }
}

// One partial result per block: min, max, sum of finite values, finite, NaN and Inf counts.
extern "C" __global__ void cuwb_stats(const void *p, u64 n, int kind, double *partial)
{
    __shared__ double s[6][256];
    double lo = INF, hi = -INF, sum = 0.0, finite = 0.0, nans = 0.0, infs = 0.0;
    GRID_STRIDE(j, n) {
        const double v = loadScalar(p, j, kind);
        if (isnan(v)) {
            nans += 1.0;
        } else if (isinf(v)) {
            infs += 1.0;
        } else {
            lo = fmin(lo, v);
            hi = fmax(hi, v);
            sum += v;
            finite += 1.0;
        }
    }
    const unsigned t = threadIdx.x;
    s[0][t] = lo; s[1][t] = hi; s[2][t] = sum; s[3][t] = finite; s[4][t] = nans; s[5][t] = infs;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) {
            s[0][t] = fmin(s[0][t], s[0][t + half]);
            s[1][t] = fmax(s[1][t], s[1][t + half]);
            for (int k = 2; k < 6; ++k) s[k][t] += s[k][t + half];
        }
        __syncthreads();
    }
    if (t == 0)
        for (int k = 0; k < 6; ++k) partial[blockIdx.x * 6 + k] = s[k][0];
}

__device__ i64 orderedBits(const void *p, u64 j, int kind)
{
    switch (kind) {
    case K_F16:
    case K_BF16: {
        const unsigned short b = ((const unsigned short *)p)[j];
        return (b & 0x8000) ? -(i64)(b & 0x7fff) : (i64)b;
    }
    case K_F32: {
        const unsigned b = ((const unsigned *)p)[j];
        return (b & 0x80000000u) ? -(i64)(b & 0x7fffffffu) : (i64)b;
    }
    default: {
        const u64 b = ((const u64 *)p)[j];
        return (b >> 63) ? -(i64)(b & 0x7fffffffffffffffull) : (i64)b;
    }
    }
}

// tolerance: 0 abs, 1 rel, 2 ULP, 3 allclose (|a - e| <= bound + rtol * |e|, the error as a
// multiple of that allowance). Per block: mismatches, max error and its index, and the largest
// absolute error and relative error (over references not 0) with their indices, whatever the
// tolerance; firstFrom gets the smallest mismatching index >= from (atomicMin).
extern "C" __global__ void cuwb_compare(const void *actual, const void *expected, u64 n, int kind,
                                        int tolerance, double bound, double rtol, u64 from,
                                        double *partialError, u64 *partialIndex, u64 *partialCount,
                                        u64 *firstFrom, const unsigned char *mask, u64 lanes)
{
    __shared__ double se[256];
    __shared__ u64 si[256];
    __shared__ u64 sc[256];
    __shared__ double sa[256];
    __shared__ u64 sai[256];
    __shared__ double sr[256];
    __shared__ u64 sri[256];
    const bool floating = kind == K_F16 || kind == K_BF16 || kind == K_F32 || kind == K_F64;
    double worst = -1.0, worstAbs = -1.0, worstRel = -1.0;
    u64 worstIndex = 0, worstAbsIndex = 0, worstRelIndex = 0, count = 0, first = ~0ull;
    GRID_STRIDE(j, n) {
        if (mask && !mask[j / lanes]) continue;
        const double a = loadScalar(actual, j, kind);
        const double e = loadScalar(expected, j, kind);
        double error, absError, relError;
        if (isnan(a) || isnan(e)) {
            error = absError = relError = (isnan(a) && isnan(e)) ? 0.0 : INF;
        } else if (a == e) {
            error = absError = relError = 0.0;
        } else if (isinf(a) || isinf(e)) {
            error = absError = relError = INF;
        } else {
            absError = fabs(a - e);
            relError = e != 0.0 ? absError / fabs(e) : -1.0;
            if (tolerance == 0) {
                error = absError;
            } else if (tolerance == 1) {
                error = absError / fabs(e);
            } else if (tolerance == 3) {
                const double allowed = bound + rtol * fabs(e);
                error = allowed > 0.0 ? absError / allowed : INF;
            } else if (floating) {
                error = fabs((double)orderedBits(actual, j, kind) - (double)orderedBits(expected, j, kind));
            } else {
                error = absError;
            }
        }
        if (tolerance == 3 ? error > 1.0 : error > bound) {
            ++count;
            if (j >= from) first = min(first, j);
        }
        if (error > worst) {
            worst = error;
            worstIndex = j;
        }
        if (absError > worstAbs) {
            worstAbs = absError;
            worstAbsIndex = j;
        }
        if (relError > worstRel) {
            worstRel = relError;
            worstRelIndex = j;
        }
    }
    if (first != ~0ull) atomicMin(firstFrom, first);
    const unsigned t = threadIdx.x;
    se[t] = worst; si[t] = worstIndex; sc[t] = count;
    sa[t] = worstAbs; sai[t] = worstAbsIndex; sr[t] = worstRel; sri[t] = worstRelIndex;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) {
            if (se[t + half] > se[t] || (se[t + half] == se[t] && si[t + half] < si[t])) {
                se[t] = se[t + half];
                si[t] = si[t + half];
            }
            if (sa[t + half] > sa[t] || (sa[t + half] == sa[t] && sai[t + half] < sai[t])) {
                sa[t] = sa[t + half];
                sai[t] = sai[t + half];
            }
            if (sr[t + half] > sr[t] || (sr[t + half] == sr[t] && sri[t + half] < sri[t])) {
                sr[t] = sr[t + half];
                sri[t] = sri[t + half];
            }
            sc[t] += sc[t + half];
        }
        __syncthreads();
    }
    if (t == 0) {
        const unsigned b = blockIdx.x;
        partialError[b * 3] = se[0];
        partialError[b * 3 + 1] = sa[0];
        partialError[b * 3 + 2] = sr[0];
        partialIndex[b * 3] = si[0];
        partialIndex[b * 3 + 1] = sai[0];
        partialIndex[b * 3 + 2] = sri[0];
        partialCount[b] = sc[0];
    }
}

// One thread that holds its stream until the host sets flags[0] (the launches behind it are
// queued by then), or until timeoutNs of %globaltimer have passed: then it sets flags[1] and
// returns, so a host that never releases it cannot hang the GPU.
// Reads `words` 16-byte words: every line of L2 then holds clean data of this buffer, so the
// lines a kernel left dirty are written back here rather than during the next timed launch.
// The loads must not be optimised away: the XOR of what was read is stored, harmlessly into
// the buffer itself, only when it equals `key`, which the compiler cannot know.
extern "C" __global__ void cuwb_read_flush(uint4 *p, u64 words, unsigned key)
{
    unsigned seen = 0;
    GRID_STRIDE(k, words) {
        const uint4 v = p[k];
        seen ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (seen == key)
        p[0].x = seen;
}

extern "C" __global__ void cuwb_block(volatile unsigned *flags, u64 timeoutNs)
{
    u64 start;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    while (flags[0] == 0) {
        u64 now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now - start > timeoutNs) {
            flags[1] = 1;
            __threadfence_system();
            return;
        }
        __nanosleep(100);
    }
}
)";

constexpr unsigned kThreads = 256;

// Compiling the helpers takes 200-400 ms of NVRTC, most of a worker's start; the cubin is kept
// in $XDG_CACHE_HOME/cuda-workbench (or ~/.cache/cuda-workbench), under a name made of the
// architecture, the NVRTC version and a hash of the source, so a changed helper or toolkit
// never loads a stale one. A cache that cannot be read or written is simply not used.
std::filesystem::path helperCachePath(const std::string &arch)
{
    std::filesystem::path folder;
    if (const char *cache = std::getenv("XDG_CACHE_HOME"); cache && *cache == '/') {
        folder = cache;
    } else if (const char *home = std::getenv("HOME"); home && *home == '/') {
        folder = std::filesystem::path(home) / ".cache";
    } else {
        return {};
    }
    std::string hash = sourceHashFnv1a64(kHelperSource);
    hash.erase(0, hash.find(':') + 1);
    return folder / "cuda-workbench" /
           ("helpers-" + arch + "-nvrtc" + nvrtcVersion() + "-" + hash + ".cubin");
}

std::string readCachedImage(const std::filesystem::path &path)
{
    if (path.empty()) {
        return {};
    }
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeCachedImage(const std::filesystem::path &path, const std::string &image)
{
    if (path.empty()) {
        return;
    }
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    // Written beside and renamed, so a concurrent worker never reads half a file.
    const std::filesystem::path temporary =
        path.string() + ".tmp" + std::to_string(static_cast<long>(::getpid()));
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(image.data(), std::streamsize(image.size()));
        if (!out) {
            std::filesystem::remove(temporary, error);
            return;
        }
    }
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::filesystem::remove(temporary, error);
    }
}

std::string compileHelperImage(const std::string &arch)
{
    KernelCompiler compiler(1);
    CompileOptions options;
    options.arch = arch;
    options.lineInfo = false;
    const CompileResult result = compiler.compile(kHelperSource, "cuwb_helpers.cu", options);
    if (!result.success) {
        throw std::runtime_error(
            "the workbench's helper kernels did not compile for " + arch + ": " +
            (result.failureMessage.empty() ? result.log : result.failureMessage));
    }
    return result.cubin;
}

struct Params
{
    std::vector<void *> pointers;
    template <typename... T>
    explicit Params(T &...values)
        : pointers{static_cast<void *>(&values)...}
    {}
};

} // namespace

const char *helperKernelSource()
{
    return kHelperSource;
}

std::uint64_t poisonPattern(ScalarKind kind)
{
    switch (kind) {
    case ScalarKind::Float16:
        return 0x7EAD7EAD7EAD7EADull;
    case ScalarKind::BFloat16:
        return 0x7FED7FED7FED7FEDull;
    case ScalarKind::Float32:
        return 0x7FC0BAD17FC0BAD1ull;
    case ScalarKind::Float64:
        return 0x7FF8BAD1BAD1BAD1ull;
    default:
        return ~0ull;
    }
}

namespace {

Module loadHelperModule(const std::string &arch)
{
    const std::filesystem::path cached = helperCachePath(arch);
    if (std::string image = readCachedImage(cached); !image.empty()) {
        try {
            return Module(image);
        } catch (const ApiError &) {
            // A damaged or foreign file: compile afresh and replace it.
        }
    }
    std::string image = compileHelperImage(arch);
    Module module(image);
    writeCachedImage(cached, image);
    return module;
}

} // namespace

DeviceBuffer l2FlushBuffer(const DeviceInfo &device, const GpuHelpers &helpers,
                           const Stream &stream)
{
    const std::size_t l2 = std::size_t(std::max(device.l2CacheBytes, 1 << 20));
    DeviceBuffer buffer(l2 * 2);
    fillBytesAsync(buffer.pointer(), 0x5a, buffer.bytes(), stream);
    // The fill left the L2 full of this buffer's dirty lines; one read of the whole buffer
    // writes them back, so that every flush after this one leaves only clean lines.
    helpers.readFlush(buffer.pointer(), buffer.bytes(), 0, stream);
    return buffer;
}

GpuHelpers::GpuHelpers(const std::string &arch, int smCount)
    : m_module(loadHelperModule(arch))
    , m_fill(m_module.function("cuwb_fill"))
    , m_pattern(m_module.function("cuwb_pattern"))
    , m_countPattern(m_module.function("cuwb_count_pattern"))
    , m_stats(m_module.function("cuwb_stats"))
    , m_compare(m_module.function("cuwb_compare"))
    , m_block(m_module.function("cuwb_block"))
    , m_readFlush(m_module.function("cuwb_read_flush"))
    , m_smCount(std::max(1, smCount))
{}

unsigned GpuHelpers::blocksFor(std::uint64_t items) const
{
    // Enough blocks to fill the GPU a few times over; grid-stride loops do the rest.
    const std::uint64_t needed = (items + kThreads - 1) / kThreads;
    return unsigned(std::clamp<std::uint64_t>(needed, 1, std::uint64_t(m_smCount) * 8));
}

void GpuHelpers::fill(DevicePointer pointer, std::uint64_t scalars, ScalarKind kind, FillMode mode,
                      double a, double b, std::uint64_t seed, const Stream &stream) const
{
    if (scalars == 0) {
        return;
    }
    int kindValue = int(kind);
    int modeValue = int(mode);
    Params params(pointer, scalars, kindValue, modeValue, a, b, seed);
    m_fill.launch({blocksFor(scalars), 1, 1}, {kThreads, 1, 1}, 0, stream, params.pointers.data());
}

void GpuHelpers::block(const MappedHostFlags &flags, std::uint64_t timeoutNs,
                       const Stream &stream) const
{
    DevicePointer pointer = flags.devicePointer();
    Params params(pointer, timeoutNs);
    m_block.launch({1, 1, 1}, {1, 1, 1}, 0, stream, params.pointers.data());
}

void GpuHelpers::readFlush(DevicePointer pointer, std::uint64_t bytes, unsigned key,
                           const Stream &stream) const
{
    std::uint64_t words = bytes / 16;
    if (words == 0) {
        return;
    }
    Params params(pointer, words, key);
    m_readFlush.launch({blocksFor(words), 1, 1}, {kThreads, 1, 1}, 0, stream,
                       params.pointers.data());
}

void GpuHelpers::pattern(DevicePointer pointer, std::uint64_t bytes, std::uint64_t pattern,
                         const Stream &stream) const
{
    if (bytes == 0) {
        return;
    }
    Params params(pointer, bytes, pattern);
    m_pattern.launch({blocksFor(std::max<std::uint64_t>(bytes / 8, 8)), 1, 1}, {kThreads, 1, 1}, 0,
                     stream, params.pointers.data());
}

PatternCount GpuHelpers::countPattern(DevicePointer pointer, std::uint64_t count,
                                      std::size_t elementBytes, std::uint64_t pattern,
                                      const Stream &stream) const
{
    PatternCount found;
    if (count == 0) {
        return found;
    }
    int unitBytes = 8;
    while (elementBytes % std::size_t(unitBytes) != 0) {
        unitBytes /= 2;
    }
    std::uint64_t initial[2] = {0, ~0ull};
    DeviceBuffer result(sizeof initial);
    copyToDevice(result.pointer(), initial, sizeof initial, stream);
    int elementBytesValue = int(elementBytes);
    DevicePointer resultPointer = result.pointer();
    Params params(pointer, count, elementBytesValue, unitBytes, pattern, resultPointer);
    m_countPattern.launch({blocksFor(count), 1, 1}, {kThreads, 1, 1}, 0, stream,
                          params.pointers.data());
    copyToHost(initial, result.pointer(), sizeof initial, stream);
    found.count = initial[0];
    found.first = initial[0] ? std::int64_t(initial[1]) : -1;
    return found;
}

ScalarStats GpuHelpers::stats(DevicePointer pointer, std::uint64_t scalars, ScalarKind kind,
                              const Stream &stream) const
{
    ScalarStats stats;
    if (scalars == 0) {
        return stats;
    }
    const unsigned blocks = blocksFor(scalars);
    DeviceBuffer partial(std::size_t(blocks) * 6 * sizeof(double));
    int kindValue = int(kind);
    DevicePointer partialPointer = partial.pointer();
    Params params(pointer, scalars, kindValue, partialPointer);
    m_stats.launch({blocks, 1, 1}, {kThreads, 1, 1}, 0, stream, params.pointers.data());
    std::vector<double> host(std::size_t(blocks) * 6);
    copyToHost(host.data(), partial.pointer(), host.size() * sizeof(double), stream);
    bool any = false;
    for (unsigned b = 0; b < blocks; ++b) {
        const double *p = &host[std::size_t(b) * 6];
        if (p[3] > 0) {
            stats.min = any ? std::min(stats.min, p[0]) : p[0];
            stats.max = any ? std::max(stats.max, p[1]) : p[1];
            any = true;
        }
        stats.sum += p[2];
        stats.finite += std::uint64_t(p[3]);
        stats.nan += std::uint64_t(p[4]);
        stats.inf += std::uint64_t(p[5]);
    }
    return stats;
}

CompareSummary GpuHelpers::compare(DevicePointer actual, DevicePointer expected,
                                   std::uint64_t scalars, ScalarKind kind, int tolerance,
                                   double bound, double rtol, std::uint64_t fromScalar,
                                   const Stream &stream, DevicePointer mask,
                                   std::uint64_t lanes) const
{
    CompareSummary summary;
    if (scalars == 0) {
        return summary;
    }
    const unsigned blocks = blocksFor(scalars);
    DeviceBuffer errors(blocks * 3 * sizeof(double));
    DeviceBuffer indices(blocks * 3 * sizeof(std::uint64_t));
    DeviceBuffer counts(blocks * sizeof(std::uint64_t));
    DeviceBuffer first(sizeof(std::uint64_t));
    std::uint64_t none = ~0ull;
    copyToDevice(first.pointer(), &none, sizeof none, stream);
    int kindValue = int(kind);
    DevicePointer errorsPointer = errors.pointer();
    DevicePointer indicesPointer = indices.pointer();
    DevicePointer countsPointer = counts.pointer();
    DevicePointer firstPointer = first.pointer();
    std::uint64_t lanesValue = std::max<std::uint64_t>(lanes, 1);
    Params params(actual, expected, scalars, kindValue, tolerance, bound, rtol, fromScalar,
                  errorsPointer, indicesPointer, countsPointer, firstPointer, mask, lanesValue);
    m_compare.launch({blocks, 1, 1}, {kThreads, 1, 1}, 0, stream, params.pointers.data());
    std::vector<double> hostErrors(std::size_t(blocks) * 3);
    std::vector<std::uint64_t> hostIndices(std::size_t(blocks) * 3);
    std::vector<std::uint64_t> hostCounts(blocks);
    copyToHost(hostErrors.data(), errors.pointer(), hostErrors.size() * sizeof(double), stream);
    copyToHost(hostIndices.data(), indices.pointer(), hostIndices.size() * sizeof(std::uint64_t),
               stream);
    copyToHost(hostCounts.data(), counts.pointer(), blocks * sizeof(std::uint64_t), stream);
    std::uint64_t firstIndex = 0;
    copyToHost(&firstIndex, first.pointer(), sizeof firstIndex, stream);
    return summariseCompare(hostErrors, hostIndices, hostCounts, firstIndex);
}

CompareSummary summariseCompare(const std::vector<double> &errors,
                                const std::vector<std::uint64_t> &indices,
                                const std::vector<std::uint64_t> &counts, std::uint64_t first)
{
    CompareSummary summary;
    double worst[3] = {-1.0, -1.0, -1.0};
    std::uint64_t where[3] = {0, 0, 0};
    for (std::size_t b = 0; b < counts.size(); ++b) {
        summary.mismatches += counts[b];
        for (std::size_t k = 0; k < 3; ++k) {
            const double error = errors[b * 3 + k];
            const std::uint64_t index = indices[b * 3 + k];
            if (error > worst[k] || (error == worst[k] && error >= 0.0 && index < where[k])) {
                worst[k] = error;
                where[k] = index;
            }
        }
    }
    summary.maxError = std::max(worst[0], 0.0);
    summary.maxErrorScalar = where[0];
    // -1 everywhere: nothing was compared (all masked), or no reference was non-zero.
    if (worst[1] >= 0.0) {
        summary.maxAbsError = worst[1];
        summary.maxAbsErrorScalar = where[1];
    }
    if (worst[2] >= 0.0) {
        summary.maxRelError = worst[2];
        summary.maxRelErrorScalar = where[2];
    }
    summary.firstScalar = first == ~0ull ? -1 : std::int64_t(first);
    return summary;
}

} // namespace cuwb
