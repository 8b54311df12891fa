// DevicePanel: the Device dock: each GPU's name, compute capability, SMs, clocks, memory
// (total, and free once a worker runs), L2, bus width, theoretical bandwidth, limits, and the
// driver and NVRTC versions — from the worker's hello, or before any run from
// `cuwb devices --json`. Warns when the driver is older than the toolkit whose PTX it would
// have to load.
#pragma once

#include "device/deviceinfo.h"
#include "worker/protocol.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace cuwb {

class DevicePanel : public QWidget
{
    Q_OBJECT

public:
    explicit DevicePanel(QWidget *parent = nullptr);

    // What `cuwb devices --json` found; summary is DeviceProbe's one-line description.
    void setQuery(const DeviceQuery &query, const QString &summary);
    // What a worker said when it started: replaces the probe's view of its device.
    void setHello(const HelloReply &hello);

    [[nodiscard]] QString warningText() const;
    // Every "name: value" line, for tests.
    [[nodiscard]] QStringList lines() const;

    // 2 × memory clock × bus width / 8, in GB/s (DDR: two transfers per clock).
    static double theoreticalBandwidthGBps(const DeviceInfo &device);
    // 13000 -> "13.0", 12080 -> "12.8".
    static QString cudaVersionText(int version);
    // "13.0" -> 13000; 0 when unreadable.
    static int cudaVersionNumber(const QString &text);
    // Empty when the driver can load what this NVRTC emits; else a warning sentence.
    static QString driverWarning(int driverVersion, const QString &nvrtcVersion);

private:
    void showDevices(const std::vector<DeviceInfo> &devices, int driverVersion,
                     const QString &nvrtc, std::optional<std::uint64_t> freeMemory,
                     const QString &source, const QString &emptyMessage);

    QTreeWidget *m_tree = nullptr;
    QLabel *m_warning = nullptr;
    QLabel *m_source = nullptr;
    bool m_haveHello = false;
};

} // namespace cuwb
