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
    // Any refusal ends the profile with a sentence; a permission refusal with the fix.
    const auto refused = [&](const char *call, CUptiResult result) {
        out.permissionDenied = result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
        out.error = out.permissionDenied
                        ? profilingPermissionMessage()
                        : std::string(call) + " failed with " + cuptiResultText(result);
        return out;
    };

    // Held until everything below is undone: declared first, released last.
    const CuptiProfilerScope profiler;
    CUptiResult result = CUptiResult(profiler.status());
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiProfilerInitialize", result);
    }
    CUpti_Device_GetChipName_Params chip{};
    chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    chip.deviceIndex = std::size_t(deviceOrdinal);
    result = f->chipName(&chip);
    if (result != CUPTI_SUCCESS || !chip.pChipName) {
        return refused("cuptiDeviceGetChipName", result);
    }
    out.chip = chip.pChipName;

    CUcontext context = nullptr;
    if (driver.functions().cuCtxGetCurrent(&context) != CUDA_SUCCESS || !context) {
        out.error = "no CUDA context is current to profile";
        return out;
    }
    CUpti_Profiler_GetCounterAvailability_Params available{};
    available.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
    available.ctx = context;
    result = f->counterAvailability(&available);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiProfilerGetCounterAvailability", result);
    }
    std::vector<std::uint8_t> availability(available.counterAvailabilityImageSize);
    available.pCounterAvailabilityImage = availability.data();
    result = f->counterAvailability(&available);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiProfilerGetCounterAvailability", result);
    }

    HostObject host(*f, out.chip, availability);
    if (!host.get()) {
        return refused("cuptiProfilerHostInitialize", host.status());
    }
    ProfilerPlan plan;
    buildConfig(*f, host, out.chip, metrics, availability, plan);
    if (!plan.error.empty()) {
        out.error = plan.error;
        return out;
    }
    out.passes = plan.passes;

    CUpti_RangeProfiler_Enable_Params enable{};

    enable.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    enable.ctx = context;
    result = f->enable(&enable);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiRangeProfilerEnable", result);
    }
    struct Disable
    {
        const ProfilerFunctions &f;
        CUpti_RangeProfiler_Object *object;
        ~Disable()
        {
            CUpti_RangeProfiler_Disable_Params p{};
            p.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
            p.pRangeProfilerObject = object;
            (void)f.disable(&p);
        }
    } disable{*f, enable.pRangeProfilerObject};
    CUpti_RangeProfiler_Object *object = enable.pRangeProfilerObject;

    std::vector<const char *> names;
    for (const std::string &metric : metrics) {
        names.push_back(metric.c_str());
    }
    // Room for the caller's ranges: a kernel each, helpers included.
    const std::size_t rangeRoom = std::max<std::size_t>(maxRanges, 1);
    CUpti_RangeProfiler_GetCounterDataSize_Params size{};
    size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
    size.pRangeProfilerObject = object;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = rangeRoom;
    size.maxNumRangeTreeNodes = rangeRoom;
    result = f->counterDataSize(&size);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiRangeProfilerGetCounterDataSize", result);
    }
    std::vector<std::uint8_t> counterData(size.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params data{};
    data.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    data.pRangeProfilerObject = object;
    data.counterDataSize = counterData.size();
    data.pCounterData = counterData.data();
    result = f->counterDataInitialize(&data);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiRangeProfilerCounterDataImageInitialize", result);
    }

    CUpti_RangeProfiler_SetConfig_Params config{};

    config.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    config.pRangeProfilerObject = object;
    config.configSize = plan.configImage.size();
    config.pConfig = plan.configImage.data();
    config.counterDataImageSize = counterData.size();
    config.pCounterDataImage = counterData.data();
    config.range = CUPTI_AutoRange;
    config.replayMode = beforePass ? CUPTI_UserReplay : CUPTI_KernelReplay;
    config.maxRangesPerPass = rangeRoom;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    result = f->setConfig(&config);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiRangeProfilerSetConfig", result);
    }

    CUpti_RangeProfiler_Start_Params start{};

    start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
    start.pRangeProfilerObject = object;
    struct Stop
    {
        const ProfilerFunctions &f;
        CUpti_RangeProfiler_Object *object;
        bool stopped = false;
        bool allPassesSubmitted = false;
        CUptiResult operator()()
        {
            stopped = true;
            CUpti_RangeProfiler_Stop_Params p{};
            p.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
            p.pRangeProfilerObject = object;
            const CUptiResult stopped = f.stop(&p);
            allPassesSubmitted = p.isAllPassSubmitted != 0;
            return stopped;
        }
        ~Stop()
        {
            if (!stopped) {
                (void)(*this)();
            }
        }
    };
    if (!beforePass) {
        result = f->start(&start);
        if (result != CUPTI_SUCCESS) {
            return refused("cuptiRangeProfilerStart", result);
        }
        Stop stop{*f, object};
        launch();
        result = stop();
        if (result != CUPTI_SUCCESS) {
            return refused("cuptiRangeProfilerStop", result);
        }
    } else {
        // One start/launch/stop per pass until CUPTI has every pass it planned; a CUPTI that
        // kept asking would be a bug, and the loop ends with a sentence instead.
        const std::size_t passLimit = std::max<std::size_t>(plan.passes, 1) + 2;
        for (std::size_t pass = 0;; ++pass) {
            if (pass == passLimit) {
                out.error = "CUPTI asked for more than the " + std::to_string(plan.passes) +
                            " passes it planned";
                return out;
            }
            result = f->start(&start);
            if (result != CUPTI_SUCCESS) {
                return refused("cuptiRangeProfilerStart", result);
            }
            Stop stop{*f, object};
            // After the start: what the start itself leaves dirty in the L2 (9.4 MB on the
            // H200) is written back here, not during the kernel. The flush's kernels are
            // ranges of their own, before the kernel's.
            beforePass();
            launch();
            result = stop();
            if (result != CUPTI_SUCCESS) {
                return refused("cuptiRangeProfilerStop", result);
            }
            if (stop.allPassesSubmitted) {
                break;
            }
        }
    }

    CUpti_RangeProfiler_DecodeData_Params decode{};

    decode.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
    decode.pRangeProfilerObject = object;
    result = f->decode(&decode);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiRangeProfilerDecodeData", result);
    }
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{};
    info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
    info.pCounterDataImage = counterData.data();
    info.counterDataImageSize = counterData.size();
    result = f->counterDataInfo(&info);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiRangeProfilerGetCounterDataInfo", result);
    }
    out.ranges = info.numTotalRanges;
    if (out.ranges == 0) {
        out.error = "the profiler recorded no kernel (" + std::to_string(decode.numOfRangeDropped) +
                    " ranges dropped)";
        return out;
    }
    // Every range in launch order: the first one's values are `values`.
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
        result = f->hostEvaluate(&evaluate);
        if (result != CUPTI_SUCCESS) {
            return refused("cuptiProfilerHostEvaluateToGpuValues", result);
        }
        std::map<std::string, double> &rangeValues = out.rangeValues.emplace_back();
        for (std::size_t k = 0; k < names.size(); ++k) {
            rangeValues[metrics[k]] = values[k];
        }
    }
    // The kernel `launch` started: the first range, or the last when `beforePass` launched
    // kernels of its own before it.
    out.values = beforePass ? out.rangeValues.back() : out.rangeValues.front();
    return out;
}

} // namespace cuwb
