#include "cuda/cuptiactivity.h"

#include "cuda/cuptiloader.h"

#include <cupti.h>

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <type_traits>
#include <vector>

namespace cuwb {

namespace {

// The CUPTI entry points used here, with the toolkit header's own signatures.
struct CuptiFunctions
{
    decltype(&cuptiGetResultString) getResultString = nullptr;
    decltype(&cuptiSubscribe) subscribe = nullptr;
    decltype(&cuptiUnsubscribe) unsubscribe = nullptr;
    decltype(&cuptiEnableCallback) enableCallback = nullptr;
    decltype(&cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
    decltype(&cuptiActivityEnable) activityEnable = nullptr;
    decltype(&cuptiActivityDisable) activityDisable = nullptr;
    decltype(&cuptiActivityFlushAll) flushAll = nullptr;
    decltype(&cuptiActivityGetNextRecord) getNextRecord = nullptr;
    decltype(&cuptiActivityGetNumDroppedRecords) getNumDroppedRecords = nullptr;
};

// Loaded once per process and never unloaded: CUPTI keeps threads and driver hooks.
const CuptiFunctions *loadCupti(std::string &reason)
{
    static CuptiFunctions functions;
    static std::string failure;
    static const bool loaded = [] {
        std::string error;
        void *library = cuptiLibrary(error);
        if (!library) {
            failure = error;
            return false;
        }
        bool complete = true;
        const auto resolve = [&](auto &slot, const char *symbol) {
            slot =
                reinterpret_cast<std::remove_reference_t<decltype(slot)>>(dlsym(library, symbol));
            if (!slot && complete) {
                complete = false;
                failure = std::string("CUPTI has no ") + symbol;
            }
        };
        resolve(functions.getResultString, "cuptiGetResultString");
        resolve(functions.subscribe, "cuptiSubscribe");
        resolve(functions.unsubscribe, "cuptiUnsubscribe");
        resolve(functions.enableCallback, "cuptiEnableCallback");
        resolve(functions.registerCallbacks, "cuptiActivityRegisterCallbacks");
        resolve(functions.activityEnable, "cuptiActivityEnable");
        resolve(functions.activityDisable, "cuptiActivityDisable");
        resolve(functions.flushAll, "cuptiActivityFlushAll");
        resolve(functions.getNextRecord, "cuptiActivityGetNextRecord");
        resolve(functions.getNumDroppedRecords, "cuptiActivityGetNumDroppedRecords");
        return complete;
    }();
    reason = failure;
    return loaded ? &functions : nullptr;
}

// CUPTI prepares each buffer it is handed before writing records to it, at a cost that grows with
// its size (a 4 MiB one made the first launch after each flush take 0.5 ms on an H200); 256 KiB
// holds about a thousand kernel records, and a batch of samples writes at most 70.
constexpr std::size_t kBufferBytes = 256u << 10;
constexpr std::size_t kBufferAlignment = 8;

} // namespace

struct KernelActivityTimer::Impl
{
    const CuptiFunctions *cupti = nullptr;
    std::string reason;
    CUpti_SubscriberHandle subscriber = nullptr;
    bool registered = false;
    bool enabled = false;
    std::atomic<std::uint32_t> lastCorrelation{0};
    std::atomic<bool> sawLaunch{false};

    std::mutex mutex; // guards what the CUPTI thread writes
    std::map<std::uint32_t, std::uint64_t> durations;
    // The correlation ids of records without usable times, the most recent kept, and the
    // records CUPTI reported lost.
    std::vector<std::uint32_t> invalidCorrelations;
    std::uint64_t lost = 0;

