#include "cuda/cuptiprofiler.h"

#include "cuda/cuptiloader.h"
#include "cuda/driverapi.h"
#include "cuda/driverfunctions.h"

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <type_traits>

namespace cuwb {

namespace {

// The profiler entry points, with the toolkit header's own signatures.
struct ProfilerFunctions
{
    decltype(&cuptiProfilerHostInitialize) hostInitialize = nullptr;
    decltype(&cuptiProfilerHostDeinitialize) hostDeinitialize = nullptr;
    decltype(&cuptiProfilerHostConfigAddMetrics) hostAddMetrics = nullptr;
    decltype(&cuptiProfilerHostGetConfigImageSize) hostConfigImageSize = nullptr;
    decltype(&cuptiProfilerHostGetConfigImage) hostConfigImage = nullptr;
    decltype(&cuptiProfilerHostGetNumOfPasses) hostPasses = nullptr;
    decltype(&cuptiProfilerHostEvaluateToGpuValues) hostEvaluate = nullptr;
    decltype(&cuptiDeviceGetChipName) chipName = nullptr;
    decltype(&cuptiProfilerGetCounterAvailability) counterAvailability = nullptr;
    decltype(&cuptiRangeProfilerEnable) enable = nullptr;
    decltype(&cuptiRangeProfilerDisable) disable = nullptr;
    decltype(&cuptiRangeProfilerGetCounterDataSize) counterDataSize = nullptr;
    decltype(&cuptiRangeProfilerCounterDataImageInitialize) counterDataInitialize = nullptr;
    decltype(&cuptiRangeProfilerSetConfig) setConfig = nullptr;
    decltype(&cuptiRangeProfilerStart) start = nullptr;
    decltype(&cuptiRangeProfilerStop) stop = nullptr;
    decltype(&cuptiRangeProfilerDecodeData) decode = nullptr;
    decltype(&cuptiRangeProfilerGetCounterDataInfo) counterDataInfo = nullptr;
};

const ProfilerFunctions *loadProfiler(std::string &reason)
{
    static ProfilerFunctions functions;
    static std::string failure;
    static const bool loaded = [] {
        if (!cuptiLibrary(failure)) {
            return false;
        }
        bool complete = true;
        const auto resolve = [&](auto &slot, const char *symbol) {
            resolveCupti(slot, symbol, complete, failure,
                         " (the Range Profiler needs CUPTI from CUDA 13)");
        };
        resolve(functions.hostInitialize, "cuptiProfilerHostInitialize");
        resolve(functions.hostDeinitialize, "cuptiProfilerHostDeinitialize");
        resolve(functions.hostAddMetrics, "cuptiProfilerHostConfigAddMetrics");
        resolve(functions.hostConfigImageSize, "cuptiProfilerHostGetConfigImageSize");
        resolve(functions.hostConfigImage, "cuptiProfilerHostGetConfigImage");
        resolve(functions.hostPasses, "cuptiProfilerHostGetNumOfPasses");
        resolve(functions.hostEvaluate, "cuptiProfilerHostEvaluateToGpuValues");
        resolve(functions.chipName, "cuptiDeviceGetChipName");
        resolve(functions.counterAvailability, "cuptiProfilerGetCounterAvailability");
        resolve(functions.enable, "cuptiRangeProfilerEnable");
        resolve(functions.disable, "cuptiRangeProfilerDisable");
        resolve(functions.counterDataSize, "cuptiRangeProfilerGetCounterDataSize");
        resolve(functions.counterDataInitialize, "cuptiRangeProfilerCounterDataImageInitialize");
        resolve(functions.setConfig, "cuptiRangeProfilerSetConfig");
        resolve(functions.start, "cuptiRangeProfilerStart");
        resolve(functions.stop, "cuptiRangeProfilerStop");
        resolve(functions.decode, "cuptiRangeProfilerDecodeData");
        resolve(functions.counterDataInfo, "cuptiRangeProfilerGetCounterDataInfo");
        return complete;
    }();
    reason = failure;
    return loaded ? &functions : nullptr;
}

// The host object of one chip; deinitialised on every way out.
class HostObject
{
public:
    HostObject(const ProfilerFunctions &f, const std::string &chip,
               const std::vector<std::uint8_t> &counterAvailability)
        : m_f(f)
    {
        CUpti_Profiler_Host_Initialize_Params p{};
        p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
        p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        p.pChipName = chip.c_str();
        p.pCounterAvailabilityImage =
            counterAvailability.empty() ? nullptr : counterAvailability.data();
        m_status = f.hostInitialize(&p);
        m_object = m_status == CUPTI_SUCCESS ? p.pHostObject : nullptr;
    }
    ~HostObject()
    {
        if (m_object) {
            CUpti_Profiler_Host_Deinitialize_Params p{};
            p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
            p.pHostObject = m_object;
            (void)m_f.hostDeinitialize(&p);
        }
    }
    HostObject(const HostObject &) = delete;
    HostObject &operator=(const HostObject &) = delete;

