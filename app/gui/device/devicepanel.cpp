#include "gui/device/devicepanel.h"

#include "gui/common/format.h"

#include "cuda/nvrtcinfo.h"
#include "gui/common/qtconvert.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cuwb {

namespace {

QString kib(std::size_t bytes)
{
    return DevicePanel::tr("%1 KiB").arg(double(bytes) / 1024.0, 0, 'g', 4);
}

QString dims(const int (&values)[3])
{
    return QStringLiteral("%1 \u00d7 %2 \u00d7 %3").arg(values[0]).arg(values[1]).arg(values[2]);
}

} // namespace

DevicePanel::DevicePanel(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_warning(new QLabel(this))
    , m_source(new QLabel(this))
{
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Property"), tr("Value")});
    m_tree->setRootIsDecorated(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::NoSelection);
    m_tree->header()->setStretchLastSection(true);
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff4dc; border-left: 4px solid #b7791f; padding: 6px 8px; "
        "color: #1d1d1d; }"));
    m_warning->hide();
    m_source->setEnabled(false);
    m_source->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_warning);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_source);
    showDevices({}, 0, QString(), std::nullopt, QString(), tr("Looking for GPUs\u2026"));
}

double DevicePanel::theoreticalBandwidthGBps(const DeviceInfo &device)
{
    return 2.0 * double(device.memoryClockKHz) * 1e3 * double(device.memoryBusWidthBits) / 8.0 /
           1e9;
}

QString DevicePanel::cudaVersionText(int version)
{
    if (version <= 0)
        return tr("unknown");
    return QStringLiteral("%1.%2").arg(version / 1000).arg((version % 1000) / 10);
}

int DevicePanel::cudaVersionNumber(const QString &text)
{
    const QStringList parts = text.trimmed().split(QLatin1Char('.'));
    bool okMajor = false;
    bool okMinor = true;
    const int major = parts.value(0).toInt(&okMajor);
    const int minor = parts.size() > 1 ? parts.value(1).toInt(&okMinor) : 0;
    if (!okMajor || !okMinor)
        return 0;
    return major * 1000 + minor * 10;
}

QString DevicePanel::driverWarning(int driverVersion, const QString &nvrtcVersion)
{
    const int nvrtc = cudaVersionNumber(nvrtcVersion);
    if (driverVersion <= 0 || nvrtc <= 0 || driverVersion >= nvrtc)
        return {};
    return tr("The driver supports CUDA %1, older than this toolkit's NVRTC (%2): it would reject "
              "the PTX the workbench produces. Update the driver, or compile for an "
              "architecture the driver knows.")
        .arg(cudaVersionText(driverVersion), nvrtcVersion);
}

void DevicePanel::setQuery(const DeviceQuery &query, const QString &summary)
{
    if (m_haveHello)
        return; // a running worker knows more (free memory)
    showDevices(query.devices, query.driverLoaded ? query.driverVersion : 0,
                toQString(nvrtcVersion()), std::nullopt,
                tr("From `cuwb devices`. Free memory appears once a run starts the worker."),
                summary);
}

void DevicePanel::setHello(const HelloReply &hello)
{
    m_haveHello = true;
    std::vector<DeviceInfo> devices;
    if (hello.device)
        devices.push_back(*hello.device);
    showDevices(
        devices, hello.driverVersion,
        hello.nvrtcVersion.empty() ? toQString(nvrtcVersion()) : toQString(hello.nvrtcVersion),
        hello.device ? std::optional<std::uint64_t>(hello.freeMemoryBytes) : std::nullopt,
        tr("From the worker (version %1).").arg(toQString(hello.worker)), toQString(hello.message));
}

