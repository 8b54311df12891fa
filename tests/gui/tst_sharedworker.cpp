// SharedWorker, and a RunController and a SweepController sharing one (as the main window has
// them), against the stand-in worker with a GPU (tests/support/fakesweepworker.cpp, started
// through a script that logs each start): a run then a sweep, or a sweep then a run, start one
// worker between them; a run waits while a sweep holds the worker; a sweep with another worker
// command replaces it; the buffers a run kept are said to be gone after a sweep; abort() ends a
// sweep at once, even from the thread that holds a lease, and so does quitting.
#include "gui/common/sharedworker.h"
#include "gui/run/runcontroller.h"
#include "gui/sweep/sweepcontroller.h"

#include "../support/sweeptesthelpers.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_sharedworker {

namespace {

constexpr int kTimeoutMs = 60000;

SweepSpec powersSweep()
{
    SweepSpec spec = blockPowersSweep();
    spec.settings.fixedSamples = 5;
    return spec;
}

WorkerProcess::Options optionsFor(const std::string &executable)
{
    WorkerProcess::Options options;
    options.executable = executable;
    return options;
}

} // namespace

class TestSharedWorker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void anotherCommandMakesANewProcess();
    void aTargetReplacesEveryJobsCommand();
    void abortNeverWaitsForTheLease();
    void aRunThenASweepStartOneWorker();
    void aSweepThenARunStartOneWorker();
    void aRunWaitsWhileASweepHoldsTheWorker();
    void aSweepWithAnotherCommandRestartsTheWorker();
    void aRestartInASweepCountsTheSweepsStarts();
    void abortDuringASweepEndsItAtOnce();
    void quittingWhileARunWaitsForASweepReturns();

private:
    // A cuwb stand-in: the fake sweep worker in `mode`, logging each request to m_log. `name`
    // tells two scripts apart that run the same mode (two worker commands).
    QString fakeCli(const QString &mode, const QString &name = {}) const;
    // How many workers started.
    int starts() const;
    // The two controllers on one shared worker, both with `cli`.
    void makeControllers(const QString &cli);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_log;
    std::shared_ptr<SharedWorker> m_worker;
    std::unique_ptr<SweepController> m_sweeps;
    std::unique_ptr<RunController> m_runs;
};

void TestSharedWorker::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_log = m_dir->filePath(QStringLiteral("requests.log"));
}

void TestSharedWorker::cleanup()
{
    m_runs.reset();
    m_sweeps.reset();
    m_worker.reset();
}

