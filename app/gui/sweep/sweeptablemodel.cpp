#include "gui/sweep/sweeptablemodel.h"

#include "gui/common/qtconvert.h"
#include "gui/sweep/sweepchartbuilder.h"
#include "measure/roofline.h"

#include <QColor>
#include <QFont>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace cuwb {

namespace {

// Times in the table are always µs, so that a column compares at a glance; the decimals keep
// four significant digits from 0.752 to 5040.
QString micros(double ns)
{
    const double us = ns * 1e-3;
    const double size = std::abs(us);
    const int decimals = size >= 1000 ? 0 : size >= 100 ? 1 : size >= 10 ? 2 : 3;
    return QString::number(us, 'f', decimals);
}

QString gbps(double value)
{
    return QString::number(value, 'f', std::abs(value) >= 100 ? 0 : 1);
}

QString oneDecimal(double value)
{
    return QString::number(value, 'f', 1);
}

QString noTabs(QString text)
{
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

} // namespace

SweepTableModel::SweepTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

QString SweepTableModel::statusText(PointStatus status)
{
    switch (status) {
    case PointStatus::Pending:
        return tr("pending");
    case PointStatus::Measured:
        return tr("measured");
    case PointStatus::Skipped:
        return tr("skipped");
    case PointStatus::Failed:
        return tr("failed");
    case PointStatus::Wrong:
        return tr("wrong");
    }
    return {};
}

void SweepTableModel::chooseAxes()
{
    m_axes.clear();
    for (const SweepAxis &axis : m_result.spec.axes)
        m_axes.push_back(axis.target);
    if (m_axes.empty() && !m_result.points.empty()) {
        for (const auto &pair : m_result.points.front().point.values)
            m_axes.push_back(pair.first);
    }
}

std::vector<std::optional<double>> SweepTableModel::axisNumbers(const SweepPointResult &point) const
{
    std::vector<std::optional<double>> numbers;
    numbers.reserve(m_axes.size());
    for (const std::string &target : m_axes) {
        const std::string *value = point.point.valueOf(target);
        numbers.push_back(value ? SweepChartBuilder::axisNumber(*value, point.point)
                                : std::nullopt);
    }
    return numbers;
}

void SweepTableModel::setResult(const SweepResult &result)
{
    beginResetModel();
    m_result = result;
    chooseAxes();
    m_numbers.clear();
    m_numbers.reserve(m_result.points.size());
    for (const SweepPointResult &point : m_result.points)
        m_numbers.push_back(axisNumbers(point));
    m_best = m_result.bestPoint();
    m_tied.assign(m_result.points.size(), 0);
    for (std::size_t k : m_result.pointsTiedWithBest())
        m_tied[k] = 1;
    markDeviceBests();
    endResetModel();
}

void SweepTableModel::clear()
{
    setResult({});
}

void SweepTableModel::appendPoint(const SweepPointResult &point)
{
    if (m_axes.empty()) {
        // A result without a spec: the first point's values name the columns.
        SweepResult result = m_result;
        result.points.push_back(point);
        setResult(result);
        return;
    }
    const int row = int(m_result.points.size());
    beginInsertRows({}, row, row);
    m_result.points.push_back(point);
    m_numbers.push_back(axisNumbers(point));
    m_tied.push_back(0);
    endInsertRows();
    refreshBest();
}

void SweepTableModel::setPoint(std::size_t index, const SweepPointResult &point)
{
    if (index >= m_result.points.size()) {
        appendPoint(point);
        return;
    }
    m_result.points[index] = point;
    m_numbers[index] = axisNumbers(point);
    Q_EMIT dataChanged(this->index(int(index), 0), this->index(int(index), columnCount() - 1));
    refreshBest();
}

void SweepTableModel::refreshBest()
{
    const std::optional<std::size_t> oldBest = m_best;
    std::vector<char> oldTied(m_result.points.size(), 0);
    std::copy(m_tied.begin(), m_tied.end(), oldTied.begin());
    const std::vector<char> oldDeviceBest = m_deviceBest;
    m_best = m_result.bestPoint();
    m_tied.assign(m_result.points.size(), 0);
    for (std::size_t k : m_result.pointsTiedWithBest())
        m_tied[k] = 1;
    markDeviceBests();
    const int last = columnCount() - 1;
    for (std::size_t k = 0; k < m_tied.size(); ++k) {
        const bool wasBest = oldBest && *oldBest == k;
        const bool isBest = m_best && *m_best == k;
        const bool wasDeviceBest = k < oldDeviceBest.size() && oldDeviceBest[k] != 0;
        if (wasBest != isBest || oldTied[k] != m_tied[k] || wasDeviceBest != (m_deviceBest[k] != 0))
            Q_EMIT dataChanged(index(int(k), 0), index(int(k), last));
    }
}

void SweepTableModel::markDeviceBests()
{
    m_deviceBest.assign(m_result.points.size(), 0);
    if (!m_result.mixedModels())
        return;
    for (const auto &[device, index] : m_result.bestPointPerDevice()) {
        if (index < m_deviceBest.size())
            m_deviceBest[index] = 1;
    }
}

bool SweepTableModel::isBestOnDevice(int row) const
{
    return row >= 0 && std::size_t(row) < m_deviceBest.size() &&
           m_deviceBest[std::size_t(row)] != 0;
}

bool SweepTableModel::isTied(int row) const
{
    return row >= 0 && std::size_t(row) < m_tied.size() && m_tied[std::size_t(row)] != 0;
}

int SweepTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_result.points.size());
}

int SweepTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : axisCount() + ColumnCount;
}

QVariant SweepTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    if (section < axisCount()) {
        if (role == Qt::DisplayRole)
            return SweepChartBuilder::axisName(toQString(m_axes[std::size_t(section)]));
        if (role == Qt::ToolTipRole)
            return tr("Axis %1 of the sweep").arg(toQString(m_axes[std::size_t(section)]));
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section - axisCount()) {
        case BestColumn:
            return tr("Best");
        case StatusColumn:
            return tr("Status");
        case DeviceColumn:
            return tr("GPU");
        case MedianColumn:
            return tr("Median (\u00b5s)");
        case MinColumn:
            return tr("Min (\u00b5s)");
        case MaxColumn:
            return tr("Max (\u00b5s)");
        case StddevColumn:
            return tr("Stddev (\u00b5s)");
        case NoiseColumn:
            return tr("Noise (%)");
        case SamplesColumn:
            return tr("Samples");
        case BandwidthColumn:
            return tr("GB/s");
        case PercentOfPeakColumn:
            return tr("% of peak");
        case DramColumn:
            return tr("DRAM GB/s");
        case GflopsColumn:
            return tr("GFLOP/s");
        case TheoreticalOccupancyColumn:
            return tr("Theor. occ. (%)");
        case AchievedOccupancyColumn:
            return tr("Achieved occ. (%)");
        case WavesColumn:
            return tr("Waves");
        case MaxAbsErrorColumn:
            return tr("Max abs error");
        case MaxRelErrorColumn:
            return tr("Max rel error");
        case MessageColumn:
            return tr("Message");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section - axisCount()) {
        case BestColumn:
            return tr("\"best\": the fastest measured point that did not fail verification; "
                      "\"tied\": its median differs from the best's by less than the "
                      "measured noise");
        case NoiseColumn:
            return tr("Relative noise: standard deviation / mean of the samples");
        case BandwidthColumn:
            return tr("Effective bandwidth: the bytes the kernel must move / median time "
                      "(GB = 10^9 bytes)");
        case PercentOfPeakColumn:
            return tr("Effective bandwidth in % of the theoretical DRAM peak");
        case DramColumn:
            return tr("Measured DRAM bytes read + written (metrics pass) / median time");
        case GflopsColumn:
            return tr("The FLOPs the project declares (measure.flops) / median time, else the "
                      "FLOPs the metrics pass counted (Roofline on) / the kernel's time there");
        case TheoreticalOccupancyColumn:
            return tr("Resident warps per SM / the maximum, from the kernel's resources");
        case AchievedOccupancyColumn:
            return tr("Average active warps per SM in % of the maximum (metrics pass)");
        case WavesColumn:
            return tr("Grid blocks / (resident blocks per SM \u00d7 SMs)");
        case MaxAbsErrorColumn:
            return tr("A verified point's largest |out - ref| and the element it was at (with "
                      "several checks, the worst check's)");
        case MaxRelErrorColumn:
            return tr("A verified point's largest |out - ref| / |ref|, over the elements whose "
                      "reference is not 0, and the element it was at");
        default:
            return {};
        }
    }
    return {};
}

std::optional<double> SweepTableModel::gflops(const SweepPointResult &p)
{
    if (p.measurement && p.measurement->throughput.gflops)
        return p.measurement->throughput.gflops;
    if (!p.metrics || !p.metrics->ok())
        return std::nullopt;
    std::string why;
    const std::optional<RooflinePoint> point = rooflinePoint(p.metrics->values, why);
    if (!point || !(point->totalFlops() > 0.0))
        return std::nullopt;
    return point->flopsPerSecond() / 1e9;
}

