// SweepTableModel: one row per point of a sweep: the axis values, status, time statistics,
// bandwidth, occupancy, waves, a verified point's largest errors and the point's message. Numbers
// are shown in the unit their column header names and sort as numbers through SortRole (use a
// QSortFilterProxyModel with setSortRole(SortRole)); a value a point does not have is an invalid
// QVariant, which the proxy sorts after every number (SweepTableProxy keeps those last in
// descending order too). The best row is bold and the rows within the measured noise of it are
// marked. Rows are inserted as points stream in, so a view keeps its selection and sorting.
#pragma once

#include "sweep/sweep.h"

#include <QAbstractTableModel>
#include <QList>
#include <QSortFilterProxyModel>

#include <optional>
#include <vector>

namespace cuwb {

class SweepTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Role {
        SortRole = Qt::UserRole + 1, // double for numeric columns, text otherwise
        PointIndexRole,              // the row's index into SweepResult::points (qulonglong)
    };
    // The axis columns come first, one per axis of the sweep; these follow, at
    // axisCount() + column.
    enum Column {
        BestColumn, // "best", or "tied" for a point within the measured noise of the best
        StatusColumn,
        DeviceColumn, // "GPU N" in a sweep over several GPUs; hidden by the view otherwise
        MedianColumn,
        MinColumn,
        MaxColumn,
        StddevColumn,
        NoiseColumn,
        SamplesColumn,
        BandwidthColumn,
        PercentOfPeakColumn,
        DramColumn,
        GflopsColumn, // the project's measure.flops / median, else the metrics pass's count
        TheoreticalOccupancyColumn,
        AchievedOccupancyColumn,
        WavesColumn,
        // A verified point's largest |out - ref| and |out - ref| / |ref|, with the element
        // (its worst check's, with several).
        MaxAbsErrorColumn,
        MaxRelErrorColumn,
        MessageColumn,
        ColumnCount
    };

    explicit SweepTableModel(QObject *parent = nullptr);

    void setResult(const SweepResult &result);
    // Streaming: a new row, or new data for the row of point `index` (appended if it is past
    // the end).
    void appendPoint(const SweepPointResult &point);
    void setPoint(std::size_t index, const SweepPointResult &point);
    void clear();

    [[nodiscard]] const SweepResult &result() const { return m_result; }
    [[nodiscard]] int axisCount() const { return int(m_axes.size()); }
    [[nodiscard]] int column(Column fixed) const { return axisCount() + int(fixed); }
    [[nodiscard]] std::optional<std::size_t> bestRow() const { return m_best; }
    [[nodiscard]] bool isTied(int row) const;
    // The sweep ran on several GPUs (SweepResult::devices): the GPU column means something.
    [[nodiscard]] bool severalDevices() const { return m_result.devices.size() > 1; }
    // GPUs of different models give no single best: the row is the best of its GPU's points.
    [[nodiscard]] bool isBestOnDevice(int row) const;
    // A point's GFLOP/s: from the FLOPs the project declares (measure.flops) over the median,
    // else from the FLOPs the metrics pass counted (Roofline) over the kernel's time there.
    static std::optional<double> gflops(const SweepPointResult &point);

    // The header and the given rows (in this model's numbering, in the order given) as
    // tab-separated lines, as the view's Ctrl+C copies them; units are in the header.
    [[nodiscard]] QString toTsv(const QList<int> &rows) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString statusText(PointStatus status); // "measured", "skipped", ...

private:
    void chooseAxes();
    std::vector<std::optional<double>> axisNumbers(const SweepPointResult &point) const;
    void refreshBest(); // emits dataChanged for rows whose best/tied mark changed
    QVariant display(int row, int column) const;
    QVariant sortValue(int row, int column) const;

    SweepResult m_result;
    std::vector<std::string> m_axes;                           // targets, in axis order
    std::vector<std::vector<std::optional<double>>> m_numbers; // per row, per axis
    std::optional<std::size_t> m_best;
    std::vector<char> m_tied;       // per row
    std::vector<char> m_deviceBest; // per row: isBestOnDevice
    void markDeviceBests();
};

// Sorts a SweepTableModel by SortRole, with the values a point does not have (the time of a
// skipped point) last in either order, where QSortFilterProxyModel would put them first when
// descending.
class SweepTableProxy : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit SweepTableProxy(QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

} // namespace cuwb
