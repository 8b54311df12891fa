// The supervision of worker processes, against a fake worker (fakeworker.cpp) that crashes,
// hangs, writes garbage or answers the wrong request on purpose: each failure comes back as
// data with a plain message, the worker is killed and reaped, and the next request starts a
// fresh worker that answers.
#include "worker/protocol.h"
#include "worker/workerprocess.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <chrono>
#include <limits>
#include <sys/wait.h>
#include <thread>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_workerprocess {

namespace {

RunRequest sampleRequest()
{
    RunRequest request;
    request.source = "__global__ void k() {}\n";
    request.launch.kernel = "k";
    return request;
}

// True when `pid` is no child of ours any more: it was waited for, so no zombie is left.
bool reaped(pid_t pid)
{
    return pid > 0 && waitpid(pid, nullptr, WNOHANG) == -1 && errno == ECHILD;
}

} // namespace

class TestWorkerProcess : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void answersProperly();
    void crashIsReportedAndNextRunWorks();
    void hangIsStoppedAtTheDeadline();
    void garbageIsRejected();
    void replyWithWrongIdIsRejected();
    void errorReplyKeepsTheWorker();
    void stderrFloodNeverBlocks();
    void exitAfterReplyStartsNewWorker();
    void exitingImmediatelyFailsToStart();
    void wrongProtocolVersionFailsToStart();
    void silentHelloFailsToStart();
    void missingExecutableFailsToStart();
    void closedStdinDoesNotKillTheClient();
    void destructorLeavesNoZombie();
    void cancelFromAnotherThreadEndsTheWait();
    void requestCancelKeepsTheWorkerAndGetsTheReply();
    void requestCancelWhileTheWorkerStartsIsKept();
    void hugeTimeoutDoesNotOverflow();

private:
    WorkerProcess::Options options(const QString &mode, double startTimeout = 30.0) const;
    QTemporaryDir m_dir;
};

WorkerProcess::Options TestWorkerProcess::options(const QString &mode, double startTimeout) const
{
    WorkerProcess::Options options;
    options.executable = CUWB_FAKE_WORKER_PATH;
    options.arguments = {mode.toStdString(),
                         m_dir.filePath(QStringLiteral("marker-") + mode).toStdString()};
    options.startTimeoutSeconds = startTimeout;
    return options;
}

void TestWorkerProcess::init()
{
    QVERIFY(m_dir.isValid());
}

void TestWorkerProcess::answersProperly()
{
    WorkerProcess worker(options(QStringLiteral("ok")));
    QVERIFY(!worker.running());
    QVERIFY(worker.hello().is_null());

    WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QVERIFY(worker.running());
    QCOMPARE(worker.starts(), 1);
    QCOMPARE(parseHelloReply(worker.hello()).worker, std::string("fake"));
    const RunResult result = parseRunResultReply(reply.message);
    QCOMPARE(result.status, RunStatus::Succeeded);
    QCOMPARE(result.message, std::string("ran k")); // the request arrived whole
    QVERIFY(std::isnan(result.buffers.at(0).stats.mean));

    reply = worker.request(makePageRequest(PageRequest{"run1/c", 2, 2}), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    const Page page = parsePageReply(reply.message);
    QCOMPARE(page.first, 2ULL);
    QCOMPARE(page.values.size(), std::size_t(2));
    reply = worker.request(makeExportRequest("run1/c", "/tmp/x.npy", ExportFormat::Npy), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QCOMPARE(parseExportedReply(reply.message).bytes, 16ULL);
    reply = worker.request(makeReleaseRequest(), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QCOMPARE(worker.starts(), 1); // one worker served them all

    const pid_t pid = worker.pid();
    worker.stop();
    QVERIFY(!worker.running());
    QVERIFY(reaped(pid));
}

void TestWorkerProcess::crashIsReportedAndNextRunWorks()
{
    WorkerProcess worker(options(QStringLiteral("crash-once")));
    WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::Crashed);
    QCOMPARE(reply.error, std::string("the worker crashed (signal 6, Aborted)"));
    QVERIFY(!worker.running());
    QCOMPARE(worker.starts(), 1);

    reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QCOMPARE(worker.starts(), 2);
    const pid_t pid = worker.pid();
    worker.kill();
    QVERIFY(reaped(pid));
}

void TestWorkerProcess::hangIsStoppedAtTheDeadline()
{
    WorkerProcess worker(options(QStringLiteral("hang-once")));
    QVERIFY(worker.request(makeReleaseRequest(), 30).ok()); // started and answering
    const pid_t pid = worker.pid();
    WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 0.5);
    QCOMPARE(reply.failure, WorkerProcess::Failure::Timeout);
    QCOMPARE(reply.error, std::string("the worker did not answer within 0.5 s and was stopped"));
    QVERIFY(!worker.running());
    QVERIFY(reaped(pid));

    reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QCOMPARE(worker.starts(), 2);
}

void TestWorkerProcess::garbageIsRejected()
{
    WorkerProcess worker(options(QStringLiteral("garbage-once")));
    QVERIFY(worker.request(makeReleaseRequest(), 30).ok());
    const pid_t pid = worker.pid();
    WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::Garbage);
    QCOMPARE(reply.error,
             std::string("the worker wrote something that is not a reply: this is not json"));
    QVERIFY(!worker.running());
    QVERIFY(reaped(pid));

    reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QCOMPARE(worker.starts(), 2);
}

