#include "gui/measure/metricpassplanner.h"

#include "gui/common/qtconvert.h"

#include <mutex>

namespace cuwb {

namespace {

// CUPTI's host objects are created and used one at a time, whichever planner asks.
std::mutex &planMutex()
{
    static std::mutex mutex;
    return mutex;
}

} // namespace

MetricPassPlanner::MetricPassPlanner(QObject *parent)
    : QObject(parent)
    , m_jobs(this, nullptr,
             [this](quint64 id, MetricsResult &&result) { Q_EMIT planFinished(id, result); })
{
    qRegisterMetaType<cuwb::MetricsResult>();
}

// The count in flight, if any, finishes on its pool thread with copies of its inputs; nothing
// waits for it here, so closing a dialog never blocks on CUPTI being loaded.
MetricPassPlanner::~MetricPassPlanner() = default;

quint64 MetricPassPlanner::plan(const QString &arch, const QStringList &metrics)
{
    const std::string chip = chipForArch(toStdString(arch));
    // Answers that need no CUPTI are known at once, but still come through the job (and the
    // event loop), so that callers see the same order of events either way.
    MetricsResult immediate;
    immediate.chip = chip;
    if (arch.isEmpty())
        immediate.error = toStdString(tr("no device or target architecture is known yet"));
    else if (chip.empty())
        immediate.error = toStdString(tr("this program knows no CUPTI chip for %1").arg(arch));
    else if (metrics.isEmpty())
        immediate.error = toStdString(tr("no metric is named"));
    if (!immediate.ok())
        return m_jobs.submit([immediate] { return immediate; });
    return m_jobs.submit([chip, metrics = toStdStringList(metrics)] {
        const std::lock_guard lock(planMutex());
        return planMetricPasses(chip, metrics);
    });
}

QString MetricPassPlanner::describe(const QString &arch, const QStringList &metrics,
                                    const MetricsResult &plan)
{
    if (!plan.ok()) {
        const QString error = toQString(plan.error);
        // An unknown metric names itself; anything else says what could not be counted.
        if (error.startsWith(QLatin1String("unknown metric")))
            return error.at(0).toUpper() + error.mid(1);
        return tr("Replay passes not known: %1").arg(error);
    }
    const QString passes =
        plan.passes == 1 ? tr("1 replay pass") : tr("%1 replay passes").arg(plan.passes);
    const QString names =
        metrics.size() == 1 ? tr("1 metric") : tr("%1 metrics").arg(metrics.size());
    return tr("%1 on %2 (%3) for %4").arg(passes, toQString(plan.chip), arch, names);
}

} // namespace cuwb
