#include "gui/compile/kernelsmodel.h"

#include "gui/common/format.h"

#include "gui/common/qtconvert.h"
#include "gui/common/theme.h"

#include <QLocale>

namespace cuwb {

namespace {

QString blocksText(int blocks)
{
    return blocks == kUnlimitedBlocks ? KernelsModel::tr("unlimited") : QString::number(blocks);
}

QString limiterText(OccupancyLimiter limiter)
{
    switch (limiter) {
    case OccupancyLimiter::None:
        return KernelsModel::tr("none");
    case OccupancyLimiter::Warps:
        return KernelsModel::tr("warps");
    case OccupancyLimiter::Registers:
        return KernelsModel::tr("registers");
    case OccupancyLimiter::SharedMemory:
        return KernelsModel::tr("shared memory");
    case OccupancyLimiter::BlocksPerSm:
        return KernelsModel::tr("blocks per SM");
    }
    return {};
}

} // namespace

KernelsModel::KernelsModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void KernelsModel::setKernels(const std::vector<KernelInfo> &kernels)
{
    beginResetModel();
    m_kernels = kernels;
    recompute();
    endResetModel();
}

void KernelsModel::clear()
{
    setKernels({});
}

void KernelsModel::setArchitecture(const std::string &arch)
{
    if (arch == m_arch)
        return;
    m_arch = arch;
    recompute();
    if (!m_kernels.empty())
        Q_EMIT dataChanged(index(0, BlocksPerSmColumn), index(rowCount() - 1, LimiterColumn));
    Q_EMIT occupancyInputsChanged();
}

void KernelsModel::setBlockSize(int threads)
{
    if (threads == m_blockSize)
        return;
    m_blockSize = threads;
    recompute();
    if (!m_kernels.empty())
        Q_EMIT dataChanged(index(0, BlocksPerSmColumn), index(rowCount() - 1, LimiterColumn));
    Q_EMIT occupancyInputsChanged();
}

void KernelsModel::setDynamicSharedBytes(int bytes)
{
    if (bytes == m_dynamicSharedBytes)
        return;
    m_dynamicSharedBytes = bytes;
    recompute();
    if (!m_kernels.empty())
        Q_EMIT dataChanged(index(0, BlocksPerSmColumn), index(rowCount() - 1, LimiterColumn));
    Q_EMIT occupancyInputsChanged();
}

void KernelsModel::recompute()
{
    m_occupancy.clear();
    const std::optional<ArchLimits> limits = archLimits(m_arch);
    for (const KernelInfo &kernel : m_kernels) {
        OccupancyResult result;
        if (!limits) {
            result.error = toStdString(tr("unknown architecture %1").arg(toQString(m_arch)));
        } else if (!kernel.resources.reported) {
            result.error = toStdString(tr("ptxas reported no resources for this kernel"));
        } else {
            OccupancyInput input;
            input.registersPerThread = kernel.resources.registers;
            input.staticSharedBytes = static_cast<std::size_t>(kernel.resources.staticSharedBytes);
            input.dynamicSharedBytes = static_cast<std::size_t>(m_dynamicSharedBytes);
            input.blockSize = m_blockSize;
            result = computeOccupancy(*limits, input);
        }
        m_occupancy.push_back(result);
    }
}

OccupancyResult KernelsModel::occupancyAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_occupancy.size())
        return {};
    return m_occupancy[static_cast<std::size_t>(row)];
}

int KernelsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_kernels.size());
}

int KernelsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KernelInfo &kernel = m_kernels[static_cast<std::size_t>(index.row())];
    const KernelResources &r = kernel.resources;
    const OccupancyResult &occupancy = m_occupancy[static_cast<std::size_t>(index.row())];
    const bool haveResources = r.reported;

    if (role == Qt::DisplayRole) {
        const QString unknown = tr("\u2014");
        switch (index.column()) {
        case NameColumn:
            return toQString(kernel.readableName.empty() ? kernel.loweredName
                                                         : kernel.readableName);
        case LoweredNameColumn:
            return toQString(kernel.loweredName);
        case RegistersColumn:
            return haveResources ? QVariant(r.registers) : QVariant(unknown);
        case StaticSharedColumn:
            return haveResources ? QVariant(compactBytesText(r.staticSharedBytes))
                                 : QVariant(unknown);
        case StackColumn:
            return haveResources ? QVariant(compactBytesText(r.stackFrameBytes))
                                 : QVariant(unknown);
        case SpillStoresColumn:
            return haveResources ? QVariant(compactBytesText(r.spillStoreBytes))
                                 : QVariant(unknown);
        case SpillLoadsColumn:
            return haveResources ? QVariant(compactBytesText(r.spillLoadBytes)) : QVariant(unknown);
        case BarriersColumn:
            return haveResources ? QVariant(r.barriers) : QVariant(unknown);
        case BlocksPerSmColumn:
            return occupancy.valid ? QVariant(occupancy.activeBlocksPerSm) : QVariant(unknown);
        case OccupancyColumn:
            return occupancy.valid ? QVariant(tr("%1 %").arg(
                                         QLocale().toString(occupancy.occupancy * 100.0, 'f', 1)))
                                   : QVariant(unknown);
        case LimiterColumn:
            return occupancy.valid ? limiterText(occupancy.limiter) : toQString(occupancy.error);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == NameColumn || index.column() == LoweredNameColumn) {
            QString tip =
                toQString(kernel.readableName) + QLatin1Char('\n') + toQString(kernel.loweredName);
            if (kernel.sourceLine > 0)
                tip += QLatin1Char('\n') + tr("Declared on line %1").arg(kernel.sourceLine);
            return tip;
        }
        if (index.column() >= BlocksPerSmColumn) {
            if (!occupancy.valid)
                return toQString(occupancy.error);
            return tr("%1 threads per block on %2: %3 of %4 warps per SM\n"
                      "Blocks per SM allowed by warps: %5, registers: %6, shared memory: %7, "
                      "block limit: %8")
                .arg(m_blockSize)
                .arg(toQString(m_arch))
                .arg(occupancy.activeWarpsPerSm)
                .arg(occupancy.maxWarpsPerSm)
                .arg(blocksText(occupancy.blocksLimitedByWarps),
                     blocksText(occupancy.blocksLimitedByRegisters),
                     blocksText(occupancy.blocksLimitedBySharedMemory),
                     blocksText(occupancy.blocksLimitedBySmBlocks));
        }
        if ((index.column() == SpillStoresColumn || index.column() == SpillLoadsColumn) &&
            kernel.spills())
            return tr("This kernel spills registers to local memory.");
        return {};
    }
    if (role == Qt::ForegroundRole) {
        if ((index.column() == SpillStoresColumn || index.column() == SpillLoadsColumn) &&
            kernel.spills())
            return Theme::error;
        if (index.column() == LimiterColumn && !occupancy.valid)
            return Theme::error;
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        if (index.column() >= RegistersColumn && index.column() <= OccupancyColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == SourceLineRole)
        return kernel.sourceLine;
    if (role == OccupancyRole)
        return occupancy.valid ? occupancy.occupancy : -1.0;
    if (role == SortRole) {
        switch (index.column()) {
        case RegistersColumn:
            return r.registers;
        case StaticSharedColumn:
            return r.staticSharedBytes;
        case StackColumn:
            return r.stackFrameBytes;
        case SpillStoresColumn:
            return r.spillStoreBytes;
        case SpillLoadsColumn:
            return r.spillLoadBytes;
        case BarriersColumn:
            return r.barriers;
        case BlocksPerSmColumn:
            return occupancy.valid ? occupancy.activeBlocksPerSm : -1;
        case OccupancyColumn:
            return occupancy.valid ? occupancy.occupancy : -1.0;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    return {};
}

QVariant KernelsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn:
            return tr("Kernel");
        case LoweredNameColumn:
            return tr("Lowered name");
        case RegistersColumn:
            return tr("Regs");
        case StaticSharedColumn:
            return tr("Shared");
        case StackColumn:
            return tr("Stack");
        case SpillStoresColumn:
            return tr("Spill st");
        case SpillLoadsColumn:
            return tr("Spill ld");
        case BarriersColumn:
            return tr("Bars");
        case BlocksPerSmColumn:
            return tr("Blocks/SM");
        case OccupancyColumn:
            return tr("Occupancy");
        case LimiterColumn:
            return tr("Limiter");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case RegistersColumn:
            return tr("Registers per thread");
        case StaticSharedColumn:
            return tr("Static shared memory per block");
        case StackColumn:
            return tr("Stack frame per thread");
        case SpillStoresColumn:
            return tr("Register spill stores per thread");
        case SpillLoadsColumn:
            return tr("Register spill loads per thread");
        case BarriersColumn:
            return tr("Named barriers used");
        case BlocksPerSmColumn:
            return tr("Active blocks per SM at the chosen block size");
        case OccupancyColumn:
            return tr("Theoretical occupancy: active warps / maximum warps per SM");
        case LimiterColumn:
            return tr("The resource that limits occupancy");
        default:
            return {};
        }
    }
    return {};
}

} // namespace cuwb
