#include "compare/comparesequence.h"

#include "inspect/linecounters.h"
#include "measure/roofline.h"
#include "worker/workerclient.h"

#include <filesystem>

namespace cuwb {

CompareSideSequence::CompareSideSequence(CompareSideInput &side, bool inspect)
    : m_side(side)
    , m_inspect(inspect)
{}

MetricsRequest CompareSideSequence::metricsRequest()
{
    return MetricsRequest{withRooflineMetrics({})};
}

void CompareSideSequence::measured(const Measurement &measurement)
{
    if (m_step != Step::Measure)
        return;
    m_side.side.measurement = measurement;
    if (!measurement.faultStatus.empty()) {
        // Without a time there is nothing to profile or inspect: the side says why.
        m_side.failure = measurement.faultStatus + ": " + measurement.faultMessage;
        m_step = Step::Done;
        return;
    }
    m_step = Step::Metrics;
}

void CompareSideSequence::profiled(const MetricsResult &metrics)
{
    if (m_step != Step::Metrics)
        return;
    m_side.side.metrics = metrics;
    if (!metrics.ok())
        m_side.missing.push_back("metrics: " + metrics.error);
    m_step = m_inspect ? Step::Inspect : Step::Done;
}

void CompareSideSequence::inspected(const InspectResult &result)
{
    if (m_step != Step::Inspect)
        return;
    if (result.ok())
        m_side.side.inspection = summarise(result);
    else
        m_side.missing.push_back("inspection: " + result.error);
    m_step = Step::Done;
}

void collectSide(CompareSideInput &side, WorkerClient &client, const RunRequest &request,
                 const SampleSettings &settings, const ThroughputExpressions &throughput,
                 bool inspect)
{
    side.sourceFile = std::filesystem::path(request.fileName).filename().string();
    CompareSideSequence sequence(side, inspect);
    while (sequence.step() != CompareSideSequence::Step::Done) {
        switch (sequence.step()) {
        case CompareSideSequence::Step::Measure:
            sequence.measured(client.measure(request, settings, throughput));
            break;
        case CompareSideSequence::Step::Metrics:
            sequence.profiled(client.metrics(request, CompareSideSequence::metricsRequest()));
            break;
        case CompareSideSequence::Step::Inspect:
            sequence.inspected(client.inspect(request, InspectRequest()));
            break;
        case CompareSideSequence::Step::Done:
            break;
        }
    }
}

} // namespace cuwb
