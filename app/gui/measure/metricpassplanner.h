// MetricPassPlanner: how many replay passes a set of hardware metrics needs on the chip of an
// architecture, counted on the host by planMetricPasses (libcupti and libnvperf_host, no GPU).
// The first count loads those libraries, which takes a few hundred milliseconds, so counting
// runs on a pool thread and never on the GUI thread. A newer request supersedes an older one:
// at most one count runs and one waits, and a finished count that is not the newest is dropped.
#pragma once

#include "gui/common/metatypes.h"
#include "measure/metrics.h"

#include "gui/common/jobtracker.h"

#include <QObject>
#include <QString>
#include <QStringList>

namespace cuwb {

class MetricPassPlanner : public QObject
{
    Q_OBJECT

public:
    explicit MetricPassPlanner(QObject *parent = nullptr);
    ~MetricPassPlanner() override;

    // Counts the passes of `metrics` on the chip of `arch` ("sm_90"); planFinished follows,
    // at once when the chip is unknown or no metric is named. Returns the request's id.
    quint64 plan(const QString &arch, const QStringList &metrics);

    [[nodiscard]] bool isBusy() const { return m_jobs.isBusy(); }
    [[nodiscard]] quint64 latestId() const { return m_jobs.newest(); }

    // The line a user reads for a finished plan: "1 replay pass on GH100 (sm_90) for 5
    // metrics", or why the passes are not known (an unknown metric is named).
    static QString describe(const QString &arch, const QStringList &metrics,
                            const MetricsResult &plan);

Q_SIGNALS:
    // ok: plan.error is empty. The result is always for the newest request.
    void planFinished(quint64 id, const cuwb::MetricsResult &plan);

private:
    JobTracker<MetricsResult> m_jobs;
};

} // namespace cuwb
