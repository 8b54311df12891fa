// RunController's life cycle against a stand-in for `cuwb worker` (tests/core/fakeworker.cpp):
// quitting while a run is in flight must neither hang until the run's deadline nor crash.
#include "runcontroller.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace cuwb;

class TestRunController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void destroyingWhileARunHangsReturnsPromptly();

private:
    // A cuwb stand-in that answers hello, then never answers its first run.
    QString hangingWorker(const QTemporaryDir &dir, const QString &marker) const;
};

QString TestRunController::hangingWorker(const QTemporaryDir &dir, const QString &marker) const
{
    const QString path = dir.filePath(QStringLiteral("cuwb"));
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    script.write("#!/bin/sh\nexec '" CUWB_FAKE_WORKER_PATH "' hang-once '" + marker.toUtf8() +
                 "'\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

void TestRunController::destroyingWhileARunHangsReturnsPromptly()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString marker = dir.filePath(QStringLiteral("run-arrived"));
    const QString cli = hangingWorker(dir, marker);
    QVERIFY(!cli.isEmpty());

    auto controller = std::make_unique<RunController>();
    controller->setCliPath(cli);
    QSignalSpy finished(controller.get(), &RunController::runFinished);
    RunRequest request;
    request.source = "__global__ void k() {}\n";
    request.launch.kernel = "k";
    request.launch.deadlineSeconds = 3600; // the client would wait an hour and a minute
    QVERIFY(controller->run(request) != 0);
    QVERIFY(controller->isRunning());
    // The fake writes the marker when the run arrives, then hangs.
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);

    // Without cancelling the request in flight this waits for the hour (the test times out).
    controller.reset();
    QCOMPARE(finished.count(), 0); // nothing is reported from a controller being destroyed
}

QTEST_MAIN(TestRunController)
#include "tst_runcontroller.moc"
