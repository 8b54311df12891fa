// CompareController: collects two variants for the Compare view, one after the other, on the
// worker that the window's runs share: each side goes through the core's CompareSideSequence,
// as `cuwb compare` does (measured, then profiled with the counters of speed of light and the
// roofline, then inspected), here driven by the run controller's signals. A side whose
// measurement fails (no GPU, a fault) keeps the reason and the other side is still collected;
// a refused metrics pass or inspection leaves that part absent with its reason. A side given
// already collected (a history entry, a sweep point) is taken as it is. The requests go through a
// RunController of its own on the shared worker, so the Measurement and Inspect docks keep what
// they show; nothing waits on the GUI thread. Cancel stops the sampling in flight and drops what
// comes after.
#pragma once

#include "compare/comparedata.h"
#include "compare/comparesequence.h"
#include "measure/measurement.h"
#include "run/runrequest.h"

#include <QObject>
#include <QString>

#include <array>
#include <memory>
#include <optional>

namespace cuwb {

class RunController;
class SharedWorker;

class CompareController : public QObject
{
    Q_OBJECT

public:
    struct Job
    {
        CompareSideInput side;             // name, origin; complete already when no request
        std::optional<RunRequest> request; // set: measure, profile and inspect it
        SampleSettings settings;
        ThroughputExpressions throughput;
    };

    // worker: the window's shared worker; null gives the controller one of its own (tests).
    explicit CompareController(std::shared_ptr<SharedWorker> worker, QObject *parent = nullptr);

    [[nodiscard]] RunController *runController() const { return m_run; }

    // Starts collecting; a comparison in flight is dropped.
    void start(Job a, Job b);
    void cancel();
    [[nodiscard]] bool isBusy() const { return m_busy; }
    // The two sides, once finished() was emitted.
    [[nodiscard]] const CompareSideInput &side(int index) const { return m_jobs[index].side; }
    // Steps of a whole comparison: three per side that is collected.
    [[nodiscard]] int steps() const { return m_steps; }

Q_SIGNALS:
    void progress(const QString &text, int step, int steps);
    void finished();
    void cancelled();

private:
    // Starts the next side that has a request, or finishes.
    void next();
    // Asks the run controller for the sequence's step, or goes on to the next side.
    void ask();
    void onMeasured(const Measurement &measurement);
    void onMetrics(const MetricsResult &metrics);
    void onInspected(const InspectResult &result);
    void report(const QString &what);

    RunController *m_run = nullptr;
    std::array<Job, 2> m_jobs;
    int m_current = 0;
    int m_step = 0;
    int m_steps = 0;
    int m_sideStep = 0; // the steps reported for the side being collected
    std::optional<CompareSideSequence> m_sequence; // of the side being collected
    bool m_busy = false;
};

} // namespace cuwb
