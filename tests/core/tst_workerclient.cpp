// The one typed client of the worker (core/worker/workerclient.h), against the fake worker:
// each request comes back as its own type, and each way a worker fails (a crash, garbage, a
// refusal, a worker that cannot start, a timeout) reads as the same status and sentence for a
// run, a measurement and a metrics pass, which the GUI, `cuwb` and the sweep runner all show.
#include "worker/workerclient.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_workerclient {

namespace {

RunRequest sampleRequest()
{
    RunRequest request;
    request.source = "__global__ void k(float *p) {}\n";
    request.launch.kernel = "k";
    request.launch.deadlineSeconds = 2.0;
    return request;
}

bool contains(const std::string &text, const char *part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestWorkerClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { QVERIFY(m_dir.isValid()); }

    void answersAsTypes()
    {
        WorkerProcess process(options(QStringLiteral("measure-ok")));
        WorkerClient client(process);
        const RunResult run = client.run(sampleRequest());
        QCOMPARE(run.status, RunStatus::Succeeded);
        QVERIFY(client.answered());

        SampleSettings settings;
        const Measurement measurement = client.measure(sampleRequest(), settings, {});
        QVERIFY2(measurement.faultStatus.empty(), measurement.faultMessage.c_str());
        QVERIFY(measurement.statistics.count > 0);

        MetricsRequest metrics;
        const MetricsResult collected = client.metrics(sampleRequest(), metrics);
        QVERIFY2(collected.ok(), collected.error.c_str());

        PageRequest pageRequest;
        pageRequest.handle = "run1/p";
        pageRequest.first = 4;
        const WorkerClient::PageOutcome page = client.page(pageRequest);
        QVERIFY2(page.error.empty(), page.error.c_str());
        QCOMPARE(page.page.first, 4ULL);
        QCOMPARE(page.page.values, (std::vector<std::string>{"1.5", "nan"}));

        const WorkerClient::ExportOutcome exported =
            client.exportBuffer("run1/p", "/tmp/p.npy", ExportFormat::Npy);
        QVERIFY2(exported.error.empty(), exported.error.c_str());
        QCOMPARE(exported.exported.bytes, 16ULL);
        QVERIFY(client.release());
        QCOMPARE(process.starts(), 1);
    }

    void failuresReadTheSameEverywhere()
    {
        {
            WorkerProcess process(options(QStringLiteral("crash")));
            WorkerClient client(process);
            const RunResult run = client.run(sampleRequest());
            QCOMPARE(run.status, RunStatus::WorkerCrashed);
            QVERIFY2(contains(run.message, "The worker stopped unexpectedly"), run.message.c_str());
            QCOMPARE(client.lastFailure(), WorkerProcess::Failure::Crashed);
            QVERIFY(!client.answered());
        }
        {
            WorkerProcess process(options(QStringLiteral("garbage")));
            WorkerClient client(process);
            const RunResult run = client.run(sampleRequest());
            QCOMPARE(run.status, RunStatus::WorkerCrashed);
            QVERIFY2(contains(run.message, "The worker stopped unexpectedly"), run.message.c_str());
        }
        {
            WorkerProcess process(options(QStringLiteral("error")));
            WorkerClient client(process);
            const RunResult run = client.run(sampleRequest());
            QCOMPARE(run.status, RunStatus::WorkerCrashed);
            QVERIFY2(contains(run.message, "The worker refused the run: no such kernel"),
                     run.message.c_str());
            QCOMPARE(client.lastFailure(), WorkerProcess::Failure::ErrorReply);
        }
        {
            WorkerProcess::Options missing;
            missing.executable = m_dir.filePath(QStringLiteral("no-such-cuwb")).toStdString();
            WorkerProcess process(missing);
            WorkerClient client(process);
            const RunResult run = client.run(sampleRequest());
            QCOMPARE(run.status, RunStatus::WorkerCrashed);
            QVERIFY2(contains(run.message, "The worker could not start"), run.message.c_str());
            QVERIFY2(!contains(run.message, "could not start the worker"), run.message.c_str());
            // A measurement and a metrics pass say the same, as their own fault fields.
            const Measurement measurement = client.measure(sampleRequest(), SampleSettings{}, {});
            QCOMPARE(measurement.faultStatus, std::string(runStatusName(RunStatus::WorkerCrashed)));
            QVERIFY2(contains(measurement.faultMessage, "The worker could not start"),
                     measurement.faultMessage.c_str());
            const MetricsResult metrics = client.metrics(sampleRequest(), MetricsRequest{});
            QVERIFY2(contains(metrics.error, "could not collect the metrics: The worker could not "
                                             "start"),
                     metrics.error.c_str());
        }
    }

    void timeoutsFollowOnePolicy()
    {
        WorkerProcess::Reply late;
        late.failure = WorkerProcess::Failure::Timeout;
        late.error = "no reply within 92 s";
        const RunResult run = WorkerClient::failedRun(late, 2.0);
        QCOMPARE(run.status, RunStatus::Timeout);
        QVERIFY2(contains(run.message, "within 2 s"), run.message.c_str());
        QVERIFY2(contains(run.message, "no reply within 92 s"), run.message.c_str());

        const double slack = WorkerClient::kSlackSeconds;
        QCOMPARE(WorkerClient::runTimeoutSeconds(2.0), 2.0 + slack);
        // No deadline, or a broken one: the default of 10 s.
        QCOMPARE(WorkerClient::runTimeoutSeconds(0.0), 10.0 + slack);
        QCOMPARE(WorkerClient::runTimeoutSeconds(std::numeric_limits<double>::quiet_NaN()),
                 10.0 + slack);
        SampleSettings settings;
        settings.timeCapSeconds = 5.0;
        QCOMPARE(WorkerClient::measureTimeoutSeconds(2.0, settings), 7.0 + slack);
        QCOMPARE(WorkerClient::metricsTimeoutSeconds(2.0),
                 2.0 * WorkerClient::kMaxReplayPasses + slack);
    }

private:
    WorkerProcess::Options options(const QString &mode) const
    {
        WorkerProcess::Options options;
        options.executable = CUWB_FAKE_WORKER_PATH;
        options.arguments = {mode.toStdString(),
                             m_dir.filePath(QStringLiteral("marker-") + mode).toStdString()};
        return options;
    }

    QTemporaryDir m_dir;
};

CUWB_TEST_GUILESS_MAIN(TestWorkerClient)
} // namespace tst_workerclient
} // namespace

#include "tst_workerclient.moc"