void DevicePanel::showDevices(const std::vector<DeviceInfo> &devices, int driverVersion,
                              const QString &nvrtc, std::optional<std::uint64_t> freeMemory,
                              const QString &source, const QString &emptyMessage)
{
    m_tree->clear();
    auto add = [](QTreeWidgetItem *parent, const QString &name, const QString &value) {
        auto *item = new QTreeWidgetItem(parent, {name, value});
        item->setToolTip(1, value);
        return item;
    };
    QLocale locale;
    for (const DeviceInfo &device : devices) {
        auto *top =
            new QTreeWidgetItem(m_tree, {tr("GPU %1").arg(device.ordinal), toQString(device.name)});
        QFont bold = top->font(0);
        bold.setBold(true);
        top->setFont(0, bold);
        top->setFont(1, bold);
        add(top, tr("Compute capability"),
            tr("%1.%2 (%3)").arg(device.major).arg(device.minor).arg(toQString(device.arch())));
        add(top, tr("Multiprocessors"), locale.toString(device.smCount));
        add(top, tr("SM clock"), tr("%1 MHz").arg(device.smClockKHz / 1000));
        add(top, tr("Memory clock"), tr("%1 MHz").arg(device.memoryClockKHz / 1000));
        add(top, tr("Memory"), bytesText(device.totalMemoryBytes));
        if (freeMemory)
            add(top, tr("Free memory"), bytesText(*freeMemory));
        add(top, tr("L2 cache"), bytesText(std::uint64_t(device.l2CacheBytes)));
        add(top, tr("Memory bus"), tr("%1 bits").arg(device.memoryBusWidthBits));
        add(top, tr("Theoretical bandwidth"),
            tr("%1 GB/s").arg(theoreticalBandwidthGBps(device), 0, 'f', 0));

        auto *limits = new QTreeWidgetItem(top, {tr("Limits"), QString()});
        add(limits, tr("Threads per block"), locale.toString(device.maxThreadsPerBlock));
        add(limits, tr("Threads per SM"), locale.toString(device.maxThreadsPerSm));
        add(limits, tr("Blocks per SM"), locale.toString(device.maxBlocksPerSm));
        add(limits, tr("Registers per SM"), locale.toString(device.registersPerSm));
        add(limits, tr("Registers per block"), locale.toString(device.registersPerBlock));
        add(limits, tr("Shared memory per SM"), kib(device.sharedPerSmBytes));
        add(limits, tr("Shared memory per block"), kib(device.sharedPerBlockBytes));
        add(limits, tr("Shared memory per block (opt-in)"), kib(device.sharedPerBlockOptinBytes));
        add(limits, tr("Reserved shared memory per block"),
            kib(device.reservedSharedPerBlockBytes));
        add(limits, tr("Block dimensions"), dims(device.maxBlockDim));
        add(limits, tr("Grid dimensions"), dims(device.maxGridDim));
        top->setExpanded(true);
    }
    if (devices.empty()) {
        auto *item = new QTreeWidgetItem(m_tree, {tr("No GPU"), emptyMessage});
        item->setToolTip(1, emptyMessage);
    }
    auto *software = new QTreeWidgetItem(m_tree, {tr("Software"), QString()});
    add(software, tr("Driver (CUDA version)"),
        driverVersion > 0 ? cudaVersionText(driverVersion) : tr("none"));
    add(software, tr("NVRTC"), nvrtc.isEmpty() ? tr("unknown") : nvrtc);
    software->setExpanded(true);
    m_tree->resizeColumnToContents(0);

    const QString warning = driverWarning(driverVersion, nvrtc);
    m_warning->setText(warning);
    m_warning->setVisible(!warning.isEmpty());
    m_source->setText(source);
}

QString DevicePanel::warningText() const
{
    return m_warning->text();
}

QStringList DevicePanel::lines() const
{
    QStringList result;
    QList<QTreeWidgetItem *> stack;
    for (int i = m_tree->topLevelItemCount() - 1; i >= 0; --i)
        stack.append(m_tree->topLevelItem(i));
    while (!stack.isEmpty()) {
        QTreeWidgetItem *item = stack.takeLast();
        result << QStringLiteral("%1: %2").arg(item->text(0), item->text(1));
        for (int i = item->childCount() - 1; i >= 0; --i)
            stack.append(item->child(i));
    }
    return result;
}

} // namespace cuwb
