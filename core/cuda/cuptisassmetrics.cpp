#include "cuda/cuptisassmetrics.h"

#include "cuda/cuptiloader.h"
#include "cuda/cuptiprofiler.h" // profilingPermissionMessage
#include "cuda/driverapi.h"
#include "cuda/driverfunctions.h"

#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <tuple>

namespace cuwb {

namespace {

// The entry points, with the toolkit header's own signatures.
struct SassFunctions
{
    decltype(&cuptiProfilerDeviceSupported) deviceSupported = nullptr;
    decltype(&cuptiDeviceGetChipName) chipName = nullptr;
    decltype(&cuptiSassMetricsGetNumOfMetrics) numOfMetrics = nullptr;
    decltype(&cuptiSassMetricsGetMetrics) getMetrics = nullptr;
    decltype(&cuptiSassMetricsGetProperties) properties = nullptr;
    decltype(&cuptiSassMetricsSetConfig) setConfig = nullptr;
    decltype(&cuptiSassMetricsUnsetConfig) unsetConfig = nullptr;
    decltype(&cuptiSassMetricsEnable) enable = nullptr;
    decltype(&cuptiSassMetricsDisable) disable = nullptr;
    decltype(&cuptiSassMetricsGetDataProperties) dataProperties = nullptr;
    decltype(&cuptiSassMetricsFlushData) flushData = nullptr;
};

const SassFunctions *loadSassFunctions(std::string &reason)
{
    static SassFunctions functions;
    static std::string failure;
    static const bool loaded = [] {
        if (!cuptiLibrary(failure)) {
            return false;
        }
        bool complete = true;
        const auto resolve = [&](auto &slot, const char *symbol) {
            resolveCupti(slot, symbol, complete, failure,
                         " (counters per instruction need CUPTI from CUDA 12.4 or later)");
        };
        resolve(functions.deviceSupported, "cuptiProfilerDeviceSupported");
        resolve(functions.chipName, "cuptiDeviceGetChipName");
        resolve(functions.numOfMetrics, "cuptiSassMetricsGetNumOfMetrics");
        resolve(functions.getMetrics, "cuptiSassMetricsGetMetrics");
        resolve(functions.properties, "cuptiSassMetricsGetProperties");
        resolve(functions.setConfig, "cuptiSassMetricsSetConfig");
        resolve(functions.unsetConfig, "cuptiSassMetricsUnsetConfig");
        resolve(functions.enable, "cuptiSassMetricsEnable");
        resolve(functions.disable, "cuptiSassMetricsDisable");
        resolve(functions.dataProperties, "cuptiSassMetricsGetDataProperties");
        resolve(functions.flushData, "cuptiSassMetricsFlushData");
        return complete;
    }();
    reason = failure;
    return loaded ? &functions : nullptr;
}

// The SASS metrics configuration of each device, set once in a process and kept, with the
// profiler interface it needs, until the process ends: on an H200 (CUDA 13.0, driver 580) a
// cuptiSassMetricsSetConfig after cuptiSassMetricsUnsetConfig fails with
// CUPTI_ERROR_OUT_OF_MEMORY, so a worker that set and unset it for each inspection could count
// only its first. Only another list of metrics sets it again.
struct HeldConfiguration
{
    std::unique_ptr<CuptiProfilerScope> profiler;
    std::map<int, std::vector<std::uint64_t>> metricIds; // by device ordinal, as configured
};

HeldConfiguration &heldConfiguration()
{
    static HeldConfiguration held;
    return held;
}

// What cuptiProfilerDeviceSupported says is in the way, in words; empty when nothing is.
std::string unsupportedReason(const CUpti_Profiler_DeviceSupported_Params &p)
{
    const std::pair<CUpti_Profiler_Support_Level, const char *> checks[] = {
        {p.architecture, "its architecture"}, {p.sli, "SLI"},
        {p.vGpu, "this vGPU configuration"},  {p.confidentialCompute, "confidential computing"},
        {p.cmp, "a crypto-mining processor"}, {p.wsl, "WSL"},
    };
    std::string reasons;
    for (const auto &[level, what] : checks) {
        if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
            reasons += (reasons.empty() ? "" : ", ") + std::string(what);
        }
    }
    return reasons;
}

// The chip name of device `ordinal`, with the profiler held by `profiler`, or a refusal.
const char *chipName(const SassFunctions &f, const CuptiProfilerScope &profiler, int ordinal,
                     std::string &error, bool &denied)
{
    CUptiResult result = CUptiResult(profiler.status());
    if (profiler.ok()) {
        CUpti_Device_GetChipName_Params chip{};
        chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
        chip.deviceIndex = std::size_t(ordinal);
        result = f.chipName(&chip);
        if (result == CUPTI_SUCCESS && chip.pChipName) {
            return chip.pChipName;
        }
    }
    denied = result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
    error = denied ? profilingPermissionMessage()
                   : "CUPTI could not name the GPU's chip: " + cuptiResultText(result);
    return nullptr;
}

} // namespace

