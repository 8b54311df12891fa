// SweepController against the stand-in worker with a GPU (tests/core/fakesweepworker.cpp):
// the points stream to the GUI thread in order and the sweep finishes; a cancel keeps the
// points measured before it; a worker that crashes at a point fails that point only and the
// sweep goes on with a fresh worker; without a GPU nothing starts; quitting while a point
// hangs does not wait for it. The host compiles are real (NVRTC needs no GPU), in `cuwb
// compile-server`: a source that crashes NVRTC skips the sweep's points, not the test process.
// On two GPUs (the stand-in playing them with $CUWB_FAKE_DEVICES): every point comes once with
// its GPU, different models give a best per GPU and none overall, a cancel keeps what was
// measured, and a GPU whose worker cannot start leaves its points to the other.
#include "gui/sweep/sweepcontroller.h"

#include "../support/hostilesource.h"
#include "../support/sweeptesthelpers.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>
#include <set>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_sweepcontroller {

namespace {

// The block-size sweep of sweeptesthelpers.h, five samples a point.
SweepSpec powersSweep()
{
    SweepSpec spec = blockPowersSweep();
    spec.settings.fixedSamples = 5;
    return spec;
}

std::unique_ptr<SweepController> fakeController(const QStringList &arguments = {})
{
    auto controller = std::make_unique<SweepController>();
    controller->setWorkerCommand(QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH), arguments);
    return controller;
}

constexpr int kSweepTimeoutMs = 60000;

// Each point's index once, and the GPUs that measured them, from the pointFinished signals.
struct PointsSeen
{
    std::map<std::size_t, int> timesByIndex;
    std::set<int> devices;
};

PointsSeen pointsSeen(const QSignalSpy &points)
{
    PointsSeen seen;
    for (const QList<QVariant> &signal : points) {
        const auto point = signal.at(0).value<SweepPointResult>();
        ++seen.timesByIndex[point.point.index];
        if (point.deviceIndex)
            seen.devices.insert(*point.deviceIndex);
    }
    return seen;
}

} // namespace

class TestSweepController : public QObject
{
    Q_OBJECT

private:
    static Placement twoGpus()
    {
        Placement placement;
        placement.devices = {0, 1};
        return placement;
    }

private Q_SLOTS:
    void cleanup()
    {
        qunsetenv("CUWB_FAKE_DEVICES");
        qunsetenv("CUWB_FAKE_DEVICE_MODES");
    }

