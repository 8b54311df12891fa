#include "gui/compare/comparecontroller.h"

#include "gui/common/qtconvert.h"
#include "gui/run/runcontroller.h"

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
    for (Job &job : m_jobs)
        m_steps += job.request ? CompareSideSequence(job.side).stepCount() : 0;
    m_busy = true;
    m_sequence.reset();
    next();
}

void CompareController::cancel()
{
    if (!m_busy)
        return;
    m_busy = false;
    m_sequence.reset();
    m_run->cancelMeasurement();
    Q_EMIT cancelled();
}

void CompareController::report(const QString &what)
{
    ++m_step;
    ++m_sideStep;
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
        m_sequence.reset();
        Q_EMIT finished();
        return;
    }
    Job &job = m_jobs[m_current];
    job.side.sourceFile = std::filesystem::path(job.request->fileName).filename().string();
    m_sequence.emplace(job.side);
    m_sideStep = 0;
    ask();
}

void CompareController::ask()
{
    const Job &job = m_jobs[m_current];
    switch (m_sequence->step()) {
    case CompareSideSequence::Step::Measure:
        report(tr("Measuring"));
        // The metrics pass follows the measurement on its own (RunController::measure).
        m_run->measure(*job.request, job.settings, job.throughput,
                       CompareSideSequence::metricsRequest());
        return;
    case CompareSideSequence::Step::Metrics:
        report(tr("Profiling"));
        return;
    case CompareSideSequence::Step::Inspect:
        report(tr("Inspecting"));
        m_run->inspect(*job.request);
        return;
    case CompareSideSequence::Step::Done:
        // The steps a failed side did not take still count towards the whole.
        m_step += m_sequence->stepCount() - m_sideStep;
        ++m_current;
        next();
        return;
    }
}

void CompareController::onMeasured(const Measurement &measurement)
{
    if (!m_busy || !m_sequence || m_sequence->step() != CompareSideSequence::Step::Measure)
        return;
    m_sequence->measured(measurement);
    ask();
}

void CompareController::onMetrics(const MetricsResult &metrics)
{
    if (!m_busy || !m_sequence || m_sequence->step() != CompareSideSequence::Step::Metrics)
        return;
    m_sequence->profiled(metrics);
    ask();
}

void CompareController::onInspected(const InspectResult &result)
{
    if (!m_busy || !m_sequence || m_sequence->step() != CompareSideSequence::Step::Inspect)
        return;
    m_sequence->inspected(result);
    ask();
}

} // namespace cuwb