std::vector<std::pair<std::string, std::string>> CuptiSassMetrics::available(int deviceOrdinal,
                                                                             std::string &error)
{
    std::vector<std::pair<std::string, std::string>> list;
    const SassFunctions *f = loadSassFunctions(error);
    if (!f) {
        return list;
    }
    bool denied = false;
    const CuptiProfilerScope profiler;
    const char *chip = chipName(*f, profiler, deviceOrdinal, error, denied);
    if (!chip) {
        return list;
    }
    CUpti_SassMetrics_GetNumOfMetrics_Params count{};
    count.structSize = CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE;
    count.pChipName = chip;
    CUptiResult result = f->numOfMetrics(&count);
    std::vector<CUpti_SassMetrics_MetricDetails> details(
        result == CUPTI_SUCCESS ? count.numOfMetrics : 0);
    if (result == CUPTI_SUCCESS) {
        CUpti_SassMetrics_GetMetrics_Params get{};
        get.structSize = CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE;
        get.pChipName = chip;
        get.numOfMetrics = details.size();
        get.pMetricsList = details.data();
        result = f->getMetrics(&get);
    }
    if (result != CUPTI_SUCCESS) {
        error =
            "CUPTI lists no SASS metrics for " + std::string(chip) + ": " + cuptiResultText(result);
        return list;
    }
    for (const CUpti_SassMetrics_MetricDetails &d : details) {
        list.emplace_back(d.pMetricName ? d.pMetricName : "",
                          d.pMetricDescription ? d.pMetricDescription : "");
    }
    return list;
}