    std::string resultText(CUptiResult result) const
    {
        const char *text = nullptr;
        if (cupti && cupti->getResultString(result, &text) == CUPTI_SUCCESS && text) {
            return text;
        }
        return "CUptiResult " + std::to_string(int(result));
    }
};

namespace {

// CUPTI's buffer callbacks carry no user data: they reach the one live timer through this.
std::mutex g_activeMutex;
KernelActivityTimer::Impl *g_active = nullptr;

// Buffers CUPTI has handed back, for its next request: a fresh one costs page faults on the
// first records written to it. Never destroyed, since CUPTI's thread may hand one back while
// the process exits.
std::mutex g_spareMutex;
std::vector<uint8_t *> &spareBuffers()
{
    static auto *spare = new std::vector<uint8_t *>;
    return *spare;
}
constexpr std::size_t kMaxSpareBuffers = 4;

void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size, size_t *maxNumRecords)
{
    {
        const std::lock_guard lock(g_spareMutex);
        if (std::vector<uint8_t *> &spare = spareBuffers(); !spare.empty()) {
            *buffer = spare.back();
            spare.pop_back();
            *size = kBufferBytes;
            *maxNumRecords = 0;
            return;
        }
    }
    *buffer = static_cast<uint8_t *>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0;
}

// Runs on a CUPTI thread: copies the durations out under the mutex, touches nothing else.
void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t *buffer, size_t,
                              size_t validSize)
{
    {
        const std::lock_guard activeLock(g_activeMutex);
        KernelActivityTimer::Impl *impl = g_active;
        if (impl && buffer) {
            const std::lock_guard lock(impl->mutex);
            CUpti_Activity *record = nullptr;
            while (impl->cupti->getNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
                if (record->kind != CUPTI_ACTIVITY_KIND_KERNEL) {
                    continue;
                }
                // start, end and correlationId sit at the same offsets in every kernel record
                // version; the newest header's struct reads them.
                const auto *kernel = reinterpret_cast<const CUpti_ActivityKernel10 *>(record);
                if (kernel->start == 0 || kernel->end == 0 || kernel->end < kernel->start) {
                    constexpr std::size_t kKeptInvalid = 4096;
                    if (impl->invalidCorrelations.size() == kKeptInvalid) {
                        impl->invalidCorrelations.erase(impl->invalidCorrelations.begin());
                    }
                    impl->invalidCorrelations.push_back(kernel->correlationId);
                    continue;
                }
                impl->durations[kernel->correlationId] = kernel->end - kernel->start;
            }
            size_t dropped = 0;
            if (impl->cupti->getNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS) {
                impl->lost += dropped;
            }
        }
    }
    if (buffer) {
        const std::lock_guard lock(g_spareMutex);
        if (std::vector<uint8_t *> &spare = spareBuffers(); spare.size() < kMaxSpareBuffers) {
            spare.push_back(buffer);
            return;
        }
    }
    std::free(buffer);
}

void CUPTIAPI launchCallback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId,
                             const void *data)
{
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || !userdata || !data) {
        return;
    }
    auto *impl = static_cast<KernelActivityTimer::Impl *>(userdata);
    const auto *info = static_cast<const CUpti_CallbackData *>(data);
    if (info->callbackSite == CUPTI_API_ENTER) {
        impl->lastCorrelation.store(info->correlationId);
        impl->sawLaunch.store(true);
    }
}

} // namespace

