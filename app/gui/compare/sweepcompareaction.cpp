#include "gui/compare/sweepcompareaction.h"

#include "gui/sweep/sweepresultsview.h"
#include "gui/sweep/sweeptablemodel.h"

#include <QItemSelectionModel>
#include <QTableView>

#include <algorithm>

namespace cuwb {

SweepCompareAction::SweepCompareAction(SweepResultsView *view)
    : QAction(tr("Compare these two points"), view->tableView())
    , m_view(view)
{
    setToolTip(tr("Show the two selected points side by side in the Compare dock"));
    QTableView *table = view->tableView();
    table->addAction(this);
    connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SweepCompareAction::updateEnabled);
    connect(table->model(), &QAbstractItemModel::modelReset, this,
            &SweepCompareAction::updateEnabled);
    connect(this, &QAction::triggered, this, [this] {
        if (selectedPoints())
            Q_EMIT comparePointsRequested();
    });
    updateEnabled();
}

std::optional<std::pair<SweepPointResult, SweepPointResult>>
SweepCompareAction::selectedPoints() const
{
    QModelIndexList rows = m_view->tableView()->selectionModel()->selectedRows();
    if (rows.size() != 2 || m_view->runs().empty())
        return std::nullopt;
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &l, const QModelIndex &r) { return l.row() < r.row(); });
    const std::vector<SweepPointResult> &points = m_view->runs().front().result.points;
    const auto find = [&points](const QModelIndex &row) -> const SweepPointResult * {
        const QVariant index = row.data(SweepTableModel::PointIndexRole);
        if (!index.isValid())
            return nullptr;
        for (const SweepPointResult &point : points) {
            if (point.point.index == index.toULongLong())
                return &point;
        }
        return nullptr;
    };
    const SweepPointResult *a = find(rows[0]);
    const SweepPointResult *b = find(rows[1]);
    if (!a || !b)
        return std::nullopt;
    return std::make_pair(*a, *b);
}

void SweepCompareAction::updateEnabled()
{
    setEnabled(m_view->tableView()->selectionModel()->selectedRows().size() == 2);
}

} // namespace cuwb