    [[nodiscard]] CUptiResult status() const { return m_status; }
    [[nodiscard]] CUpti_Profiler_Host_Object *get() const { return m_object; }

private:
    const ProfilerFunctions &m_f;
    CUptiResult m_status = CUPTI_SUCCESS;
    CUpti_Profiler_Host_Object *m_object = nullptr;
};

// Adds the metrics, naming one the chip lacks; then builds the config image and counts the
// passes. Fills plan.error on failure.
void buildConfig(const ProfilerFunctions &f, HostObject &host, const std::string &chip,
                 const std::vector<std::string> &metrics,
                 const std::vector<std::uint8_t> &counterAvailability, ProfilerPlan &plan)
{
    if (metrics.empty()) {
        plan.error = "no metrics were asked for";
        return;
    }
    // All at once: each call of ConfigAddMetrics schedules its metrics apart, so adding them
    // one by one would cost more passes than needed.
    std::vector<const char *> names;
    for (const std::string &metric : metrics) {
        names.push_back(metric.c_str());
    }
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{};
    add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    add.pHostObject = host.get();
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    const CUptiResult added = f.hostAddMetrics(&add);
    if (added != CUPTI_SUCCESS) {
        // Find the name the chip lacks, each on a host object of its own.
        for (const std::string &metric : metrics) {
            HostObject alone(f, chip, counterAvailability);
            const char *name = metric.c_str();
            CUpti_Profiler_Host_ConfigAddMetrics_Params one{};
            one.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
            one.pHostObject = alone.get();
            one.ppMetricNames = &name;
            one.numMetrics = 1;
            const CUptiResult result = f.hostAddMetrics(&one);
            if (alone.get() && result != CUPTI_SUCCESS) {
                plan.error = "unknown metric `" + metric + "`: the chip " + chip +
                             " has no metric of that name (" + cuptiResultText(result) + ")";
                return;
            }
        }
        plan.error = "cuptiProfilerHostConfigAddMetrics failed with " + cuptiResultText(added);
        return;
    }
    CUpti_Profiler_Host_GetConfigImageSize_Params size{};
    size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    size.pHostObject = host.get();
    CUptiResult result = f.hostConfigImageSize(&size);
    if (result != CUPTI_SUCCESS) {
        plan.error = "cuptiProfilerHostGetConfigImageSize failed with " + cuptiResultText(result);
        return;
    }
    plan.configImage.assign(size.configImageSize, 0);
    CUpti_Profiler_Host_GetConfigImage_Params image{};
    image.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    image.pHostObject = host.get();
    image.configImageSize = plan.configImage.size();
    image.pConfigImage = plan.configImage.data();
    result = f.hostConfigImage(&image);
    if (result != CUPTI_SUCCESS) {
        plan.error = "cuptiProfilerHostGetConfigImage failed with " + cuptiResultText(result);
        return;
    }
    CUpti_Profiler_Host_GetNumOfPasses_Params passes{};
    passes.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    passes.configImageSize = plan.configImage.size();
    passes.pConfigImage = plan.configImage.data();
    result = f.hostPasses(&passes);
    if (result != CUPTI_SUCCESS) {
        plan.error = "cuptiProfilerHostGetNumOfPasses failed with " + cuptiResultText(result);
        return;
    }
    plan.passes = passes.numOfPasses;
}

} // namespace

std::string profilingPermissionMessage()
{
    return "hardware metrics need permission to use the GPU's performance counters, which "
           "this driver restricts to administrators (NVreg_RestrictProfilingToAdminUsers=1); "
           "timing still works. To allow it: run as root, or give the program CAP_PERFMON "
           "(or CAP_SYS_ADMIN), or load the nvidia module with "
           "NVreg_RestrictProfilingToAdminUsers=0 (e.g. `options nvidia "
           "NVreg_RestrictProfilingToAdminUsers=0` in /etc/modprobe.d/, then reboot)";
}

ProfilerPlan CuptiProfiler::plan(const std::string &chip, const std::vector<std::string> &metrics,
                                 const std::vector<std::uint8_t> &counterAvailability)
{
    ProfilerPlan plan;
    plan.chip = chip;
    std::string reason;
    const ProfilerFunctions *f = loadProfiler(reason);
    if (!f) {
        plan.error = reason;
        return plan;
    }
    HostObject host(*f, chip, counterAvailability);
    if (!host.get()) {
        plan.error =
            "cuptiProfilerHostInitialize for chip `" + chip + "` failed with " +
            cuptiResultText(host.status()) +
            " (an unknown chip name, or libnvperf_host.so missing beside libcupti in " +
            (cuptiLibraryFolder().empty() ? std::string("its folder") : cuptiLibraryFolder()) + ")";
        return plan;
    }
    buildConfig(*f, host, chip, metrics, counterAvailability, plan);
    return plan;
}

namespace {

// Why a profile ended early: a sentence, and whether it was the permission to profile.
struct ProfileFailure
{
    std::string message;
    bool permissionDenied = false;
};

// A CUPTI call that did not succeed ends the profile with a sentence; a refused permission
// with the fix.
void checkCall(const char *call, CUptiResult result)
{
    if (result == CUPTI_SUCCESS)
        return;
    if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        throw ProfileFailure{profilingPermissionMessage(), true};
    throw ProfileFailure{std::string(call) + " failed with " + cuptiResultText(result)};
}

std::string profiledChip(const ProfilerFunctions &f, int deviceOrdinal)
{
    CUpti_Device_GetChipName_Params chip{};
    chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    chip.deviceIndex = std::size_t(deviceOrdinal);
    const CUptiResult result = f.chipName(&chip);
    checkCall("cuptiDeviceGetChipName", result);
    if (!chip.pChipName)
        checkCall("cuptiDeviceGetChipName", CUPTI_ERROR_UNKNOWN);
    return chip.pChipName;
}

// The counters the context's device can collect now (CUPTI's availability image).
std::vector<std::uint8_t> counterAvailability(const ProfilerFunctions &f, CUcontext context)
{
    CUpti_Profiler_GetCounterAvailability_Params available{};
    available.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
    available.ctx = context;
    checkCall("cuptiProfilerGetCounterAvailability", f.counterAvailability(&available));
    std::vector<std::uint8_t> availability(available.counterAvailabilityImageSize);
    available.pCounterAvailabilityImage = availability.data();
    checkCall("cuptiProfilerGetCounterAvailability", f.counterAvailability(&available));
    return availability;
}

// The image the counters of `rangeRoom` ranges are written into, initialised.
std::vector<std::uint8_t> counterDataImage(const ProfilerFunctions &f,
                                           CUpti_RangeProfiler_Object *object,
                                           std::vector<const char *> &names, std::size_t rangeRoom)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params size{};
    size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
    size.pRangeProfilerObject = object;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = rangeRoom;
    size.maxNumRangeTreeNodes = rangeRoom;
    checkCall("cuptiRangeProfilerGetCounterDataSize", f.counterDataSize(&size));
    std::vector<std::uint8_t> counterData(size.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params data{};
    data.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    data.pRangeProfilerObject = object;
    data.counterDataSize = counterData.size();
    data.pCounterData = counterData.data();
    checkCall("cuptiRangeProfilerCounterDataImageInitialize", f.counterDataInitialize(&data));
    return counterData;
}

// One range per kernel, replayed by CUPTI (kernel replay) or by the caller (user replay).
void setConfig(const ProfilerFunctions &f, CUpti_RangeProfiler_Object *object,
               const ProfilerPlan &plan, std::vector<std::uint8_t> &counterData,
               std::size_t rangeRoom, bool userReplay)
{
    CUpti_RangeProfiler_SetConfig_Params config{};
    config.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    config.pRangeProfilerObject = object;
    config.configSize = plan.configImage.size();
    config.pConfig = plan.configImage.data();
    config.counterDataImageSize = counterData.size();
    config.pCounterDataImage = counterData.data();
    config.range = CUPTI_AutoRange;
    config.replayMode = userReplay ? CUPTI_UserReplay : CUPTI_KernelReplay;
    config.maxRangesPerPass = rangeRoom;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    checkCall("cuptiRangeProfilerSetConfig", f.setConfig(&config));
}

// A started pass, stopped by operator() or, on the way out of an error, by the destructor.
struct StartedPass
{
    const ProfilerFunctions &f;
    CUpti_RangeProfiler_Object *object;
    bool stopped = false;
    bool allPassesSubmitted = false;

