// The collection of one side of a comparison, written once: `cuwb compare` drives it on a
// WorkerClient (collectSide), the window's CompareController on its run controller's signals.
// In order: the measurement; when it did not fail, the metrics pass with the counters of speed
// of light and the roofline; then, unless turned off, the inspection (counters per line). A
// failed measurement (no GPU, a fault) ends the side with the reason in `failure`; a refused
// metrics pass or inspection leaves that part absent with its reason in `missing`.
#pragma once

#include "compare/comparedata.h"
#include "inspect/instructioncounters.h"
#include "measure/measurement.h"
#include "measure/metrics.h"
#include "run/runrequest.h"

namespace cuwb {

class WorkerClient;

class CompareSideSequence
{
public:
    enum class Step { Measure, Metrics, Inspect, Done };

    // Fills `side`, which must outlive the sequence; `inspect` false leaves the inspection out
    // (no profiling permission), and says so in `missing`.
    explicit CompareSideSequence(CompareSideInput &side, bool inspect = true);

    // What to ask the worker for next; Done when the side is complete.
    [[nodiscard]] Step step() const { return m_step; }
    // The steps a side takes when nothing fails: the progress's denominator.
    [[nodiscard]] int stepCount() const { return m_inspect ? 3 : 2; }
    // The metrics pass's request: speed of light and the roofline's counters.
    [[nodiscard]] static MetricsRequest metricsRequest();

    // The answer to the step in progress; each moves to the next step. An answer to a step not
    // in progress is ignored.
    void measured(const Measurement &measurement);
    void profiled(const MetricsResult &metrics);
    void inspected(const InspectResult &result);

private:
    CompareSideInput &m_side;
    bool m_inspect = true;
    Step m_step = Step::Measure;
};

// One side collected on `client` from start to end, one request at a time: the sequence above
// driven synchronously. `side.sourceFile` is set from the request's file name.
void collectSide(CompareSideInput &side, WorkerClient &client, const RunRequest &request,
                 const SampleSettings &settings, const ThroughputExpressions &throughput,
                 bool inspect = true);

} // namespace cuwb