KernelActivityTimer::KernelActivityTimer()
    : m_impl(std::make_unique<Impl>())
{
    Impl &impl = *m_impl;
    impl.cupti = loadCupti(impl.reason);
    if (!impl.cupti) {
        return;
    }
    {
        const std::lock_guard lock(g_activeMutex);
        if (g_active) {
            impl.reason = "another kernel timer of this process holds CUPTI";
            impl.cupti = nullptr;
            return;
        }
    }
    CUptiResult result = impl.cupti->subscribe(&impl.subscriber, launchCallback, &impl);
    if (result != CUPTI_SUCCESS) {
        impl.reason = "cuptiSubscribe failed with " + impl.resultText(result) +
                      " (another profiler, such as Nsight Compute or Nsight Systems, may hold "
                      "CUPTI)";
        impl.subscriber = nullptr;
        impl.cupti = nullptr;
        return;
    }
    for (const CUpti_CallbackId id :
         {CUpti_CallbackId(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel),
          CUpti_CallbackId(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz),
          CUpti_CallbackId(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx),
          CUpti_CallbackId(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz)}) {
        result = impl.cupti->enableCallback(1, impl.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
        if (result != CUPTI_SUCCESS) {
            impl.reason = "cuptiEnableCallback failed with " + impl.resultText(result);
            impl.cupti->unsubscribe(impl.subscriber);
            impl.subscriber = nullptr;
            impl.cupti = nullptr;
            return;
        }
    }
    {
        const std::lock_guard lock(g_activeMutex);
        g_active = &impl;
    }
    result = impl.cupti->registerCallbacks(bufferRequested, bufferCompleted);
    if (result != CUPTI_SUCCESS) {
        {
            const std::lock_guard lock(g_activeMutex);
            g_active = nullptr;
        }
        impl.reason = "cuptiActivityRegisterCallbacks failed with " + impl.resultText(result) +
                      (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                           ? " (another profiler, such as Nsight Compute or Nsight Systems, holds "
                             "CUPTI)"
                           : "");
        impl.cupti->unsubscribe(impl.subscriber);
        impl.subscriber = nullptr;
        impl.cupti = nullptr;
        return;
    }
    impl.registered = true;
}

KernelActivityTimer::~KernelActivityTimer()
{
    Impl &impl = *m_impl;
    if (!impl.cupti) {
        return;
    }
    stop();
    impl.cupti->flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    impl.cupti->unsubscribe(impl.subscriber);
    const std::lock_guard lock(g_activeMutex);
    if (g_active == &impl) {
        g_active = nullptr;
    }
}

bool KernelActivityTimer::available() const
{
    return m_impl->cupti != nullptr;
}

const std::string &KernelActivityTimer::unavailableReason() const
{
    return m_impl->reason;
}

bool KernelActivityTimer::start()
{
    Impl &impl = *m_impl;
    if (!impl.cupti) {
        return false;
    }
    if (impl.enabled) {
        return true;
    }
    const CUptiResult result = impl.cupti->activityEnable(CUPTI_ACTIVITY_KIND_KERNEL);
    if (result != CUPTI_SUCCESS) {
        impl.reason = "cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL) failed with " +
                      impl.resultText(result);
        return false;
    }
    impl.enabled = true;
    impl.sawLaunch.store(false);
    return true;
}

void KernelActivityTimer::stop()
{
    Impl &impl = *m_impl;
    if (impl.cupti && impl.enabled) {
        impl.cupti->flushAll(0);
        impl.cupti->activityDisable(CUPTI_ACTIVITY_KIND_KERNEL);
        impl.enabled = false;
    }
}

std::optional<std::uint32_t> KernelActivityTimer::lastLaunchCorrelation() const
{
    if (!m_impl->sawLaunch.load()) {
        return std::nullopt;
    }
    return m_impl->lastCorrelation.load();
}

void KernelActivityTimer::flush()
{
    if (m_impl->cupti) {
        m_impl->cupti->flushAll(0);
    }
}

std::map<std::uint32_t, std::uint64_t> KernelActivityTimer::takeDurations()
{
    const std::lock_guard lock(m_impl->mutex);
    std::map<std::uint32_t, std::uint64_t> taken;
    taken.swap(m_impl->durations);
    return taken;
}

std::uint64_t KernelActivityTimer::invalidRecordsSince(std::uint32_t correlation) const
{
    const std::lock_guard lock(m_impl->mutex);
    return std::uint64_t(std::count_if(m_impl->invalidCorrelations.begin(),
                                       m_impl->invalidCorrelations.end(),
                                       [&](std::uint32_t id) { return id >= correlation; }));
}

std::uint64_t KernelActivityTimer::lostRecords() const
{
    const std::lock_guard lock(m_impl->mutex);
    return m_impl->lost;
}

} // namespace cuwb
