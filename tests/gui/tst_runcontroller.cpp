// RunController against a stand-in for `cuwb worker` (tests/core/fakeworker.cpp): quitting while
// a run is in flight must neither hang until the run's deadline nor crash; a measurement is
// followed by a metrics request only when one is asked for, and then as a request of its own;
// cancelling a measurement stops its sampling and keeps the samples taken (the worker stays),
// and never touches a run. A run on a remote target compiles its image in `cuwb
// compile-server`, so a source that crashes NVRTC does not end this process.
#include "gui/common/sharedworker.h"
#include "gui/run/runcontroller.h"
#include "worker/protocol.h"

#include "../support/hostilesource.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_runcontroller {

namespace {

constexpr int ReplyTimeoutMs = 30000;

RunRequest sampleRequest()
{
    RunRequest request;
    request.source = "__global__ void k() {}\n";
    request.launch.kernel = "k";
    return request;
}

} // namespace

class TestRunController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void destroyingWhileARunHangsReturnsPromptly();
    void metricsAreRequestedOnlyWhenAsked();
    void aRefusedMetricsPassKeepsTheTiming();
    void cancelKeepsTheSamplesAndTheWorker();
    void cancelRightAfterStartingIsNotLost();
    void cancelLeavesARunAlone();
    void aSupersededRunIsDropped();
    void aRemoteImageThatCrashesTheCompilerLeavesThisProcess();

private:
    // A cuwb stand-in that answers hello, then never answers its first run.
    QString hangingWorker(const QString &marker) const;
    // A cuwb stand-in running the fake worker in `mode`, logging each request to m_log.
    QString fakeCli(const QString &mode, int helloDelayMs = 0) const;
    // The request types the fake worker received, in order.
    QStringList requestLog() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_log;
};

void TestRunController::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_log = m_dir->filePath(QStringLiteral("requests.log"));
}