QString TestSharedWorker::fakeCli(const QString &mode, const QString &name) const
{
    const QString path = m_dir->filePath(QStringLiteral("cuwb-") + (name.isEmpty() ? mode : name));
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    // Logs each start, then the requests. `worker`, the argument every worker command gets, is
    // left out: the fake reads a mode.
    const QByteArray log = "'" + m_log.toUtf8() + "'";
    script.write("#!/bin/sh\necho start >> " + log + "\nCUWB_FAKE_WORKER_LOG=" + log +
                 " exec '" CUWB_FAKE_SWEEP_WORKER_PATH "' " + mode.toUtf8() + "\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

int TestSharedWorker::starts() const
{
    QFile file(m_log);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return int(QString::fromUtf8(file.readAll())
                   .split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                   .count(QStringLiteral("start")));
}

void TestSharedWorker::makeControllers(const QString &cli)
{
    m_worker = std::make_shared<SharedWorker>();
    m_sweeps = std::make_unique<SweepController>(m_worker);
    m_runs = std::make_unique<RunController>(m_worker);
    m_sweeps->setCliPath(cli);
    m_runs->setCliPath(cli);
}

void TestSharedWorker::aTargetReplacesEveryJobsCommand()
{
    // The GUI's "Run on" choice: a remote target's worker serves runs and sweeps alike, and
    // going back to this machine restarts the job's own.
    SharedWorker worker;
    WorkerProcess::Options remote = optionsFor("/usr/bin/ssh");
    remote.remoteName = "gpu1";
    worker.setTarget(remote);
    std::uint64_t first = 0;
    {
        const SharedWorker::Lease lease = worker.acquire(optionsFor("/bin/cuwb-a"));
        QCOMPARE(lease.process().options().executable, std::string("/usr/bin/ssh"));
        QVERIFY(lease.process().remote());
        first = lease.generation();
    }
    {
        const SharedWorker::Lease lease = worker.acquire(optionsFor("/bin/cuwb-b"));
        QCOMPARE(lease.generation(), first); // the same remote worker for another job
    }
    worker.setTarget(std::nullopt);
    const SharedWorker::Lease lease = worker.acquire(optionsFor("/bin/cuwb-a"));
    QVERIFY(lease.generation() > first);
    QCOMPARE(lease.process().options().executable, std::string("/bin/cuwb-a"));
    QVERIFY(!lease.process().remote());
}

void TestSharedWorker::anotherCommandMakesANewProcess()
{
    SharedWorker worker;
    std::uint64_t first = 0;
    std::uint64_t serial = 0;
    {
        const SharedWorker::Lease lease = worker.acquire(optionsFor("/bin/cuwb-a"));
        first = lease.generation();
        serial = lease.serial();
        QVERIFY(!lease.process().running()); // started by its first request, not before
    }
    {
        const SharedWorker::Lease lease = worker.acquire(optionsFor("/bin/cuwb-a"));
        QCOMPARE(lease.generation(), first);
        QCOMPARE(lease.serial(), serial + 1);
    }
    {
        const SharedWorker::Lease lease = worker.acquire(optionsFor("/bin/cuwb-b"));
        QVERIFY(lease.generation() > first);
    }
    // Stopped while nobody holds it; the next lease gets a new process.
    QVERIFY(worker.shutdown());
    const SharedWorker::Lease lease = worker.acquire(optionsFor("/bin/cuwb-b"));
    QVERIFY(lease.generation() > first + 1);
    QVERIFY(!worker.shutdown()); // held: left alone
}

void TestSharedWorker::abortNeverWaitsForTheLease()
{
    SharedWorker worker;
    std::unique_ptr<SharedWorker::Lease> lease =
        std::make_unique<SharedWorker::Lease>(worker.acquire(optionsFor("/bin/cuwb-a")));
    // From the very thread that holds the lease: were the lease lock taken, this would hang.
    worker.abort();
    QVERIFY(worker.aborted());
    QVERIFY(lease->process().cancelled());
    lease.reset();
    // Every later lease's process, a new one included, fails its requests at once.
    const SharedWorker::Lease later = worker.acquire(optionsFor("/bin/cuwb-b"));
    QVERIFY(later.process().cancelled());
    const WorkerProcess::Reply reply = later.process().request(nlohmann::json::object(), 3600);
    QCOMPARE(reply.failure, WorkerProcess::Failure::Cancelled);
}

void TestSharedWorker::aRunThenASweepStartOneWorker()
{
    makeControllers(fakeCli(QStringLiteral("ok")));
    QSignalSpy ran(m_runs.get(), &RunController::runFinished);
    QSignalSpy hello(m_runs.get(), &RunController::helloReceived);
    QSignalSpy swept(m_sweeps.get(), &SweepController::sweepFinished);
    QVERIFY(m_runs->run(addOneRequest()) != 0);
    QVERIFY(ran.wait(kTimeoutMs));
    QCOMPARE(ran.first().at(1).value<RunResult>().status, RunStatus::Succeeded);
    QCOMPARE(hello.size(), 1);

    QVERIFY(m_sweeps->start(powersSweep(), addOneRequest()));
    QVERIFY(swept.wait(kTimeoutMs));
    const auto result = swept.first().first().value<SweepResult>();
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(6));
    QCOMPARE(starts(), 1);

    // The sweep released what the run kept: a page of it is refused, and the refusal says why.
    QSignalSpy failed(m_runs.get(), &RunController::pageFailed);
    PageRequest page;
    page.handle = "run1/c";
    page.count = 4;
    m_runs->requestPage(page);
    QVERIFY(failed.wait(kTimeoutMs));
    const QString message = failed.first().at(2).toString();
    QVERIFY2(message.contains(QStringLiteral("when a sweep ran")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("run again")), qPrintable(message));

    // Still the one worker, and no new hello to report.
    QVERIFY(m_runs->run(addOneRequest()) != 0);
    QVERIFY(ran.wait(kTimeoutMs));
    QCOMPARE(starts(), 1);
    QCOMPARE(hello.size(), 1);
}

void TestSharedWorker::aSweepThenARunStartOneWorker()
{
    makeControllers(fakeCli(QStringLiteral("ok")));
    QSignalSpy swept(m_sweeps.get(), &SweepController::sweepFinished);
    QSignalSpy ran(m_runs.get(), &RunController::runFinished);
    QSignalSpy hello(m_runs.get(), &RunController::helloReceived);
    QVERIFY(m_sweeps->start(powersSweep(), addOneRequest()));
    QVERIFY(swept.wait(kTimeoutMs));
    QCOMPARE(swept.first().first().value<SweepResult>().count(PointStatus::Measured),
             std::size_t(6));
    QCOMPARE(starts(), 1);

    QVERIFY(m_runs->run(addOneRequest()) != 0);
    QVERIFY(ran.wait(kTimeoutMs));
    QCOMPARE(ran.first().at(1).value<RunResult>().status, RunStatus::Succeeded);
    QCOMPARE(starts(), 1);
    // The worker the sweep started is new to the run controller: its hello is reported.
    QCOMPARE(hello.size(), 1);
    const auto reported = hello.first().first().value<HelloReply>();
    QVERIFY(reported.device);
    QCOMPARE(reported.device->name, std::string("Fake H200"));
}

void TestSharedWorker::aRunWaitsWhileASweepHoldsTheWorker()
{
    // The sweep's first measurement answers only once it is cancelled.
    makeControllers(fakeCli(QStringLiteral("cancel-at-1")));
    QSignalSpy started(m_sweeps.get(), &SweepController::sweepStarted);
    QSignalSpy swept(m_sweeps.get(), &SweepController::sweepFinished);
    QSignalSpy ran(m_runs.get(), &RunController::runFinished);
    QVERIFY(m_sweeps->start(powersSweep(), addOneRequest()));
    QVERIFY(started.wait(kTimeoutMs));
    QVERIFY(m_runs->run(addOneRequest()) != 0);
    QTest::qWait(300);
    QCOMPARE(ran.size(), 0); // still waiting for the worker

    m_sweeps->cancel();
    QVERIFY(swept.wait(kTimeoutMs));
    QVERIFY(swept.first().first().value<SweepResult>().cancelled);
    QTRY_COMPARE_WITH_TIMEOUT(ran.size(), 1, kTimeoutMs);
    QCOMPARE(ran.first().at(1).value<RunResult>().status, RunStatus::Succeeded);
    QCOMPARE(starts(), 1);
}

void TestSharedWorker::aSweepWithAnotherCommandRestartsTheWorker()
{
    makeControllers(fakeCli(QStringLiteral("ok")));
    QSignalSpy ran(m_runs.get(), &RunController::runFinished);
    QSignalSpy hello(m_runs.get(), &RunController::helloReceived);
    QSignalSpy swept(m_sweeps.get(), &SweepController::sweepFinished);
    QVERIFY(m_runs->run(addOneRequest()) != 0);
    QVERIFY(ran.wait(kTimeoutMs));
    QCOMPARE(starts(), 1);

    // A custom worker command (`ssh host cuwb worker` in real life) replaces the worker.
    m_sweeps->setWorkerCommand(fakeCli(QStringLiteral("ok"), QStringLiteral("remote")), {});
    QVERIFY(m_sweeps->start(powersSweep(), addOneRequest()));
    QVERIFY(swept.wait(kTimeoutMs));
    QCOMPARE(swept.first().first().value<SweepResult>().count(PointStatus::Measured),
             std::size_t(6));
    QCOMPARE(starts(), 2);

    // And the next run returns to the CLI's worker, whose hello it reports.
    QVERIFY(m_runs->run(addOneRequest()) != 0);
    QVERIFY(ran.wait(kTimeoutMs));
    QCOMPARE(ran.last().at(1).value<RunResult>().status, RunStatus::Succeeded);
    QCOMPARE(starts(), 3);
    QCOMPARE(hello.size(), 2);
}

void TestSharedWorker::aRestartInASweepCountsTheSweepsStarts()
{
    // The second measurement crashes the worker once; the next worker behaves.
    const QString marker = m_dir->filePath(QStringLiteral("crashed"));
    makeControllers(fakeCli(QStringLiteral("crash-at-2 '") + marker + QLatin1Char('\''),
                            QStringLiteral("crash")));
    QSignalSpy ran(m_runs.get(), &RunController::runFinished);
    QSignalSpy restarted(m_sweeps.get(), &SweepController::workerRestarted);
    QSignalSpy swept(m_sweeps.get(), &SweepController::sweepFinished);
    QVERIFY(m_runs->run(addOneRequest()) != 0);
    QVERIFY(ran.wait(kTimeoutMs));
    QCOMPARE(starts(), 1);

    // The sweep found the worker the run started and started one more itself.
    QVERIFY(m_sweeps->start(powersSweep(), addOneRequest()));
    QVERIFY(swept.wait(kTimeoutMs));
    const auto result = swept.first().first().value<SweepResult>();
    QCOMPARE(result.points[1].status, PointStatus::Failed);
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(5));
    QCOMPARE(starts(), 2);
    QCOMPARE(restarted.size(), 1);
    QCOMPARE(restarted.first().first().toInt(), 1);
}