QVariant SweepTableModel::display(int row, int column) const
{
    const SweepPointResult &p = m_result.points[std::size_t(row)];
    if (column < axisCount()) {
        const std::string *value = p.point.valueOf(m_axes[std::size_t(column)]);
        return value ? toQString(*value) : QString();
    }
    const Measurement *m = p.measurement ? &*p.measurement : nullptr;
    const bool timed = m && m->statistics.count > 0;
    switch (column - axisCount()) {
    case BestColumn:
        if (m_best && *m_best == std::size_t(row))
            return p.deviceIndex ? tr("best (GPU %1)").arg(*p.deviceIndex) : tr("best");
        if (isBestOnDevice(row) && p.deviceIndex)
            return tr("best on GPU %1").arg(*p.deviceIndex);
        return isTied(row) ? tr("tied") : QString();
    case StatusColumn:
        return statusText(p.status);
    case DeviceColumn:
        return p.deviceIndex ? tr("GPU %1").arg(*p.deviceIndex) : QString();
    case MedianColumn:
        return timed ? micros(m->statistics.medianNs) : QString();
    case MinColumn:
        return timed ? micros(m->statistics.minNs) : QString();
    case MaxColumn:
        return timed ? micros(m->statistics.maxNs) : QString();
    case StddevColumn:
        return timed ? micros(m->statistics.stddevNs) : QString();
    case NoiseColumn:
        return timed ? QString::number(m->statistics.relativeNoise * 100.0, 'f', 2) : QString();
    case SamplesColumn:
        return m ? QString::number(m->statistics.count) : QString();
    case BandwidthColumn:
        return m && m->throughput.effectiveGBps ? gbps(*m->throughput.effectiveGBps) : QString();
    case PercentOfPeakColumn: {
        const auto v = sortValue(row, column);
        return v.isValid() ? oneDecimal(v.toDouble()) : QString();
    }
    case DramColumn: {
        const auto dram = SweepChartBuilder::dramGBps(p);
        return dram ? gbps(*dram) : QString();
    }
    case GflopsColumn: {
        const auto g = gflops(p);
        return g ? QString::number(*g, 'f', *g < 100 ? 2 : 1) : QString();
    }
    case TheoreticalOccupancyColumn: {
        const auto occupancy = SweepChartBuilder::theoreticalOccupancy(p);
        return occupancy ? oneDecimal(*occupancy * 100.0) : QString();
    }
    case AchievedOccupancyColumn: {
        const auto occupancy = SweepChartBuilder::achievedOccupancyPercent(p);
        return occupancy ? oneDecimal(*occupancy) : QString();
    }
    case WavesColumn: {
        const auto waves = SweepChartBuilder::waves(p);
        return waves ? QString::number(*waves, 'f', *waves < 100 ? 2 : 0) : QString();
    }
    case MaxAbsErrorColumn:
    case MaxRelErrorColumn: {
        const VerificationResult *worst = worstCheck(p.checks);
        if (!worst)
            return QString();
        const bool absolute = column - axisCount() == MaxAbsErrorColumn;
        const std::optional<double> &error = absolute ? worst->maxAbsError : worst->maxRelError;
        if (!error)
            return QString();
        const QString value = QString::number(*error, 'g', 3);
        if (worst->aggregateActual || worst->output.empty())
            return value;
        return tr("%1 at %2[%3]")
            .arg(value, toQString(worst->output))
            .arg(absolute ? worst->maxAbsErrorIndex : worst->maxRelErrorIndex);
    }
    case MessageColumn:
        return toQString(p.message.empty() ? p.point.skipReason : p.message);
    default:
        return {};
    }
}

