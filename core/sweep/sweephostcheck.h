// SweepHostCheck: what can be known about a sweep point on the host, without a GPU — its
// compile (once per distinct option set and kernel), the kernel the project names in that
// variant, its signature, and the launch against the architecture's limits with the compiled
// kernel's registers and static shared memory (so ptxas' and the limits' rejections are known
// before anything runs), plus the theoretical occupancy. The sweep runner checks each point
// here before it asks the worker; `cuwb check` and `cuwb sweep --list` check every point.
// NVRTC runs in this process, or through a CompileFunction (the GUI's compile server).
#pragma once

#include "compiler/compilefunction.h"
#include "compiler/compileresult.h"
#include "device/archlimits.h"
#include "kernel/kernelsignature.h"
#include "launch/launchvalidation.h"
#include "sweep/sweep.h"
#include "worker/protocol.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

class CompileCache;
class KernelCompiler;

struct HostPointCheck
{
    bool runnable = false;
    std::string message;                // why not: a compile error, a missing kernel, a limit
    bool compileFailed = false;         // the point's source and options did not compile
    SkipKind skipKind = SkipKind::None; // with a message: Compile or Resources
    bool firstCompile = false; // this check compiled the variant (its time is this point's)
    double compileMs = 0.0;    // NVRTC's time for the variant when firstCompile
    int registersPerThread = 0;
    int staticSharedBytes = 0;
    std::optional<double> theoreticalOccupancy;
    std::string occupancyLimiter;
    std::optional<double> waves;
    // The variant as compiled (shared by every point of the same options); null when the
    // compile could not run.
    std::shared_ptr<const CompileResult> compiled;

    // Writes what the host found into a point's result: resources, occupancy, compile time,
    // and the skip when the point cannot run.
    void applyTo(SweepPointResult &result) const;
};

class SweepHostCheck
{
public:
    // `validation` carries the limits to check against (the device's or the architecture's);
    // smCount 0 when unknown (no waves then). `compile`: who runs NVRTC (empty: this process);
    // the compile cache on disk is read and written here either way.
    SweepHostCheck(std::string arch, ValidationContext validation, int smCount = 0,
                   CompileFunction compile = {});
    ~SweepHostCheck();
    SweepHostCheck(const SweepHostCheck &) = delete;
    SweepHostCheck &operator=(const SweepHostCheck &) = delete;

    // Checks one point's request (as expandSweep made it). Never throws for the user's work.
    HostPointCheck check(const RunRequest &request);
    // Compiles the variants of `requests` not compiled yet, on up to `threads` threads, so
    // that check() finds them (NVRTC runs in parallel; nothing else here does). With a
    // CompileFunction, on the calling thread only (it may serve one thread).
    void precompile(const std::vector<const RunRequest *> &requests, unsigned threads);

    // Distinct variants so far, those NVRTC compiled (not served by the compile cache on disk,
    // compilecache.h), and NVRTC's total time for them.
    [[nodiscard]] std::size_t variants() const { return m_variants.size(); }
    [[nodiscard]] std::size_t compiles() const { return m_compiles; }
    [[nodiscard]] double compileMs() const { return m_compileMs; }

private:
    struct Variant;
    [[nodiscard]] std::string variantKey(const RunRequest &request) const;
    [[nodiscard]] std::unique_ptr<Variant> build(const RunRequest &request) const;
    [[nodiscard]] CompileResult compileVariant(const RunRequest &request,
                                               const CompileOptions &options) const;
    void keep(const std::string &key, std::unique_ptr<Variant> variant);
    const Variant &variantFor(const RunRequest &request, bool &firstUse);

    std::string m_arch;
    ValidationContext m_validation;
    int m_smCount = 0;
    std::unique_ptr<KernelCompiler> m_compiler;
    CompileFunction m_compile;
    std::shared_ptr<const CompileCache> m_diskCache; // with m_compile; KernelCompiler's own else
    std::map<std::string, std::unique_ptr<Variant>> m_variants;
    std::size_t m_compiles = 0;
    double m_compileMs = 0.0;
};

// A sweep planned without a GPU for architecture `arch`: expanded against its limits, and every
// point that expansion lets through checked on the host (one compile per variant). Points come
// back Pending (would be measured) or Skipped with the reason; `error` is set for a spec that
// cannot be used. `compiles` and `compileMs` say what the host compiles cost.
struct SweepPlan
{
    SweepResult result;
    std::size_t variants = 0;
    std::size_t compiles = 0; // of the variants, those NVRTC compiled (the rest were cached)
    double compileMs = 0.0;
    [[nodiscard]] std::size_t runnable() const { return result.count(PointStatus::Pending); }
};
SweepPlan planSweep(const SweepSpec &spec, const RunRequest &base, const std::string &arch);

} // namespace cuwb
