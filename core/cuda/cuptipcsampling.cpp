#include "cuda/cuptipcsampling.h"

#include "cuda/cuptiloader.h"
#include "cuda/cuptiprofiler.h" // profilingPermissionMessage
#include "cuda/driverapi.h"
#include "cuda/driverfunctions.h"

#include <cupti.h>
#include <cupti_pcsampling.h>

namespace cuwb {

namespace {

struct PcFunctions
{
    decltype(&cuptiPCSamplingEnable) enable = nullptr;
    decltype(&cuptiPCSamplingDisable) disable = nullptr;
    decltype(&cuptiPCSamplingStart) start = nullptr;
    decltype(&cuptiPCSamplingStop) stop = nullptr;
    decltype(&cuptiPCSamplingGetData) getData = nullptr;
    decltype(&cuptiPCSamplingSetConfigurationAttribute) configure = nullptr;
    decltype(&cuptiPCSamplingGetNumStallReasons) numStallReasons = nullptr;
    decltype(&cuptiPCSamplingGetStallReasons) stallReasons = nullptr;
};

const PcFunctions *loadPcFunctions(std::string &reason)
{
    static PcFunctions functions;
    static std::string failure;
    static const bool loaded = [] {
        if (!cuptiLibrary(failure)) {
            return false;
        }
        bool complete = true;
        const auto resolve = [&](auto &slot, const char *symbol) {
            resolveCupti(slot, symbol, complete, failure,
                         " (stall samples need CUPTI's PC Sampling API, CUDA 11.3 or later)");
        };
        resolve(functions.enable, "cuptiPCSamplingEnable");
        resolve(functions.disable, "cuptiPCSamplingDisable");
        resolve(functions.start, "cuptiPCSamplingStart");
        resolve(functions.stop, "cuptiPCSamplingStop");
        resolve(functions.getData, "cuptiPCSamplingGetData");
        resolve(functions.configure, "cuptiPCSamplingSetConfigurationAttribute");
        resolve(functions.numStallReasons, "cuptiPCSamplingGetNumStallReasons");
        resolve(functions.stallReasons, "cuptiPCSamplingGetStallReasons");
        return complete;
    }();
    reason = failure;
    return loaded ? &functions : nullptr;
}

// CUPTI's reason names carry the counter's prefix; the reasons of warps that were not issued
// repeat the others with a suffix and are left out, as Nsight Compute's "All Samples" does.
constexpr std::string_view kReasonPrefix = "smsp__pcsamp_warps_issue_stalled_";
constexpr std::string_view kNotIssued = "_not_issued";

// The PCs a buffer of ours holds per call to cuptiPCSamplingGetData.
constexpr std::size_t kPcsPerBuffer = 4096;

} // namespace

PcSamplingResult CuptiPcSampling::collect(const std::string &cubin,
                                          const std::function<void()> &launch)
{
    PcSamplingResult out;
    const PcFunctions *f = loadPcFunctions(out.error);
    if (!f) {
        return out;
    }
    const DriverApi &driver = DriverApi::instance();
    CUcontext context = nullptr;
    if (!driver.available() || driver.functions().cuCtxGetCurrent(&context) != CUDA_SUCCESS ||
        !context) {
        out.error = "no CUDA context is current to sample";
        return out;
    }
    const auto refused = [&](const char *call, CUptiResult result) {
        out.permissionDenied = result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
        out.error = out.permissionDenied
                        ? profilingPermissionMessage()
                        : std::string(call) + " failed with " + cuptiResultText(result);
        return out;
    };

    CUpti_PCSamplingEnableParams enable{};
    enable.size = CUpti_PCSamplingEnableParamsSize;
    enable.ctx = context;
    CUptiResult result = f->enable(&enable);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiPCSamplingEnable", result);
    }
    struct Disable
    {
        const PcFunctions &f;
        CUcontext context;
        ~Disable()
        {
            CUpti_PCSamplingDisableParams off{};
            off.size = CUpti_PCSamplingDisableParamsSize;
            off.ctx = context;
            (void)f.disable(&off);
        }
    } disable{*f, context};

