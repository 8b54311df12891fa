#include "cuda/devicememory.h"

#include "cuda/driverfunctions.h"

#include <atomic>
#include <utility>

namespace cuwb {

MemoryInfo deviceMemoryInfo()
{
    MemoryInfo info;
    CUWB_CU_CHECK(cuMemGetInfo, &info.freeBytes, &info.totalBytes);
    return info;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes)
{
    CUdeviceptr pointer = 0;
    CUWB_CU_CHECK(cuMemAlloc, &pointer, bytes);
    m_pointer = pointer;
    m_bytes = bytes;
}

DeviceBuffer::~DeviceBuffer()
{
    free();
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : m_pointer(std::exchange(other.m_pointer, 0))
    , m_bytes(std::exchange(other.m_bytes, 0))
{}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept
{
    if (this != &other) {
        free();
        m_pointer = std::exchange(other.m_pointer, 0);
        m_bytes = std::exchange(other.m_bytes, 0);
    }
    return *this;
}

void DeviceBuffer::free() noexcept
{
    if (m_pointer == 0) {
        return;
    }
    // After a sticky device error the free fails too; nothing could be done about it here.
    (void)detail::driverFunctions().cuMemFree(m_pointer);
    m_pointer = 0;
    m_bytes = 0;
}

MappedHostFlags::MappedHostFlags()
{
    void *host = nullptr;
    CUWB_CU_CHECK(cuMemHostAlloc, &host, 2 * sizeof(std::uint32_t),
                  CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
    m_host = static_cast<std::uint32_t *>(host);
    std::atomic_ref<std::uint32_t>(m_host[0]).store(0);
    std::atomic_ref<std::uint32_t>(m_host[1]).store(0);
    CUdeviceptr device = 0;
    try {
        CUWB_CU_CHECK(cuMemHostGetDevicePointer, &device, host, 0);
    } catch (...) {
        (void)detail::driverFunctions().cuMemFreeHost(host);
        throw;
    }
    m_device = device;
}

MappedHostFlags::~MappedHostFlags()
{
    (void)detail::driverFunctions().cuMemFreeHost(m_host);
}

void MappedHostFlags::set(unsigned word, std::uint32_t value) noexcept
{
    // Sequentially consistent: everything queued before is visible before the GPU sees the flag.
    std::atomic_ref<std::uint32_t>(m_host[word]).store(value);
}

std::uint32_t MappedHostFlags::get(unsigned word) const noexcept
{
    return std::atomic_ref<std::uint32_t>(m_host[word]).load();
}

Stream::Stream()
{
    CUstream stream = nullptr;
    CUWB_CU_CHECK(cuStreamCreate, &stream, CU_STREAM_NON_BLOCKING);
    m_stream = stream;
}

Stream::~Stream()
{
    destroy();
}

Stream::Stream(Stream &&other) noexcept
    : m_stream(std::exchange(other.m_stream, nullptr))
{}

Stream &Stream::operator=(Stream &&other) noexcept
{
    if (this != &other) {
        destroy();
        m_stream = std::exchange(other.m_stream, nullptr);
    }
    return *this;
}

void Stream::synchronize() const
{
    CUWB_CU_CHECK(cuStreamSynchronize, static_cast<CUstream>(m_stream));
}

bool Stream::query() const
{
    const CUresult status =
        detail::driverFunctions().cuStreamQuery(static_cast<CUstream>(m_stream));
    if (status == CUDA_ERROR_NOT_READY) {
        return false;
    }
    detail::checkDriver(status, "cuStreamQuery(stream)", __FILE__, __LINE__);
    return true;
}

void Stream::destroy() noexcept
{
    if (!m_stream) {
        return;
    }
    (void)detail::driverFunctions().cuStreamDestroy(static_cast<CUstream>(m_stream));
    m_stream = nullptr;
}

Event::Event()
{
    CUevent event = nullptr;
    CUWB_CU_CHECK(cuEventCreate, &event, CU_EVENT_DEFAULT);
    m_event = event;
}

Event::~Event()
{
    destroy();
}

Event::Event(Event &&other) noexcept
    : m_event(std::exchange(other.m_event, nullptr))
{}

Event &Event::operator=(Event &&other) noexcept
{
    if (this != &other) {
        destroy();
        m_event = std::exchange(other.m_event, nullptr);
    }
    return *this;
}

void Event::record(const Stream &stream) const
{
    CUWB_CU_CHECK(cuEventRecord, static_cast<CUevent>(m_event),
                  static_cast<CUstream>(stream.handle()));
}

bool Event::query() const
{
    const CUresult status = detail::driverFunctions().cuEventQuery(static_cast<CUevent>(m_event));
    if (status == CUDA_ERROR_NOT_READY) {
        return false;
    }
    detail::checkDriver(status, "cuEventQuery(event)", __FILE__, __LINE__);
    return true;
}

float Event::elapsedMs(const Event &start, const Event &end)
{
    float ms = 0.0f;
    CUWB_CU_CHECK(cuEventElapsedTime, &ms, static_cast<CUevent>(start.m_event),
                  static_cast<CUevent>(end.m_event));
    return ms;
}

void Event::destroy() noexcept
{
    if (!m_event) {
        return;
    }
    (void)detail::driverFunctions().cuEventDestroy(static_cast<CUevent>(m_event));
    m_event = nullptr;
}

void copyToHost(void *destination, DevicePointer source, std::size_t bytes, const Stream &stream)
{
    CUWB_CU_CHECK(cuMemcpyDtoHAsync, destination, source, bytes,
                  static_cast<CUstream>(stream.handle()));
    stream.synchronize();
}

void copyToDevice(DevicePointer destination, const void *source, std::size_t bytes,
                  const Stream &stream)
{
    CUWB_CU_CHECK(cuMemcpyHtoDAsync, destination, source, bytes,
                  static_cast<CUstream>(stream.handle()));
    stream.synchronize(); // the caller's host memory may go once this returns
}

void copyDeviceToDevice(DevicePointer destination, DevicePointer source, std::size_t bytes,
                        const Stream &stream)
{
    CUWB_CU_CHECK(cuMemcpyDtoDAsync, destination, source, bytes,
                  static_cast<CUstream>(stream.handle()));
}

void fillBytesAsync(DevicePointer destination, unsigned char value, std::size_t bytes,
                    const Stream &stream)
{
    CUWB_CU_CHECK(cuMemsetD8Async, destination, value, bytes,
                  static_cast<CUstream>(stream.handle()));
}

void synchronizeContext()
{
    CUWB_CU_CHECK(cuCtxSynchronize);
}

} // namespace cuwb
