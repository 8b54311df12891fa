// KernelsModel: the kernels of a compiled module with their ptxas resources and their
// theoretical occupancy for a chosen block size and dynamic shared memory, on the target
// architecture. Occupancy is recomputed (cheap arithmetic) whenever an input changes.
#pragma once

#include "compiler/kernelinfo.h"
#include "device/occupancy.h"

#include <QAbstractTableModel>

#include <string>
#include <vector>

namespace cuwb {

class KernelsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        RegistersColumn,
        StaticSharedColumn,
        StackColumn,
        SpillStoresColumn,
        SpillLoadsColumn,
        BarriersColumn,
        BlocksPerSmColumn,
        OccupancyColumn,
        LimiterColumn,
        LoweredNameColumn, // last: long mangled names would push the occupancy out of view
        ColumnCount
    };
    enum Role {
        SourceLineRole = Qt::UserRole + 1, // 1-based, 0 = unknown
        SortRole,
        OccupancyRole, // 0..1, or -1 when it cannot be computed
    };

    explicit KernelsModel(QObject *parent = nullptr);

    void setKernels(const std::vector<KernelInfo> &kernels);
    void clear();
    [[nodiscard]] const std::vector<KernelInfo> &kernels() const { return m_kernels; }

    void setArchitecture(const std::string &arch);
    [[nodiscard]] const std::string &architecture() const { return m_arch; }
    void setBlockSize(int threads);
    [[nodiscard]] int blockSize() const { return m_blockSize; }
    void setDynamicSharedBytes(int bytes);
    [[nodiscard]] int dynamicSharedBytes() const { return m_dynamicSharedBytes; }

    [[nodiscard]] OccupancyResult occupancyAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // The architecture, block size or dynamic shared memory changed.
    void occupancyInputsChanged();

private:
    void recompute();

    std::vector<KernelInfo> m_kernels;
    std::vector<OccupancyResult> m_occupancy;
    std::string m_arch = "sm_90";
    int m_blockSize = 256;
    int m_dynamicSharedBytes = 0;
};

} // namespace cuwb