    // The stall reasons this GPU samples, by index.
    std::size_t reasonCount = 0;
    CUpti_PCSamplingGetNumStallReasonsParams count{};
    count.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
    count.ctx = context;
    count.numStallReasons = &reasonCount;
    result = f->numStallReasons(&count);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiPCSamplingGetNumStallReasons", result);
    }
    std::vector<std::uint32_t> indexes(reasonCount);
    std::vector<std::vector<char>> nameBuffers(reasonCount,
                                               std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE));
    std::vector<char *> names(reasonCount);
    for (std::size_t k = 0; k < reasonCount; ++k) {
        names[k] = nameBuffers[k].data();
    }
    CUpti_PCSamplingGetStallReasonsParams reasons{};
    reasons.size = CUpti_PCSamplingGetStallReasonsParamsSize;
    reasons.ctx = context;
    reasons.numStallReasons = reasonCount;
    reasons.stallReasonIndex = indexes.data();
    reasons.stallReasons = names.data();
    result = f->stallReasons(&reasons);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiPCSamplingGetStallReasons", result);
    }
    std::map<std::uint32_t, std::string> reasonByIndex;
    for (std::size_t k = 0; k < reasonCount; ++k) {
        std::string_view name(names[k]);
        if (name.size() >= kNotIssued.size() &&
            name.substr(name.size() - kNotIssued.size()) == kNotIssued) {
            continue;
        }
        if (name.substr(0, kReasonPrefix.size()) == kReasonPrefix) {
            name.remove_prefix(kReasonPrefix.size());
        }
        reasonByIndex[indexes[k]] = std::string(name);
    }

    // Our buffer for the parsed samples: room for kPcsPerBuffer PCs with every reason.
    std::vector<CUpti_PCSamplingPCData> pcData(kPcsPerBuffer);
    std::vector<CUpti_PCSamplingStallReason> stallSlots(kPcsPerBuffer * reasonCount);
    for (std::size_t k = 0; k < pcData.size(); ++k) {
        pcData[k].size = sizeof(CUpti_PCSamplingPCData);
        pcData[k].stallReason = stallSlots.data() + k * reasonCount;
    }
    CUpti_PCSamplingData data{};
    data.size = sizeof(CUpti_PCSamplingData);
    data.collectNumPcs = kPcsPerBuffer;
    data.pPcData = pcData.data();

    std::vector<CUpti_PCSamplingConfigurationInfo> config(4);
    config[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
    config[0].attributeData.stallReasonData.stallReasonCount = reasonCount;
    config[0].attributeData.stallReasonData.pStallReasonIndex = indexes.data();
    config[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    config[1].attributeData.samplingDataBufferData.samplingDataBuffer = &data;
    config[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    config[2].attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
    config[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
    config[3].attributeData.enableStartStopControlData.enableStartStopControl = 1;
    CUpti_PCSamplingConfigurationInfoParams configure{};
    configure.size = CUpti_PCSamplingConfigurationInfoParamsSize;
    configure.ctx = context;
    configure.numAttributes = config.size();
    configure.pPCSamplingConfigurationInfo = config.data();
    result = f->configure(&configure);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiPCSamplingSetConfigurationAttribute", result);
    }

    CUpti_PCSamplingStartParams start{};
    start.size = CUpti_PCSamplingStartParamsSize;
    start.ctx = context;
    result = f->start(&start);
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiPCSamplingStart", result);
    }
    struct Stop
    {
        const PcFunctions &f;
        CUcontext context;
        bool stopped = false;
        CUptiResult now()
        {
            stopped = true;
            CUpti_PCSamplingStopParams stop{};
            stop.size = CUpti_PCSamplingStopParamsSize;
            stop.ctx = context;
            return f.stop(&stop);
        }
        ~Stop()
        {
            if (!stopped) {
                (void)now();
            }
        }
    } stop{*f, context};
    launch();
    result = stop.now();
    if (result != CUPTI_SUCCESS) {
        return refused("cuptiPCSamplingStop", result);
    }

    // The stop fills our buffer; what did not fit comes with further calls.
    std::map<std::pair<std::string, std::uint32_t>, PcStallSamples> byPc;
    const auto take = [&] {
        out.totalSamples += data.totalSamples;
        out.droppedSamples += data.droppedSamples;
        for (std::size_t k = 0; k < data.totalNumPcs; ++k) {
            const CUpti_PCSamplingPCData &pc = pcData[k];
            // CUPTI's name strings may be shared by its records: not ours to free.
            const std::string function = pc.functionName ? pc.functionName : "";
            PcStallSamples &samples = byPc[{function, std::uint32_t(pc.pcOffset)}];
            samples.function = function;
            samples.pcOffset = std::uint32_t(pc.pcOffset);
            for (std::size_t r = 0; r < pc.stallReasonCount; ++r) {
                const auto name = reasonByIndex.find(pc.stallReason[r].pcSamplingStallReasonIndex);
                if (name != reasonByIndex.end() && pc.stallReason[r].samples > 0) {
                    samples.reasons[name->second] += pc.stallReason[r].samples;
                    samples.samples += pc.stallReason[r].samples;
                }
            }
        }
    };
    take();
    for (int calls = 0; data.remainingNumPcs > 0 && calls < 1024; ++calls) {
        CUpti_PCSamplingGetDataParams get{};
        get.size = CUpti_PCSamplingGetDataParamsSize;
        get.ctx = context;
        get.pcSamplingData = &data;
        result = f->getData(&get);
        if (result != CUPTI_SUCCESS) {
            return refused("cuptiPCSamplingGetData", result);
        }
        take();
    }

    for (auto &[key, samples] : byPc) {
        const CuptiSourceLine where = cuptiSourceLine(cubin, samples.function, samples.pcOffset);
        samples.line = where.line;
        samples.file = where.file;
        out.pcs.push_back(std::move(samples));
    }
    return out;
}

} // namespace cuwb