void TestWorkerProcess::replyWithWrongIdIsRejected()
{
    WorkerProcess worker(options(QStringLiteral("wrongid-once")));
    QVERIFY(worker.request(makeReleaseRequest(), 30).ok());
    const pid_t pid = worker.pid();
    WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::Garbage);
    // Ids: 1 was hello, 2 the release, 3 this run; the fake answered 1003.
    QCOMPARE(reply.error,
             std::string("the worker wrote a reply to request 1003 while request 3 was waiting"));
    QVERIFY(reaped(pid));

    reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QCOMPARE(worker.starts(), 2);
}

void TestWorkerProcess::errorReplyKeepsTheWorker()
{
    WorkerProcess worker(options(QStringLiteral("error-once")));
    WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::ErrorReply);
    QCOMPARE(reply.error, std::string("no such kernel"));
    QCOMPARE(reply.message.at("type").get<std::string>(), std::string("error"));
    QVERIFY(worker.running()); // a refused request is no reason to kill it

    reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QCOMPARE(worker.starts(), 1);
}

void TestWorkerProcess::stderrFloodNeverBlocks()
{
    WorkerProcess worker(options(QStringLiteral("flood")));
    const WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 60);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QVERIFY(worker.stderrTail().size() <= WorkerProcess::kStderrTailBytes);
    QVERIFY(worker.stderrTail().ends_with("xxxx\nflood-end\n"));
}

void TestWorkerProcess::exitAfterReplyStartsNewWorker()
{
    WorkerProcess worker(options(QStringLiteral("exiting-once")));
    WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QVERIFY(replyIsExiting(reply.message));
    QVERIFY(!worker.running()); // it said it would exit, and was reaped

    reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QVERIFY(!replyIsExiting(reply.message));
    QCOMPARE(worker.starts(), 2);
}

void TestWorkerProcess::exitingImmediatelyFailsToStart()
{
    WorkerProcess worker(options(QStringLiteral("exit")));
    WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::StartFailed);
    QCOMPARE(reply.error,
             std::string("could not start the worker: the worker exited without answering"));
    QVERIFY(!worker.running());
    QCOMPARE(worker.starts(), 1);
    // Every request tries again.
    reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::StartFailed);
    QCOMPARE(worker.starts(), 2);
}

void TestWorkerProcess::wrongProtocolVersionFailsToStart()
{
    WorkerProcess worker(options(QStringLiteral("protocol")));
    const WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::StartFailed);
    QCOMPARE(reply.error, "the worker (cuwb fake) speaks protocol version 99 but this program "
                          "(cuwb " +
                              workbenchVersion() +
                              ") speaks version 1; use the cuwb that came with this program");
    QVERIFY(!worker.running());
    QVERIFY(worker.hello().is_null());
}

void TestWorkerProcess::silentHelloFailsToStart()
{
    WorkerProcess worker(options(QStringLiteral("hang-hello"), 0.5));
    const WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::StartFailed);
    QCOMPARE(reply.error, std::string("could not start the worker: the worker did not answer "
                                      "within 0.5 s and was stopped"));
    QVERIFY(!worker.running());
}

void TestWorkerProcess::missingExecutableFailsToStart()
{
    WorkerProcess::Options missing;
    missing.executable = m_dir.filePath(QStringLiteral("no-such-cuwb")).toStdString();
    WorkerProcess worker(missing);
    const WorkerProcess::Reply reply = worker.request(makeHelloRequest(), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::StartFailed);
    QCOMPARE(reply.error,
             "could not start the worker " + missing.executable + ": No such file or directory");
    QVERIFY(!worker.running());
}