QString TestRunController::hangingWorker(const QString &marker) const
{
    const QString path = m_dir->filePath(QStringLiteral("cuwb-hang"));
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    script.write("#!/bin/sh\nexec '" CUWB_FAKE_WORKER_PATH "' hang-once '" + marker.toUtf8() +
                 "'\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

QString TestRunController::fakeCli(const QString &mode, int helloDelayMs) const
{
    const QString path = m_dir->filePath(QStringLiteral("cuwb-") + mode);
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    script.write("#!/bin/sh\nCUWB_FAKE_WORKER_HELLO_DELAY_MS=" + QByteArray::number(helloDelayMs) +
                 " CUWB_FAKE_WORKER_LOG='" + m_log.toUtf8() + "' exec '" +
                 CUWB_FAKE_WORKER_PATH "' " + mode.toUtf8() + "\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

QStringList TestRunController::requestLog() const
{
    QFile file(m_log);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

void TestRunController::destroyingWhileARunHangsReturnsPromptly()
{
    const QString marker = m_dir->filePath(QStringLiteral("run-arrived"));
    const QString cli = hangingWorker(marker);
    QVERIFY(!cli.isEmpty());

    auto controller = std::make_unique<RunController>();
    controller->setCliPath(cli);
    QSignalSpy finished(controller.get(), &RunController::runFinished);
    RunRequest request = sampleRequest();
    request.launch.deadlineSeconds = 3600; // the client would wait an hour and a minute
    QVERIFY(controller->run(request) != 0);
    QVERIFY(controller->isRunning());
    // The fake writes the marker when the run arrives, then hangs.
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);

    // Without cancelling the request in flight this waits for the hour (the test times out).
    controller.reset();
    QCOMPARE(finished.count(), 0); // nothing is reported from a controller being destroyed
}

void TestRunController::metricsAreRequestedOnlyWhenAsked()
{
    RunController controller;
    controller.setCliPath(fakeCli(QStringLiteral("measure-ok")));
    QSignalSpy measured(&controller, &RunController::measurementFinished);
    QSignalSpy started(&controller, &RunController::metricsStarted);
    QSignalSpy collected(&controller, &RunController::metricsFinished);

    // Off: the measurement alone.
    const quint64 first = controller.measure(sampleRequest(), SampleSettings{});
    QVERIFY(first != 0);
    QTRY_COMPARE_WITH_TIMEOUT(measured.size(), 1, ReplyTimeoutMs);
    QVERIFY(!controller.isCollectingMetrics());
    QVERIFY(!controller.isRunning());
    QCOMPARE(started.size(), 0);
    QCOMPARE(requestLog(), QStringList({QStringLiteral("hello"), QStringLiteral("measure")}));

    // On: a separate metrics request after the measurement's reply, on the same worker.
    MetricsRequest metrics;
    const quint64 second = controller.measure(sampleRequest(), SampleSettings{}, {}, metrics);
    QTRY_COMPARE_WITH_TIMEOUT(measured.size(), 2, ReplyTimeoutMs);
    QCOMPARE(measured.at(1).at(0).value<quint64>(), second);
    QCOMPARE(measured.at(1).at(1).value<Measurement>().statistics.count, std::size_t(60));
    // The timing is reported before the pass starts, and the controller stays busy for it.
    QCOMPARE(started.size(), 1);
    QCOMPARE(started.front().at(1).toInt(), int(metrics.metrics.size()));
    QTRY_COMPARE_WITH_TIMEOUT(collected.size(), 1, ReplyTimeoutMs);
    QCOMPARE(collected.front().at(0).value<quint64>(), second);
    const auto result = collected.front().at(1).value<MetricsResult>();
    QVERIFY2(result.ok(), result.error.c_str());
    QCOMPARE(result.passes, std::size_t(1));
    QCOMPARE(result.values.size(), metrics.metrics.size());
    QVERIFY(!controller.isCollectingMetrics());
    QVERIFY(!controller.isBusy());
    QCOMPARE(requestLog(), QStringList({QStringLiteral("hello"), QStringLiteral("measure"),
                                        QStringLiteral("measure"), QStringLiteral("metrics")}));
}

void TestRunController::aRefusedMetricsPassKeepsTheTiming()
{
    RunController controller;
    controller.setCliPath(fakeCli(QStringLiteral("metrics-denied")));
    QSignalSpy measured(&controller, &RunController::measurementFinished);
    QSignalSpy collected(&controller, &RunController::metricsFinished);
    controller.measure(sampleRequest(), SampleSettings{}, {}, MetricsRequest{});
    QTRY_COMPARE_WITH_TIMEOUT(collected.size(), 1, ReplyTimeoutMs);
    QCOMPARE(measured.size(), 1);
    QVERIFY(measured.front().at(1).value<Measurement>().faultStatus.empty());
    const auto result = collected.front().at(1).value<MetricsResult>();
    QVERIFY(!result.ok());
    QVERIFY(result.permissionDenied);
    QVERIFY(QString::fromStdString(result.error).contains(QStringLiteral("permission")));
}

void TestRunController::cancelKeepsTheSamplesAndTheWorker()
{
    RunController controller;
    controller.setCliPath(fakeCli(QStringLiteral("measure-until-cancel")));
    QSignalSpy measured(&controller, &RunController::measurementFinished);
    QSignalSpy started(&controller, &RunController::metricsStarted);
    QSignalSpy cancellable(&controller, &RunController::measurementCancellableChanged);
    QVERIFY(!controller.canCancelMeasurement());
    QVERIFY(!controller.cancelMeasurement());

    // Asked with metrics: a cancelled measurement must not be followed by the pass.
    controller.measure(sampleRequest(), SampleSettings{}, {}, MetricsRequest{});
    QVERIFY(controller.canCancelMeasurement());
    QCOMPARE(cancellable.size(), 1);
    QCOMPARE(cancellable.front().at(0).toBool(), true);
    // The fake samples "forever" once the request has arrived.
    QTRY_VERIFY_WITH_TIMEOUT(requestLog().contains(QStringLiteral("measure")), ReplyTimeoutMs);
    QCOMPARE(measured.size(), 0);

    QVERIFY(controller.cancelMeasurement());
    QVERIFY(controller.isCancellingMeasurement());
    QVERIFY(!controller.canCancelMeasurement());
    QVERIFY(!controller.cancelMeasurement()); // once is enough
    QTRY_COMPARE_WITH_TIMEOUT(measured.size(), 1, ReplyTimeoutMs);
    const auto measurement = measured.front().at(1).value<Measurement>();
    QCOMPARE(measurement.stop.reason, StopReason::Cancelled);
    QCOMPARE(measurement.stop.message, std::string("cancelled after 3 samples"));
    QCOMPARE(measurement.samplesNs.size(), std::size_t(3));
    QCOMPARE(measurement.statistics.count, std::size_t(3));
    QVERIFY(measurement.faultStatus.empty());
    QCOMPARE(started.size(), 0);
    QVERIFY(!controller.isBusy());
    QCOMPARE(cancellable.last().at(0).toBool(), false);

    // Not a kill: the same worker serves the next request.
    QSignalSpy ran(&controller, &RunController::runFinished);
    controller.run(sampleRequest());
    QTRY_COMPARE_WITH_TIMEOUT(ran.size(), 1, ReplyTimeoutMs);
    QCOMPARE(requestLog().count(QStringLiteral("hello")), 1);
    QCOMPARE(requestLog().count(QStringLiteral("metrics")), 0);
}

void TestRunController::cancelRightAfterStartingIsNotLost()
{
    // The cancel comes while the worker is still starting (a slow hello), before the measure
    // request is written, which WorkerProcess would forget: it must still reach the
    // measurement, or this waits forever. (Had the worker started already, the cancel takes
    // the ordinary way; either way the measurement ends cancelled.)
    RunController controller;
    controller.setCliPath(fakeCli(QStringLiteral("measure-until-cancel"), 500));
    QSignalSpy measured(&controller, &RunController::measurementFinished);
    controller.measure(sampleRequest(), SampleSettings{});
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_log) || !controller.isBusy(), ReplyTimeoutMs);
    QTest::qWait(100); // well inside the hello
    QVERIFY(controller.cancelMeasurement());
    QTRY_COMPARE_WITH_TIMEOUT(measured.size(), 1, ReplyTimeoutMs);
    const auto measurement = measured.front().at(1).value<Measurement>();
    QCOMPARE(measurement.stop.reason, StopReason::Cancelled);
    QVERIFY(measurement.faultStatus.empty());
}

void TestRunController::cancelLeavesARunAlone()
{
    RunController controller;
    controller.setCliPath(fakeCli(QStringLiteral("measure-ok")));
    QSignalSpy ran(&controller, &RunController::runFinished);
    QSignalSpy cancellable(&controller, &RunController::measurementCancellableChanged);
    controller.run(sampleRequest());
    QVERIFY(controller.isRunning());
    QVERIFY(!controller.canCancelMeasurement());
    QVERIFY(!controller.cancelMeasurement());
    QTRY_COMPARE_WITH_TIMEOUT(ran.size(), 1, ReplyTimeoutMs);
    QCOMPARE(ran.front().at(1).value<RunResult>().status, RunStatus::Succeeded);
    QCOMPARE(cancellable.size(), 0);
    QVERIFY(!requestLog().contains(QStringLiteral("cancel")));
}

void TestRunController::aSupersededRunIsDropped()
{
    RunController controller;
    // A slow hello keeps the first run in flight while the next two are asked for.
    controller.setCliPath(fakeCli(QStringLiteral("measure-ok"), 500));
    QSignalSpy ran(&controller, &RunController::runFinished);
    QSignalSpy discarded(&controller, &RunController::runDiscarded);
    const quint64 first = controller.run(sampleRequest());
    controller.run(sampleRequest());
    const quint64 third = controller.run(sampleRequest());
    QTRY_COMPARE_WITH_TIMEOUT(ran.size(), 1, ReplyTimeoutMs);
    // Only the newest run's result is shown; the first one's is dropped when it comes, and the
    // second was replaced before it was ever sent.
    QCOMPARE(ran.front().at(0).value<quint64>(), third);
    QCOMPARE(discarded.size(), 1);
    QCOMPARE(discarded.front().at(0).value<quint64>(), first);
    QCOMPARE(requestLog().count(QStringLiteral("run")), 2);
}

void TestRunController::aRemoteImageThatCrashesTheCompilerLeavesThisProcess()
{
    // A command target whose worker is the stand-in with a GPU, of this program's version: the
    // client compiles the image for that GPU here, which for this source crashes NVRTC.
    const QString remote = m_dir->filePath(QStringLiteral("remote-cuwb"));
    QFile script(remote);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\nexport CUWB_FAKE_WORKER_VERSION='%1'\n"
                                "CUWB_FAKE_WORKER_LOG='%2' CUWB_FAKE_WORKER_REQUESTS='%2.lines' "
                                "exec %3 measure-ok\n")
                     .arg(QString::fromStdString(workbenchVersion()), m_log,
                          QStringLiteral(CUWB_FAKE_WORKER_PATH))
                     .toUtf8());
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

    RunController controller;
    controller.setCliPath(QStringLiteral(CUWB_CLI_PATH)); // its compile-server compiles
    WorkerProcess::Options target;
    target.executable = remote.toStdString();
    target.remoteName = "gpu-server";
    controller.sharedWorker()->setTarget(target);
    QSignalSpy ran(&controller, &RunController::runFinished);
    RunRequest request;
    request.source = hostiletest::pastedIdentifierSource();
    request.fileName = "hostile.cu";
    request.launch.kernel = "k";
    request.options.compiler = "nvrtc"; // the input crashes NVRTC (nvcc compiles it)
    QVERIFY(controller.run(request) != 0);
    // In this process the compile would have aborted it before any answer.
    QTRY_COMPARE_WITH_TIMEOUT(ran.size(), 1, 4 * ReplyTimeoutMs);
    // The image did not compile, so the request went as it was and the worker answered it.
    QCOMPARE(requestLog().count(QStringLiteral("run")), 1);
    QFile lines(m_log + QStringLiteral(".lines"));
    QVERIFY(lines.open(QIODevice::ReadOnly));
    const QByteArray sent = lines.readAll();
    QVERIFY(sent.contains("\"run\""));
    QVERIFY(!sent.contains("\"image\""));

    // The next compile starts a new server, and a source that compiles goes with its image.
    request.source = "extern \"C\" __global__ void k() {}\n";
    QVERIFY(controller.run(request) != 0);
    QTRY_COMPARE_WITH_TIMEOUT(ran.size(), 2, 4 * ReplyTimeoutMs);
    QVERIFY(lines.seek(0));
    const QList<QByteArray> requests = lines.readAll().split('\n');
    QVERIFY(requests.size() >= 2);
    QVERIFY(std::any_of(requests.begin(), requests.end(), [](const QByteArray &line) {
        return line.contains("\"run\"") && line.contains("\"image\"");
    }));
}

CUWB_TEST_MAIN(TestRunController)
} // namespace tst_runcontroller
} // namespace

#include "tst_runcontroller.moc"
