// SweepCompareAction: "Compare these two points" in the sweep table's context menu, enabled
// when exactly two rows are selected; the two points' stored measurements and metrics become
// the Compare view's sides. It attaches itself to a SweepResultsView from outside, through the
// view's table, so the sweep code knows nothing of Compare.
#pragma once

#include "sweep/sweep.h"

#include <QAction>

#include <optional>
#include <utility>

namespace cuwb {

class SweepResultsView;

class SweepCompareAction : public QAction
{
    Q_OBJECT

public:
    explicit SweepCompareAction(SweepResultsView *view);

    // The selected rows' points, in the order on screen, when exactly two are selected.
    [[nodiscard]] std::optional<std::pair<SweepPointResult, SweepPointResult>>
    selectedPoints() const;

Q_SIGNALS:
    void comparePointsRequested();

private:
    void updateEnabled();

    SweepResultsView *m_view = nullptr;
};

} // namespace cuwb