SassCountersResult CuptiSassMetrics::collect(int deviceOrdinal,
                                             const std::vector<std::string> &metrics,
                                             const std::string &cubin,
                                             const std::function<void()> &launch)
{
    SassCountersResult out;
    const SassFunctions *f = loadSassFunctions(out.error);
    if (!f) {
        return out;
    }
    const DriverApi &driver = DriverApi::instance();
    CUcontext context = nullptr;
    if (!driver.available() || driver.functions().cuCtxGetCurrent(&context) != CUDA_SUCCESS ||
        !context) {
        out.error = "no CUDA context is current to count instructions in";
        return out;
    }
    HeldConfiguration &held = heldConfiguration();
    if (!held.profiler || !held.profiler->ok()) {
        held.profiler.reset(); // a refusal (no permission yet, say) is asked again next time
        held.profiler = std::make_unique<CuptiProfilerScope>();
    }
    const char *chip = chipName(*f, *held.profiler, deviceOrdinal, out.error, out.permissionDenied);
    if (!chip) {
        return out;
    }
    out.chip = chip;
    const auto refused = [&](const char *call, CUptiResult result) {
        out.permissionDenied = result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
        out.error = out.permissionDenied
                        ? profilingPermissionMessage()
                        : std::string(call) + " failed with " + cuptiResultText(result);
        return out;
    };

    CUpti_Profiler_DeviceSupported_Params supported{};
    supported.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
    supported.cuDevice = CUdevice(deviceOrdinal);
    supported.api = CUPTI_PROFILER_SASS_METRICS;
    CUptiResult result = f->deviceSupported(&supported);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiProfilerDeviceSupported", result);
    }
    if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        out.error =
            "CUPTI cannot count per instruction on this GPU (" + unsupportedReason(supported) + ")";
        return out;
    }

    // The metrics by id: CUPTI's records name them by id only.
    std::vector<CUpti_SassMetrics_Config> configs;
    std::vector<std::uint64_t> ids;
    std::map<std::uint64_t, std::string> names;
    for (const std::string &name : metrics) {
        CUpti_SassMetrics_GetProperties_Params properties{};
        properties.structSize = CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE;
        properties.pChipName = chip;
        properties.pMetricName = name.c_str();
        result = f->properties(&properties);
        if (result != CUPTI_SUCCESS) {
            out.error = "the " + std::string(chip) + " has no SASS metric `" + name + "` (" +
                        cuptiResultText(result) + ")";
            return out;
        }
        configs.push_back({properties.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
        ids.push_back(properties.metric.metricId);
        names[properties.metric.metricId] = name;
    }

    const auto configured = held.metricIds.find(deviceOrdinal);
    if (configured == held.metricIds.end() || configured->second != ids) {
        const bool again = configured != held.metricIds.end();
        if (again) {
            CUpti_SassMetricsUnsetConfig_Params unset{};
            unset.structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE;
            unset.deviceIndex = std::uint32_t(deviceOrdinal);
            (void)f->unsetConfig(&unset);
            held.metricIds.erase(configured);
        }
        CUpti_SassMetricsSetConfig_Params config{};
        config.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE;
        config.pConfigs = configs.data();
        config.numOfMetricConfig = configs.size();
        config.deviceIndex = std::uint32_t(deviceOrdinal);
        result = f->setConfig(&config);
        if (result != CUPTI_SUCCESS) {
            refused("cuptiSassMetricsSetConfig", result);
            if (again && !out.permissionDenied) {
                out.error += " (CUPTI could not count other metrics per instruction in this "
                             "worker; a new worker can)";
            }
            return out;
        }
        held.metricIds[deviceOrdinal] = ids;
    }
    // The patching is undone on every path out, exceptions included; the configuration stays.
    struct Undo
    {
        const SassFunctions &f;
        CUcontext context;
        bool enabled = false;
        std::size_t dropped = 0;
        void disable()
        {
            if (enabled) {
                CUpti_SassMetricsDisable_Params off{};
                off.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE;
                off.ctx = context;
                if (f.disable(&off) == CUPTI_SUCCESS) {
                    dropped = off.numOfDroppedRecords;
                }
                enabled = false;
            }
        }
        ~Undo() { disable(); }
    } undo{*f, context};

    CUpti_SassMetricsEnable_Params enable{};
    enable.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE;
    enable.ctx = context;
    enable.enableLazyPatching = 1; // only the kernels launched are patched
    result = f->enable(&enable);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiSassMetricsEnable", result);
    }
    undo.enabled = true;

    launch();

    CUpti_SassMetricsGetDataProperties_Params properties{};
    properties.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE;
    properties.ctx = context;
    result = f->dataProperties(&properties);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiSassMetricsGetDataProperties", result);
    }
    const std::size_t records = properties.numOfPatchedInstructionRecords;
    const std::size_t instances = properties.numOfInstances;
    std::vector<CUpti_SassMetrics_Data> data(instances > 0 ? records : 0);
    std::vector<CUpti_SassMetrics_InstanceValue> values(data.size() * instances);
    for (std::size_t k = 0; k < data.size(); ++k) {
        data[k].structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;
        data[k].pInstanceValues = values.data() + k * instances;
    }
    if (!data.empty()) {
        CUpti_SassMetricsFlushData_Params flush{};
        flush.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;
        flush.ctx = context;
        flush.numOfInstances = instances;
        flush.numOfPatchedInstructionRecords = records;
        flush.pMetricsData = data.data();
        result = f->flushData(&flush);
        if (result != CUPTI_SUCCESS) {
            return refused("cuptiSassMetricsFlushData", result);
        }
    }
    undo.disable();
    out.droppedRecords = undo.dropped;

    // A record is one metric of one instruction; gather each instruction's metrics, summing
    // the instances (one at GPU granularity).
    std::map<std::pair<std::string, std::uint32_t>, SassInstructionCounters> byInstruction;
    for (const CUpti_SassMetrics_Data &record : data) {
        const std::string function = record.functionName ? record.functionName : "";
        std::free(const_cast<char *>(record.functionName)); // CUPTI's copy, ours to free
        SassInstructionCounters &counters = byInstruction[{function, record.pcOffset}];
        counters.function = function;
        counters.pcOffset = record.pcOffset;
        for (std::size_t i = 0; i < instances; ++i) {
            const CUpti_SassMetrics_InstanceValue &v = record.pInstanceValues[i];
            const auto name = names.find(v.metricId);
            if (name != names.end()) {
                counters.values[name->second] += v.value;
            }
        }
    }
    for (auto &[key, counters] : byInstruction) {
        const CuptiSourceLine where = cuptiSourceLine(cubin, counters.function, counters.pcOffset);
        counters.line = where.line;
        counters.file = where.file;
        out.instructions.push_back(std::move(counters));
    }
    return out;
}

} // namespace cuwb
