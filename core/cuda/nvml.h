// SmClockReader: the current SM clock of one GPU through NVML, loaded at run time
// (libnvidia-ml.so.1, which ships with the driver) so that the program starts without it.
// Used to record the clock around each timing sample and flag throttling. The CUDA ordinal
// and NVML's index need not agree (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER), so the device is
// found by its PCI bus id. Every raw nvml* call lives in nvml.cpp.
#pragma once

#include <optional>
#include <string>

namespace cuwb {

class SmClockReader
{
public:
    // Never throws: when NVML or the device is missing, available() is false and
    // unavailableReason() says why.
    explicit SmClockReader(const std::string &pciBusId);
    ~SmClockReader();
    SmClockReader(const SmClockReader &) = delete;
    SmClockReader &operator=(const SmClockReader &) = delete;

    [[nodiscard]] bool available() const { return m_device != nullptr; }
    [[nodiscard]] const std::string &unavailableReason() const { return m_reason; }

    // The SM clock now in MHz, or nullopt when NVML could not say.
    [[nodiscard]] std::optional<unsigned> smClockMHz() const;

private:
    void *m_device = nullptr; // nvmlDevice_t
    bool m_initialised = false;
    std::string m_reason;
};

} // namespace cuwb
