#include "gui/compare/comparecontroller.h"

#include "gui/common/qtconvert.h"
#include "gui/run/runcontroller.h"
#include "inspect/linecounters.h"
#include "measure/roofline.h"

#include <filesystem>

namespace cuwb {

CompareController::CompareController(std::shared_ptr<SharedWorker> worker, QObject *parent)
    : QObject(parent)
    , m_run(worker ? new RunController(std::move(worker), this) : new RunController(this))
{
    connect(m_run, &RunController::measurementFinished, this,
            [this](quint64, const Measurement &measurement) { onMeasured(measurement); });
    connect(m_run, &RunController::metricsFinished, this,
            [this](quint64, const MetricsResult &metrics) { onMetrics(metrics); });
    connect(m_run, &RunController::inspectFinished, this,
            [this](quint64, const InspectResult &result) { onInspected(result); });
}

void CompareController::start(Job a, Job b)
{
    m_jobs = {std::move(a), std::move(b)};
    m_current = 0;
    m_step = 0;
    m_steps = 0;
    for (const Job &job : m_jobs)
        m_steps += job.request ? 3 : 0;
    m_busy = true;
    m_phase = Phase::Idle;
    next();
}

void CompareController::cancel()
{
    if (!m_busy)
        return;
    m_busy = false;
    m_phase = Phase::Idle;
    m_run->cancelMeasurement();
    Q_EMIT cancelled();
}

void CompareController::report(const QString &what)
{
    ++m_step;
    const QString letter = m_current == 0 ? tr("A") : tr("B");
    Q_EMIT progress(tr("%1 %2 (%3)\u2026 step %4 of %5")
                        .arg(what, letter, toQString(m_jobs[m_current].side.side.name))
                        .arg(m_step)
                        .arg(m_steps),
                    m_step, m_steps);
}

void CompareController::next()
{
    while (m_current < 2 && !m_jobs[m_current].request)
        ++m_current;
    if (m_current >= 2) {
        m_busy = false;
        m_phase = Phase::Idle;
        Q_EMIT finished();
        return;
    }
    Job &job = m_jobs[m_current];
    job.side.sourceFile = std::filesystem::path(job.request->fileName).filename().string();
    m_phase = Phase::Measure;
    report(tr("Measuring"));
    m_run->measure(*job.request, job.settings, job.throughput,
                   MetricsRequest{withRooflineMetrics({})});
}

void CompareController::onMeasured(const Measurement &measurement)
{
    if (!m_busy || m_phase != Phase::Measure)
        return;
    Job &job = m_jobs[m_current];
    job.side.side.measurement = measurement;
    if (!measurement.faultStatus.empty()) {
        // Without a time there is nothing to profile or inspect: the side says why.
        job.side.failure = measurement.faultStatus + ": " + measurement.faultMessage;
        m_step += 2;
        ++m_current;
        next();
        return;
    }
    m_phase = Phase::Metrics;
    report(tr("Profiling"));
}

void CompareController::onMetrics(const MetricsResult &metrics)
{
    if (!m_busy || m_phase != Phase::Metrics)
        return;
    Job &job = m_jobs[m_current];
    job.side.side.metrics = metrics;
    if (!metrics.ok())
        job.side.missing.push_back("metrics: " + metrics.error);
    m_phase = Phase::Inspect;
    report(tr("Inspecting"));
    m_run->inspect(*job.request);
}

void CompareController::onInspected(const InspectResult &result)
{
    if (!m_busy || m_phase != Phase::Inspect)
        return;
    Job &job = m_jobs[m_current];
    if (result.ok())
        job.side.side.inspection = summarise(result);
    else
        job.side.missing.push_back("inspection: " + result.error);
    ++m_current;
    next();
}

} // namespace cuwb