    StartedPass(const ProfilerFunctions &functions, CUpti_RangeProfiler_Object *profiler)
        : f(functions)
        , object(profiler)
    {
        CUpti_RangeProfiler_Start_Params start{};
        start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
        start.pRangeProfilerObject = object;
        checkCall("cuptiRangeProfilerStart", f.start(&start)); // nothing to stop when it throws
    }
    StartedPass(const StartedPass &) = delete;
    StartedPass &operator=(const StartedPass &) = delete;
    CUptiResult stop()
    {
        stopped = true;
        CUpti_RangeProfiler_Stop_Params p{};
        p.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
        p.pRangeProfilerObject = object;
        const CUptiResult result = f.stop(&p);
        allPassesSubmitted = p.isAllPassSubmitted != 0;
        return result;
    }
    ~StartedPass()
    {
        if (!stopped) {
            (void)stop();
        }
    }
};

// The launches: once under kernel replay, else one start/launch/stop per pass until CUPTI has
// every pass it planned (a CUPTI that kept asking would be a bug: the loop ends with a sentence).
void runPasses(const ProfilerFunctions &f, CUpti_RangeProfiler_Object *object, std::size_t passes,
               const std::function<void()> &launch, const std::function<void()> &beforePass)
{
    if (!beforePass) {
        StartedPass pass(f, object);
        launch();
        checkCall("cuptiRangeProfilerStop", pass.stop());
        return;
    }
    const std::size_t passLimit = std::max<std::size_t>(passes, 1) + 2;
    for (std::size_t k = 0;; ++k) {
        if (k == passLimit) {
            throw ProfileFailure{"CUPTI asked for more than the " + std::to_string(passes) +
                                 " passes it planned"};
        }
        StartedPass pass(f, object);
        // After the start: what the start itself leaves dirty in the L2 (9.4 MB on the H200)
        // is written back here, not during the kernel. The flush's kernels are ranges of their
        // own, before the kernel's.
        beforePass();
        launch();
        checkCall("cuptiRangeProfilerStop", pass.stop());
        if (pass.allPassesSubmitted) {
            return;
        }
    }
}

// Every range's values in launch order into `out.rangeValues`; the number of ranges.
void decodeRanges(const ProfilerFunctions &f, CUpti_RangeProfiler_Object *object, HostObject &host,
                  std::vector<std::uint8_t> &counterData, std::vector<const char *> &names,
                  const std::vector<std::string> &metrics, ProfilerValues &out)
{
    CUpti_RangeProfiler_DecodeData_Params decode{};
    decode.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
    decode.pRangeProfilerObject = object;
    checkCall("cuptiRangeProfilerDecodeData", f.decode(&decode));
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{};
    info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
    info.pCounterDataImage = counterData.data();
    info.counterDataImageSize = counterData.size();
    checkCall("cuptiRangeProfilerGetCounterDataInfo", f.counterDataInfo(&info));
    out.ranges = info.numTotalRanges;
    if (out.ranges == 0) {
        throw ProfileFailure{"the profiler recorded no kernel (" +
                             std::to_string(decode.numOfRangeDropped) + " ranges dropped)"};
    }
    std::vector<double> values(names.size(), 0.0);
    for (std::size_t range = 0; range < out.ranges; ++range) {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{};
        evaluate.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
        evaluate.pHostObject = host.get();
        evaluate.pCounterDataImage = counterData.data();
        evaluate.counterDataImageSize = counterData.size();
        evaluate.rangeIndex = range;
        evaluate.ppMetricNames = names.data();
        evaluate.numMetrics = names.size();
        evaluate.pMetricValues = values.data();
        checkCall("cuptiProfilerHostEvaluateToGpuValues", f.hostEvaluate(&evaluate));
        std::map<std::string, double> &rangeValues = out.rangeValues.emplace_back();
        for (std::size_t k = 0; k < names.size(); ++k) {
            rangeValues[metrics[k]] = values[k];
        }
    }
}

// The Range Profiler on for `context` until destroyed.
class EnabledProfiler
{
public:
    EnabledProfiler(const ProfilerFunctions &f, CUcontext context)
        : m_f(f)
    {
        CUpti_RangeProfiler_Enable_Params enable{};
        enable.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
        enable.ctx = context;
        checkCall("cuptiRangeProfilerEnable", f.enable(&enable));
        m_object = enable.pRangeProfilerObject;
    }
    EnabledProfiler(const EnabledProfiler &) = delete;
    EnabledProfiler &operator=(const EnabledProfiler &) = delete;
    ~EnabledProfiler()
    {
        CUpti_RangeProfiler_Disable_Params p{};
        p.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
        p.pRangeProfilerObject = m_object;
        (void)m_f.disable(&p);
    }
    [[nodiscard]] CUpti_RangeProfiler_Object *object() const { return m_object; }

private:
    const ProfilerFunctions &m_f;
    CUpti_RangeProfiler_Object *m_object = nullptr;
};

} // namespace

ProfilerValues CuptiProfiler::profile(int deviceOrdinal, const std::vector<std::string> &metrics,
                                      const std::function<void()> &launch, std::size_t maxRanges,
                                      const std::function<void()> &beforePass)
{
    ProfilerValues out;
    std::string reason;
    const ProfilerFunctions *f = loadProfiler(reason);
    if (!f) {
        out.error = reason;
        return out;
    }
    const DriverApi &driver = DriverApi::instance();
    if (!driver.available()) {
        out.error = "no CUDA driver: " + driver.unavailableReason();
        return out;
    }
    try {
        // Held until everything below is undone: declared first, released last.
        const CuptiProfilerScope profiler;
        checkCall("cuptiProfilerInitialize", CUptiResult(profiler.status()));
        out.chip = profiledChip(*f, deviceOrdinal);
        CUcontext context = nullptr;
        if (driver.functions().cuCtxGetCurrent(&context) != CUDA_SUCCESS || !context) {
            throw ProfileFailure{"no CUDA context is current to profile"};
        }
        const std::vector<std::uint8_t> availability = counterAvailability(*f, context);
        HostObject host(*f, out.chip, availability);
        if (!host.get()) {
            checkCall("cuptiProfilerHostInitialize", host.status());
        }
        ProfilerPlan plan;
        buildConfig(*f, host, out.chip, metrics, availability, plan);
        if (!plan.error.empty()) {
            throw ProfileFailure{plan.error};
        }
        out.passes = plan.passes;

        const EnabledProfiler enabled(*f, context);
        std::vector<const char *> names;
        for (const std::string &metric : metrics) {
            names.push_back(metric.c_str());
        }
        // Room for the caller's ranges: a kernel each, helpers included.
        const std::size_t rangeRoom = std::max<std::size_t>(maxRanges, 1);
        std::vector<std::uint8_t> counterData =
            counterDataImage(*f, enabled.object(), names, rangeRoom);
        setConfig(*f, enabled.object(), plan, counterData, rangeRoom, bool(beforePass));
        runPasses(*f, enabled.object(), plan.passes, launch, beforePass);
        decodeRanges(*f, enabled.object(), host, counterData, names, metrics, out);
    } catch (const ProfileFailure &failure) {
        out.error = failure.message;
        out.permissionDenied = failure.permissionDenied;
        return out;
    }
    // The kernel `launch` started: the first range, or the last when `beforePass` launched
    // kernels of its own before it.
    out.values = beforePass ? out.rangeValues.back() : out.rangeValues.front();
    return out;
}

} // namespace cuwb