void TestWorkerProcess::closedStdinDoesNotKillTheClient()
{
    WorkerProcess worker(options(QStringLiteral("close-stdin")));
    RunRequest big = sampleRequest();
    big.source.append(std::size_t(4) << 20, ' '); // far more than a pipe holds
    const WorkerProcess::Reply reply = worker.request(makeRunRequest(big), 30);
    // Had SIGPIPE not been blocked, this process would have died before getting here.
    QCOMPARE(reply.failure, WorkerProcess::Failure::Crashed);
    QCOMPARE(reply.error, std::string("the worker exited without answering"));
    QVERIFY(!worker.running());
}

void TestWorkerProcess::destructorLeavesNoZombie()
{
    pid_t pid = -1;
    {
        WorkerProcess worker(options(QStringLiteral("hang")));
        QVERIFY(worker.request(makeReleaseRequest(), 30).ok());
        pid = worker.pid();
        QVERIFY(pid > 0);
    }
    QVERIFY(reaped(pid));
}

void TestWorkerProcess::cancelFromAnotherThreadEndsTheWait()
{
    // A client that quits mid-run must not wait for the run's deadline (here 600 s).
    WorkerProcess worker(options(QStringLiteral("hang")));
    QVERIFY(worker.request(makeReleaseRequest(), 30).ok());
    const pid_t pid = worker.pid();
    std::thread canceller([&worker] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        worker.cancel();
    });
    WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), 600);
    canceller.join();
    QCOMPARE(reply.failure, WorkerProcess::Failure::Cancelled);
    QVERIFY(!worker.running());
    QVERIFY(reaped(pid));

    // Cancelling is for good: nothing starts a new worker any more.
    reply = worker.request(makeReleaseRequest(), 30);
    QCOMPARE(reply.failure, WorkerProcess::Failure::Cancelled);
    QCOMPARE(worker.starts(), 1);
    QVERIFY(!worker.running());
}

void TestWorkerProcess::requestCancelKeepsTheWorkerAndGetsTheReply()
{
    // The soft cancel: the worker is told, stops, and answers with what it has.
    WorkerProcess worker(options(QStringLiteral("measure-until-cancel")));
    QVERIFY(worker.request(makeReleaseRequest(), 30).ok());
    const pid_t pid = worker.pid();
    std::thread canceller([&worker] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        worker.requestCancel();
    });
    const WorkerProcess::Reply reply =
        worker.request(makeMeasureRequest(sampleRequest(), SampleSettings{}), 600);
    canceller.join();
    QVERIFY2(reply.ok(), reply.error.c_str());
    const Measurement m = parseMeasurementReply(reply.message);
    QCOMPARE(m.stop.reason, StopReason::Cancelled);
    QCOMPARE(m.samplesNs.size(), std::size_t(3));
    QVERIFY(!worker.cancelled());
    QVERIFY(worker.running());
    QCOMPARE(worker.pid(), pid);

    // A cancel with nothing in flight goes to the next request and ends with it: a release has
    // nothing to cancel, and the measurement after it runs to its end.
    worker.requestCancel();
    QVERIFY(worker.request(makeReleaseRequest(), 30).ok());
    QCOMPARE(worker.starts(), 1);
}

void TestWorkerProcess::requestCancelWhileTheWorkerStartsIsKept()
{
    // The GUI may cancel while its request is still starting the worker (the hello): the
    // measurement must still be cancelled, not run until its stopping rule.
    WorkerProcess worker(options(QStringLiteral("measure-until-cancel")));
    QVERIFY(!worker.running());
    worker.requestCancel();
    const WorkerProcess::Reply reply =
        worker.request(makeMeasureRequest(sampleRequest(), SampleSettings{}), 60);
    QVERIFY2(reply.ok(), reply.error.c_str());
    QCOMPARE(parseMeasurementReply(reply.message).stop.reason, StopReason::Cancelled);
    QCOMPARE(worker.starts(), 1);
    QVERIFY(worker.running());
}

void TestWorkerProcess::hugeTimeoutDoesNotOverflow()
{
    // 1e300 s in the clock's nanoseconds overflows; it must mean "very long", not "already past".
    WorkerProcess worker(options(QStringLiteral("ok"), 1e300));
    for (const double timeout : {1e300, std::numeric_limits<double>::infinity(), 1e10}) {
        const WorkerProcess::Reply reply = worker.request(makeRunRequest(sampleRequest()), timeout);
        QVERIFY2(reply.ok(), reply.error.c_str());
    }
    QCOMPARE(worker.starts(), 1);
}

CUWB_TEST_GUILESS_MAIN(TestWorkerProcess)
} // namespace tst_workerprocess
} // namespace

#include "tst_workerprocess.moc"