QVariant SweepTableModel::sortValue(int row, int column) const
{
    const SweepPointResult &p = m_result.points[std::size_t(row)];
    if (column < axisCount()) {
        const std::optional<double> number = m_numbers[std::size_t(row)][std::size_t(column)];
        if (number)
            return *number;
        return display(row, column);
    }
    const Measurement *m = p.measurement ? &*p.measurement : nullptr;
    const bool timed = m && m->statistics.count > 0;
    const auto optional = [](const std::optional<double> &v) {
        return v && std::isfinite(*v) ? QVariant(*v) : QVariant();
    };
    switch (column - axisCount()) {
    case BestColumn:
        // best first, then the tied points, then the rest (ascending).
        if ((m_best && *m_best == std::size_t(row)) || isBestOnDevice(row))
            return 0;
        return isTied(row) ? 1 : 2;
    case StatusColumn:
        return int(p.status);
    case DeviceColumn:
        return p.deviceIndex ? QVariant(*p.deviceIndex) : QVariant();
    case MedianColumn:
        return timed ? QVariant(m->statistics.medianNs) : QVariant();
    case MinColumn:
        return timed ? QVariant(m->statistics.minNs) : QVariant();
    case MaxColumn:
        return timed ? QVariant(m->statistics.maxNs) : QVariant();
    case StddevColumn:
        return timed ? QVariant(m->statistics.stddevNs) : QVariant();
    case NoiseColumn:
        return timed ? QVariant(m->statistics.relativeNoise) : QVariant();
    case SamplesColumn:
        return m ? QVariant(qulonglong(m->statistics.count)) : QVariant();
    case BandwidthColumn:
        return m ? optional(m->throughput.effectiveGBps) : QVariant();
    case PercentOfPeakColumn: {
        if (!m || !m->throughput.effectiveGBps)
            return {};
        if (m->throughput.percentOfPeak)
            return optional(m->throughput.percentOfPeak);
        const std::optional<double> peak = m->throughput.theoreticalPeakGBps
                                               ? m->throughput.theoreticalPeakGBps
                                               : m_result.theoreticalPeakGBps;
        if (!peak || !(*peak > 0))
            return {};
        return optional(*m->throughput.effectiveGBps / *peak * 100.0);
    }
    case DramColumn:
        return optional(SweepChartBuilder::dramGBps(p));
    case GflopsColumn:
        return optional(gflops(p));
    case TheoreticalOccupancyColumn:
        return optional(SweepChartBuilder::theoreticalOccupancy(p));
    case AchievedOccupancyColumn:
        return optional(SweepChartBuilder::achievedOccupancyPercent(p));
    case WavesColumn:
        return optional(SweepChartBuilder::waves(p));
    case MaxAbsErrorColumn:
    case MaxRelErrorColumn: {
        const VerificationResult *worst = worstCheck(p.checks);
        if (!worst)
            return {};
        return optional(column - axisCount() == MaxAbsErrorColumn ? worst->maxAbsError
                                                                  : worst->maxRelError);
    }
    case MessageColumn:
        return display(row, column);
    default:
        return {};
    }
}

QVariant SweepTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    const SweepPointResult &p = m_result.points[std::size_t(row)];
    const bool best = (m_best && *m_best == std::size_t(row)) || isBestOnDevice(row);
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        return sortValue(row, column);
    case PointIndexRole:
        return qulonglong(row);
    case Qt::ToolTipRole:
        if (column == this->column(MessageColumn) || column == this->column(StatusColumn)) {
            const QVariant text = display(row, this->column(MessageColumn));
            return text.toString().isEmpty() ? QVariant() : text;
        }
        return {};
    case Qt::FontRole:
        if (best) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::BackgroundRole:
        if (best)
            return QColor(0xd8, 0xf0, 0xd8);
        if (isTied(row))
            return QColor(0xee, 0xf8, 0xee);
        return {};
    case Qt::ForegroundRole:
        if (p.status == PointStatus::Failed || p.status == PointStatus::Wrong)
            return QColor(0xb0, 0x20, 0x20);
        if (p.status == PointStatus::Skipped || p.status == PointStatus::Pending)
            return QColor(0x80, 0x80, 0x80);
        return {};
    case Qt::TextAlignmentRole: {
        const int fixed = column - axisCount();
        if (fixed == BestColumn || fixed == StatusColumn || fixed == MessageColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    default:
        return {};
    }
}

QString SweepTableModel::toTsv(const QList<int> &rows) const
{
    QStringList lines;
    QStringList header;
    // The GPU column as the view shows it: only for a sweep over several GPUs.
    const auto copied = [this](int c) { return severalDevices() || c != column(DeviceColumn); };
    for (int c = 0; c < columnCount(); ++c) {
        if (copied(c))
            header << noTabs(headerData(c, Qt::Horizontal).toString());
    }
    lines << header.join(QLatin1Char('\t'));
    for (int row : rows) {
        if (row < 0 || row >= rowCount())
            continue;
        QStringList cells;
        for (int c = 0; c < columnCount(); ++c) {
            if (copied(c))
                cells << noTabs(display(row, c).toString());
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

SweepTableProxy::SweepTableProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SweepTableModel::SortRole);
}

bool SweepTableProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(sortRole());
    const QVariant r = right.data(sortRole());
    if (l.isValid() && r.isValid())
        return QSortFilterProxyModel::lessThan(left, right);
    if (l.isValid() == r.isValid())
        return false;
    // Descending order sorts by lessThan(right, left): a missing value must then be "less".
    return sortOrder() == Qt::AscendingOrder ? l.isValid() : !l.isValid();
}

} // namespace cuwb