    void twoGpusReportEveryPointOnceWithItsGpu()
    {
        qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake H200:9.0");
        auto controller = fakeController();
        controller->setPlacement(twoGpus());
        QSignalSpy started(controller.get(), &SweepController::sweepStarted);
        QSignalSpy points(controller.get(), &SweepController::pointFinished);
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QVERIFY(finished.wait(kSweepTimeoutMs));
        QCOMPARE(started.size(), 1);
        QCOMPARE(points.size(), 7);
        const PointsSeen seen = pointsSeen(points);
        QCOMPARE(seen.timesByIndex.size(), std::size_t(7));
        for (const auto &[index, times] : seen.timesByIndex)
            QCOMPARE(times, 1);
        const auto result = finished.first().first().value<SweepResult>();
        QVERIFY2(result.error.empty(), result.error.c_str());
        QCOMPARE(result.devices.size(), std::size_t(2));
        QVERIFY(!result.mixedModels());
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(6));
        for (const SweepPointResult &point : result.points) {
            if (point.status != PointStatus::Measured)
                continue;
            QVERIFY(point.deviceIndex);
            QVERIFY(*point.deviceIndex == 0 || *point.deviceIndex == 1);
        }
        // One model: one best point, with its GPU.
        QVERIFY(result.bestPoint());
        QVERIFY(result.points[*result.bestPoint()].deviceIndex);
        QCOMPARE(controller->result().devices.size(), std::size_t(2));
    }

    void mixedModelsGiveABestPerGpu()
    {
        qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake A100:8.0");
        auto controller = fakeController();
        controller->setPlacement(twoGpus());
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QVERIFY(finished.wait(kSweepTimeoutMs));
        const auto result = finished.first().first().value<SweepResult>();
        QVERIFY2(result.error.empty(), result.error.c_str());
        QVERIFY(result.mixedModels());
        QVERIFY(!result.bestPoint());
        const auto bests = result.bestPointPerDevice();
        QVERIFY(!bests.empty());
        for (const auto &[device, index] : bests)
            QCOMPARE(result.points[index].deviceIndex, std::optional<int>(device));
    }

    void cancelOnTwoGpusKeepsTheMeasuredPoints()
    {
        // Each GPU's worker waits for the cancel at its second measurement.
        qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake H200:9.0");
        auto controller = fakeController({QStringLiteral("cancel-at-2")});
        controller->setPlacement(twoGpus());
        QSignalSpy points(controller.get(), &SweepController::pointFinished);
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        // The skipped point, then one measured on each GPU.
        QTRY_COMPARE_WITH_TIMEOUT(points.size(), 3, kSweepTimeoutMs);
        controller->cancel();
        QVERIFY(controller->isCancelling());
        QVERIFY(finished.wait(kSweepTimeoutMs));
        const auto result = finished.first().first().value<SweepResult>();
        QVERIFY(result.cancelled);
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(2));
        QVERIFY(result.count(PointStatus::Pending) >= 2);
        QVERIFY(!controller->isRunning());
    }

    void quittingStopsATwoGpuSweep()
    {
        // Both GPUs' first measurements wait for a cancel; destroying the controller sends it.
        qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake H200:9.0");
        auto controller = fakeController({QStringLiteral("cancel-at-1")});
        controller->setPlacement(twoGpus());
        QSignalSpy started(controller.get(), &SweepController::sweepStarted);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QVERIFY(started.wait(kSweepTimeoutMs));
        controller.reset(); // returns: the test would time out otherwise
        QVERIFY(!controller);
    }

    void aGpuThatCannotStartLeavesItsPointsToTheOther()
    {
        qputenv("CUWB_FAKE_DEVICES", "Fake H200:9.0,Fake H200:9.0");
        qputenv("CUWB_FAKE_DEVICE_MODES", "1=no-start");
        auto controller = fakeController();
        controller->setPlacement(twoGpus());
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QVERIFY(finished.wait(kSweepTimeoutMs));
        const auto result = finished.first().first().value<SweepResult>();
        QVERIFY2(result.error.empty(), result.error.c_str());
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(6));
        for (const SweepPointResult &point : result.points) {
            if (point.status == PointStatus::Measured)
                QCOMPARE(point.deviceIndex, std::optional<int>(0));
        }
        bool named = false;
        for (const std::string &note : result.notes)
            named = named || note.find("GPU 1") != std::string::npos;
        QVERIFY(named);
    }

    void streamsPointsInOrderAndFinishes()
    {
        auto controller = fakeController();
        QSignalSpy started(controller.get(), &SweepController::sweepStarted);
        QSignalSpy points(controller.get(), &SweepController::pointFinished);
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QSignalSpy running(controller.get(), &SweepController::runningChanged);
        SweepContext context;
        context.projectName = "add_one";
        QVERIFY(controller->start(powersSweep(), addOneRequest(), context));
        QVERIFY(controller->isRunning());
        // One sweep at a time.
        QVERIFY(!controller->start(powersSweep(), addOneRequest(), context));
        QVERIFY(finished.wait(kSweepTimeoutMs));
        QVERIFY(!controller->isRunning());
        QCOMPARE(running.size(), 2);

        QCOMPARE(started.size(), 1);
        const auto skeleton = started.first().first().value<SweepResult>();
        QCOMPARE(skeleton.points.size(), std::size_t(7));
        QCOMPARE(skeleton.deviceName, std::string("Fake H200"));
        QCOMPARE(points.size(), 7);
        for (int k = 0; k < points.size(); ++k) {
            const auto point = points.at(k).at(0).value<SweepPointResult>();
            const auto progress = points.at(k).at(1).value<SweepProgress>();
            QCOMPARE(point.point.index, std::size_t(k));
            QCOMPARE(progress.done, std::size_t(k + 1));
            QCOMPARE(progress.total, std::size_t(7));
        }
        const auto result = finished.first().first().value<SweepResult>();
        QVERIFY2(result.error.empty(), result.error.c_str());
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(6));
        QCOMPARE(result.count(PointStatus::Skipped), std::size_t(1));
        QCOMPARE(result.projectName, std::string("add_one"));
        QVERIFY(result.bestPoint());
        QCOMPARE(result.points[*result.bestPoint()].point.label(), std::string("block.x=256"));
        QCOMPARE(controller->result().points.size(), std::size_t(7));
        QVERIFY(controller->progress());
        QCOMPARE(controller->progress()->done, std::size_t(7));

        // The worker is kept for the next sweep.
        QVERIFY(controller->start(powersSweep(), addOneRequest(), context));
        QVERIFY(finished.wait(kSweepTimeoutMs));
        QCOMPARE(finished.last().first().value<SweepResult>().count(PointStatus::Measured),
                 std::size_t(6));
    }

    void cancelKeepsTheMeasuredPoints()
    {
        // The third measurement waits for the cancel.
        auto controller = fakeController({QStringLiteral("cancel-at-3")});
        QSignalSpy points(controller.get(), &SweepController::pointFinished);
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QTRY_COMPARE_WITH_TIMEOUT(points.size(), 2, kSweepTimeoutMs);
        controller->cancel();
        QVERIFY(controller->isCancelling());
        QVERIFY(finished.wait(kSweepTimeoutMs));
        const auto result = finished.first().first().value<SweepResult>();
        QVERIFY(result.cancelled);
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(2));
        QCOMPARE(result.points[0].status, PointStatus::Measured);
        QCOMPARE(result.points[1].status, PointStatus::Measured);
        QCOMPARE(result.points[2].status, PointStatus::Pending);
        QVERIFY(!controller->isCancelling());

        // A cancel belongs to its sweep: the next one runs to the end.
        controller->setWorkerCommand(QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH), {});
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QVERIFY(finished.wait(kSweepTimeoutMs));
        const auto second = finished.last().first().value<SweepResult>();
        QVERIFY(!second.cancelled);
        QCOMPARE(second.count(PointStatus::Measured), std::size_t(6));
    }

    void cancelFromAnotherThreadIsSafe()
    {
        auto controller = fakeController({QStringLiteral("cancel-at-1")});
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        SweepController *raw = controller.get();
        std::unique_ptr<QThread> thread(QThread::create([raw] {
            QThread::msleep(200);
            raw->cancel();
        }));
        thread->start();
        QVERIFY(finished.wait(kSweepTimeoutMs));
        thread->wait();
        QVERIFY(finished.first().first().value<SweepResult>().cancelled);
    }

    void workerCrashFailsOnePointAndTheSweepGoesOn()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString marker = dir.filePath(QStringLiteral("crashed"));
        auto controller = fakeController({QStringLiteral("crash-at-2"), marker});
        QSignalSpy restarted(controller.get(), &SweepController::workerRestarted);
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QVERIFY(finished.wait(kSweepTimeoutMs));
        const auto result = finished.first().first().value<SweepResult>();
        QCOMPARE(result.points[1].status, PointStatus::Failed);
        QVERIFY(!result.points[1].message.empty());
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(5));
        QCOMPARE(restarted.size(), 1);
        QCOMPARE(restarted.first().first().toInt(), 2);
    }

    void withoutAGpuNothingStarts()
    {
        auto controller = fakeController();
        controller->setAvailability(false, QStringLiteral("Run needs a CUDA GPU: none here"));
        QSignalSpy started(controller.get(), &SweepController::sweepStarted);
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(started.size(), 0);
        QVERIFY(!controller->isRunning());
        QCOMPARE(finished.first().first().value<SweepResult>().error,
                 std::string("Run needs a CUDA GPU: none here"));
    }

    void workerWithoutADeviceIsAnError()
    {
        auto controller = fakeController({QStringLiteral("no-device")});
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QVERIFY(finished.wait(kSweepTimeoutMs));
        const auto result = finished.first().first().value<SweepResult>();
        QVERIFY(!result.error.empty());
        QCOMPARE(result.count(PointStatus::Measured), std::size_t(0));
    }

    void aSourceThatCrashesTheCompilerSkipsThePoints()
    {
        // NVRTC aborts on this source: in this process that would end the test (the window).
        auto controller = fakeController();
        QSignalSpy finished(controller.get(), &SweepController::sweepFinished);
        const std::string hostile = hostiletest::pastedIdentifierSource();
        RunRequest request = addOneRequest(hostile.c_str());
        request.options.compiler = "nvrtc"; // the crash is NVRTC's; nvcc compiles this source
        QVERIFY(controller->start(powersSweep(), request));
        QVERIFY(finished.wait(kSweepTimeoutMs * 3));
        const auto result = finished.first().first().value<SweepResult>();
        QVERIFY2(result.error.empty(), result.error.c_str());
        QCOMPARE(result.points.size(), std::size_t(7));
        QCOMPARE(result.count(PointStatus::Skipped), std::size_t(7));
        std::size_t crashed = 0;
        for (const SweepPointResult &point : result.points) {
            if (point.point.skipKind != SkipKind::Compile)
                continue; // skipped by the expansion, before any compile
            QVERIFY(point.compileFailed);
            QVERIFY2(point.message.find("compiler crashed") != std::string::npos,
                     point.message.c_str());
            ++crashed;
        }
        QCOMPARE(crashed, std::size_t(6));

        // The next sweep gets a fresh compiler process and is measured.
        finished.clear();
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QVERIFY(finished.wait(kSweepTimeoutMs));
        const auto next = finished.first().first().value<SweepResult>();
        QCOMPARE(next.count(PointStatus::Measured), std::size_t(6));
    }

    void quittingDoesNotWaitForAHangingPoint()
    {
        // The first measurement never answers without a cancel; destroying the controller
        // kills the worker rather than wait for the request's deadline.
        auto controller = fakeController({QStringLiteral("cancel-at-1")});
        QSignalSpy started(controller.get(), &SweepController::sweepStarted);
        QVERIFY(controller->start(powersSweep(), addOneRequest()));
        QVERIFY(started.wait(kSweepTimeoutMs));
        QTest::qWait(100);
        controller.reset(); // returns: the test would time out otherwise
        QVERIFY(!controller);
    }
};

CUWB_TEST_MAIN(TestSweepController)
} // namespace tst_sweepcontroller
} // namespace

#include "tst_sweepcontroller.moc"