void TestSharedWorker::abortDuringASweepEndsItAtOnce()
{
    makeControllers(fakeCli(QStringLiteral("cancel-at-1")));
    QSignalSpy started(m_sweeps.get(), &SweepController::sweepStarted);
    QSignalSpy swept(m_sweeps.get(), &SweepController::sweepFinished);
    QSignalSpy ran(m_runs.get(), &RunController::runFinished);
    QVERIFY(m_sweeps->start(powersSweep(), addOneRequest()));
    QVERIFY(started.wait(kTimeoutMs));
    QVERIFY(m_runs->run(addOneRequest()) != 0); // waits behind the sweep
    QTest::qWait(100);

    // Returns while the sweep holds the worker (the test would hang otherwise); the point in
    // flight fails at once instead of waiting for its deadline, and the sweep ends.
    m_worker->abort();
    QVERIFY(swept.wait(kTimeoutMs));
    const auto result = swept.first().first().value<SweepResult>();
    QVERIFY(result.cancelled || !result.error.empty());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(0));
    // The run that waited fails at once too, on a worker that is gone for good.
    QTRY_COMPARE_WITH_TIMEOUT(ran.size(), 1, kTimeoutMs);
    QVERIFY(ran.first().at(1).value<RunResult>().status != RunStatus::Succeeded);

    // Destroying the controllers now returns at once.
    m_runs.reset();
    m_sweeps.reset();
    QVERIFY(!m_runs && !m_sweeps);
}

void TestSharedWorker::quittingWhileARunWaitsForASweepReturns()
{
    makeControllers(fakeCli(QStringLiteral("cancel-at-1")));
    QSignalSpy started(m_sweeps.get(), &SweepController::sweepStarted);
    QSignalSpy swept(m_sweeps.get(), &SweepController::sweepFinished);
    QVERIFY(m_sweeps->start(powersSweep(), addOneRequest()));
    QVERIFY(started.wait(kTimeoutMs));
    QVERIFY(m_runs->run(addOneRequest()) != 0); // its thread waits for the worker
    QTest::qWait(100);

    // The run controller goes first, as the window's children do: its thread is joined
    // without waiting for the hanging point, whose worker is killed.
    m_runs.reset();
    QVERIFY(swept.wait(kTimeoutMs));
    QCOMPARE(swept.first().first().value<SweepResult>().count(PointStatus::Measured),
             std::size_t(0));
}

CUWB_TEST_MAIN(TestSharedWorker)
} // namespace tst_sharedworker
} // namespace

#include "tst_sharedworker.moc"
