#include "gui/measure/metricpassplanner.h"

#include "gui/common/qtconvert.h"

#include <QtConcurrent/QtConcurrentRun>

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
{
    qRegisterMetaType<cuwb::MetricsResult>();
    connect(&m_watcher, &QFutureWatcher<MetricsResult>::finished, this,
            &MetricPassPlanner::onFinished);
}

// The count in flight, if any, finishes on its pool thread with copies of its inputs; nothing
// waits for it here, so closing a dialog never blocks on CUPTI being loaded.
MetricPassPlanner::~MetricPassPlanner() = default;

quint64 MetricPassPlanner::plan(const QString &arch, const QStringList &metrics)
{
    Request request{++m_nextId, arch, metrics};
    m_latestId = request.id;
    if (m_running)
        m_waiting = std::move(request); // replaces an older waiting request
    else
        start(std::move(request));
    return m_latestId;
}

void MetricPassPlanner::start(Request request)
{
    const std::string chip = chipForArch(toStdString(request.arch));
    std::vector<std::string> metrics = toStdStringList(request.metrics);
    // Answers that need no CUPTI come back at once (but still through the event loop, so that
    // callers see the same order of events either way).
    MetricsResult immediate;
    immediate.chip = chip;
    if (request.arch.isEmpty())
        immediate.error = toStdString(tr("no device or target architecture is known yet"));
    else if (chip.empty())
        immediate.error =
            toStdString(tr("this program knows no CUPTI chip for %1").arg(request.arch));
    else if (metrics.empty())
        immediate.error = toStdString(tr("no metric is named"));
    m_running = std::move(request);
    if (!immediate.ok()) {
        m_watcher.setFuture(QtFuture::makeReadyFuture(std::move(immediate)));
        return;
    }
    m_watcher.setFuture(QtConcurrent::run([chip, metrics = std::move(metrics)] {
        const std::lock_guard lock(planMutex());
        return planMetricPasses(chip, metrics);
    }));
}

void MetricPassPlanner::onFinished()
{
    if (!m_running)
        return;
    const Request finished = std::move(*m_running);
    m_running.reset();
    const MetricsResult result = m_watcher.future().result();
    if (m_waiting) {
        Request next = std::move(*m_waiting);
        m_waiting.reset();
        start(std::move(next));
    }
    if (finished.id == m_latestId)
        Q_EMIT planFinished(finished.id, result);
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
