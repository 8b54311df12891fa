// The sweep runner against a stand-in worker with a GPU (fakesweepworker.cpp): points stream
// in order, one host compile per distinct set of options, skips for what does not compile or
// fit, verification that marks a point wrong, a worker that crashes mid-sweep, cancelling,
// no GPU. The host compiles are real (NVRTC needs no GPU); no assertion is about time.
#include "compiler/kernelcompiler.h"
#include "measure/roofline.h"
#include "sweep/sweeprunner.h"
#include "worker/workerprocess.h"

#include "../support/sweeptesthelpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <thread>

#include "support/testmain.h"

using namespace cuwb;
using namespace cuwb::sweeptest;

namespace {
namespace tst_sweeprunner {

namespace {

const char *const kSource = R"(extern "C" __global__ void add_one(const float *a, float *c, int n)
{
#if defined(TILE) && TILE == 24
#error TILE 24 is not supported
#endif
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef PAD
    __shared__ float pad[PAD];
    pad[threadIdx.x % PAD] = a[i % n];
    __syncthreads();
    if (i < n)
        c[i] = pad[(threadIdx.x + 1) % PAD] + 1.0f;
#else
    if (i < n)
        c[i] = a[i] + 1.0f;
#endif
}
)";

// The add_one request with a check of every element, so a wrong point shows.
RunRequest baseRequest()
{
    RunRequest request = addOneRequest(kSource);
    request.verification.checks.assign(1, VerificationSpec{});
    request.verification.checks[0].kind = ReferenceKind::Expression;
    request.verification.checks[0].output = "c";
    request.verification.checks[0].expression = "a[i] + 1.0f";
    return request;
}

WorkerProcess::Options fakeWorker(const QStringList &arguments = {})
{
    WorkerProcess::Options options;
    options.executable = CUWB_FAKE_SWEEP_WORKER_PATH;
    options.arguments.clear();
    for (const QString &argument : arguments) {
        options.arguments.push_back(argument.toStdString());
    }
    return options;
}

std::vector<std::string> labels(const SweepResult &result, PointStatus status)
{
    std::vector<std::string> out;
    for (const SweepPointResult &r : result.points) {
        if (r.status == status) {
            out.push_back(r.point.label());
        }
    }
    return out;
}

} // namespace

class TestSweepRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The host compiles counted here are NVRTC's, not the compile cache's on disk.
    void initTestCase() { qputenv("CUWB_CACHE_DIR", "off"); }
    void measuresEveryPointInOrder();
    void compilesOncePerDistinctOptions();
    void aCompileFunctionCompilesEachVariantOnce();
    void aCrashedHostCompileSkipsItsPointsAndTheSweepGoesOn();
    void skipsADefineThatBreaksCompilation();
    void skipsWhatTheCompiledKernelCannotFit();
    void wrongPointIsNeverBest();
    void workerCrashFailsOnePointAndTheRestGoOn();
    void cancelKeepsWhatWasMeasured();
    void cancelBeforeRunStartsNothing();
    void killingTheWorkerStopsTheSweep();
    void noGpuSaysWhy();
    void unusableSpecSaysWhy();
    void estimatesBoundTheDuration();
    void rooflineAsksForItsMetrics();
};

void TestSweepRunner::measuresEveryPointInOrder()
{
    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    int started = 0;
    std::vector<std::size_t> streamed;
    std::vector<std::size_t> done;
    std::size_t total = 0;
    bool estimated = false;
    runner.setStartedCallback([&](const SweepResult &result) {
        ++started;
        QCOMPARE(result.points.size(), std::size_t(7));
        QCOMPARE(result.count(PointStatus::Pending), std::size_t(6));
        QCOMPARE(result.count(PointStatus::Skipped), std::size_t(1));
    });
    runner.setPointCallback([&](const SweepPointResult &r, const SweepProgress &progress) {
        streamed.push_back(r.point.index);
        done.push_back(progress.done);
        total = progress.total;
        estimated = estimated || progress.secondsLeft.has_value();
    });
    SweepContext context;
    context.projectName = "add_one";
    const SweepResult result = runner.run(blockPowersSweep(), baseRequest(), context);

    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(started, 1);
    QCOMPARE(streamed, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6}));
    QCOMPARE(done, (std::vector<std::size_t>{1, 2, 3, 4, 5, 6, 7}));
    QCOMPARE(total, std::size_t(7));
    QVERIFY(estimated);
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(6));
    QCOMPARE(labels(result, PointStatus::Skipped), std::vector<std::string>{"block.x=2048"});
    QVERIFY2(result.points[6].message.find("2048 threads") != std::string::npos,
             result.points[6].message.c_str());
    QCOMPARE(result.projectName, std::string("add_one"));
    QCOMPARE(result.deviceName, std::string("Fake H200"));
    QCOMPARE(result.sourceHash, sourceHashFnv1a64(kSource));
    QVERIFY(!result.startedAt.empty());
    QVERIFY(!result.cancelled);
    QCOMPARE(result.theoreticalPeakGBps, std::optional<double>(4814.3));
    QCOMPARE(result.copyCeilingGBps, std::optional<double>(4210.0));
    QCOMPARE(worker.starts(), 1);

    const std::optional<std::size_t> best = result.bestPoint();
    QVERIFY(best.has_value());
    QCOMPARE(result.points[*best].point.label(), std::string("block.x=256"));
    const SweepPointResult &first = result.points.front();
    QCOMPARE(first.measurement->statistics.count, std::size_t(20)); // the sweep default
    QCOMPARE(first.measurement->settings.mode, SampleMode::Hot);
    QVERIFY(first.registersPerThread > 0);
    QVERIFY(first.theoreticalOccupancy.has_value());
    QVERIFY(*first.theoreticalOccupancy > 0.0 && *first.theoreticalOccupancy <= 1.0);
    QVERIFY(!first.occupancyLimiter.empty());
    QVERIFY(first.waves.has_value());
    QVERIFY(!first.measuredAt.empty());
    QCOMPARE(first.point.grid[0], std::uint64_t(65536 / 32));
}

void TestSweepRunner::compilesOncePerDistinctOptions()
{
    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    SweepSpec spec = blockPowersSweep();
    spec.axes.push_back(listAxis("-DTILE", {"8", "16"}));
    const SweepResult result = runner.run(spec, baseRequest());
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(12));
    QCOMPARE(runner.hostCompiles(), std::size_t(2)); // one per TILE, not one per point
    std::size_t compileTimes = 0;
    for (const SweepPointResult &r : result.points) {
        compileTimes += r.compileMs > 0.0 ? 1 : 0;
    }
    QCOMPARE(compileTimes, std::size_t(2));
    QCOMPARE(worker.starts(), 1);
}

void TestSweepRunner::aCompileFunctionCompilesEachVariantOnce()
{
    // The GUI's compile server stands behind such a function; here NVRTC in this process.
    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    KernelCompiler compiler(0);
    int calls = 0;
    runner.setCompileFunction(
        [&](std::string_view source, std::string_view fileName, const CompileOptions &options) {
            ++calls;
            return compiler.compile(source, fileName, options);
        });
    SweepSpec spec = blockPowersSweep();
    spec.axes.push_back(listAxis("-DTILE", {"8", "16"}));
    const SweepResult result = runner.run(spec, baseRequest());
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(12));
    QCOMPARE(calls, 2);
    QCOMPARE(runner.hostCompiles(), std::size_t(2));
}

void TestSweepRunner::aCrashedHostCompileSkipsItsPointsAndTheSweepGoesOn()
{
    // What IsolatedCompiler answers when NVRTC killed the compile server: a failureMessage.
    const std::string crash = "The compiler crashed (SIGABRT) on this source; your text is "
                              "untouched and the next compile starts a new compiler process.";
    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    KernelCompiler compiler(0);
    int calls = 0;
    runner.setCompileFunction(
        [&](std::string_view source, std::string_view fileName, const CompileOptions &options) {
            ++calls;
            const auto &defines = options.defines;
            if (std::find(defines.begin(), defines.end(), "TILE=16") != defines.end()) {
                CompileResult crashed;
                crashed.fileName = std::string(fileName);
                crashed.options = options;
                crashed.failureMessage = crash;
                return crashed;
            }
            return compiler.compile(source, fileName, options);
        });
    SweepSpec spec;
    spec.axes = {listAxis("-DTILE", {"8", "16", "32"})};
    const SweepResult result = runner.run(spec, baseRequest());
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(labels(result, PointStatus::Measured),
             (std::vector<std::string>{"TILE=8", "TILE=32"}));
    const SweepPointResult &crashed = result.points[1];
    QCOMPARE(crashed.status, PointStatus::Skipped);
    QVERIFY(crashed.compileFailed);
    QVERIFY2(crashed.message.find(crash) != std::string::npos, crashed.message.c_str());
    QCOMPARE(calls, 3);
}

void TestSweepRunner::skipsADefineThatBreaksCompilation()
{
    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    SweepSpec spec;
    spec.axes = {listAxis("-DTILE", {"8", "24", "32"})};
    const SweepResult result = runner.run(spec, baseRequest());
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(labels(result, PointStatus::Measured),
             (std::vector<std::string>{"TILE=8", "TILE=32"}));
    const SweepPointResult &broken = result.points[1];
    QCOMPARE(broken.status, PointStatus::Skipped);
    QVERIFY(broken.compileFailed);
    QVERIFY2(broken.message.find("TILE 24 is not supported") != std::string::npos,
             broken.message.c_str());
    QVERIFY2(broken.message.find("add_one.cu:4:") != std::string::npos, broken.message.c_str());
}

void TestSweepRunner::skipsWhatTheCompiledKernelCannotFit()
{
    // 40 KB of static shared memory: only the compiled kernel shows it, and with the dynamic
    // shared memory of the second point it is more than a block may have.
    RunRequest request = baseRequest();
    request.options.defines = {"PAD=10240"};
    request.launch.variables.emplace_back("D", "0");
    request.launch.dynamicSharedBytes = "D";
    SweepSpec spec;
    spec.axes = {listAxis("D", {"0", "204800"})};
    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    const SweepResult result = runner.run(spec, request);
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.points[0].status, PointStatus::Measured);
    QCOMPARE(result.points[0].staticSharedBytes, 40960);
    const SweepPointResult &tooBig = result.points[1];
    QCOMPARE(tooBig.status, PointStatus::Skipped);
    QVERIFY(!tooBig.compileFailed);
    QVERIFY2(tooBig.message.find("40960 static + 204800 dynamic") != std::string::npos,
             tooBig.message.c_str());
}

void TestSweepRunner::wrongPointIsNeverBest()
{
    SweepSpec spec;
    spec.axes = {listAxis("-DFAKE_WRONG", {"0", "1"})};
    spec.verify = true;
    const QTemporaryDir dir;
    const QString log = dir.filePath(QStringLiteral("requests.log"));
    qputenv("CUWB_FAKE_WORKER_LOG", log.toUtf8());
    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    const SweepResult result = runner.run(spec, baseRequest());
    qunsetenv("CUWB_FAKE_WORKER_LOG");
    QVERIFY2(result.error.empty(), result.error.c_str());
    QCOMPARE(result.points[0].status, PointStatus::Measured);
    const SweepPointResult &wrong = result.points[1];
    QCOMPARE(wrong.status, PointStatus::Wrong);
    QVERIFY2(wrong.message.find("3 of 4 elements differ") != std::string::npos,
             wrong.message.c_str());
    // Measured anyway, and faster, but never best.
    QVERIFY(wrong.measurement.has_value());
    QVERIFY(wrong.measurement->statistics.medianNs <
            result.points[0].measurement->statistics.medianNs);
    QCOMPARE(result.bestPoint(), std::optional<std::size_t>(0));
    QVERIFY(result.pointsTiedWithBest().empty());

    QFile file(log);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList requests =
        QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // The start's handshake and the runner's hello (which asks for the device), then per
    // point: the verification run, the release of its buffers, the measurement.
    QCOMPARE(requests, (QStringList{QStringLiteral("hello"), QStringLiteral("hello"),
                                    QStringLiteral("run"), QStringLiteral("release"),
                                    QStringLiteral("measure"), QStringLiteral("run"),
                                    QStringLiteral("release"), QStringLiteral("measure")}));
}

void TestSweepRunner::workerCrashFailsOnePointAndTheRestGoOn()
{
    const QTemporaryDir dir;
    const QString marker = dir.filePath(QStringLiteral("crashed"));
    WorkerProcess worker(fakeWorker({QStringLiteral("crash-at-3"), marker}));
    SweepRunner runner(worker);
    const SweepResult result = runner.run(blockPowersSweep(), baseRequest());
    QVERIFY2(result.error.empty(), result.error.c_str());
    const SweepPointResult &crashed = result.points[2];
    QCOMPARE(crashed.status, PointStatus::Failed);
    QVERIFY2(crashed.message.find("crash") != std::string::npos ||
                 crashed.message.find("died") != std::string::npos ||
                 crashed.message.find("exit") != std::string::npos,
             crashed.message.c_str());
    QCOMPARE(labels(result, PointStatus::Measured),
             (std::vector<std::string>{"block.x=32", "block.x=64", "block.x=256", "block.x=512",
                                       "block.x=1024"}));
    QCOMPARE(worker.starts(), 2); // a fresh worker after the crash, no other restart
    QVERIFY(!result.cancelled);
}

void TestSweepRunner::cancelKeepsWhatWasMeasured()
{
    // The third measurement waits for the cancel; cancel() comes from another thread, as the
    // GUI's would, once two points are in.
    WorkerProcess worker(fakeWorker({QStringLiteral("cancel-at-3")}));
    SweepRunner runner(worker);
    std::thread canceller;
    runner.setPointCallback([&](const SweepPointResult &, const SweepProgress &progress) {
        if (progress.done == 2) {
            canceller = std::thread([&runner] {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                runner.cancel();
            });
        }
    });
    const SweepResult result = runner.run(blockPowersSweep(), baseRequest());
    canceller.join();
    QVERIFY(result.cancelled);
    QCOMPARE(labels(result, PointStatus::Measured),
             (std::vector<std::string>{"block.x=32", "block.x=64"}));
    QCOMPARE(result.count(PointStatus::Pending), std::size_t(4));
    QCOMPARE(result.points[2].status, PointStatus::Pending);
    QCOMPARE(result.points.back().status, PointStatus::Skipped); // known before measuring
    QCOMPARE(result.bestPoint(), std::optional<std::size_t>(1));
    QVERIFY(worker.running()); // a cancel keeps the worker
}

void TestSweepRunner::cancelBeforeRunStartsNothing()
{
    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    runner.cancel();
    const SweepResult result = runner.run(blockPowersSweep(), baseRequest());
    QVERIFY(result.cancelled);
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(0));
    QCOMPARE(worker.starts(), 0);
    runner.clearCancel();
    QVERIFY(!runner.cancelRequested());
}

void TestSweepRunner::killingTheWorkerStopsTheSweep()
{
    // WorkerProcess::cancel(), as the GUI does when it quits mid-sweep: the point in flight and
    // the rest stay pending, none is marked failed.
    WorkerProcess worker(fakeWorker({QStringLiteral("cancel-at-3")}));
    SweepRunner runner(worker);
    std::thread killer;
    runner.setPointCallback([&](const SweepPointResult &, const SweepProgress &progress) {
        if (progress.done == 2) {
            killer = std::thread([&worker] {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                worker.cancel();
            });
        }
    });
    const SweepResult result = runner.run(blockPowersSweep(), baseRequest());
    killer.join();
    QVERIFY(result.cancelled);
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(2));
    QCOMPARE(result.count(PointStatus::Failed), std::size_t(0));
    QCOMPARE(result.count(PointStatus::Pending), std::size_t(4));
    QVERIFY(!worker.running());
}

void TestSweepRunner::noGpuSaysWhy()
{
    WorkerProcess worker(fakeWorker({QStringLiteral("no-device")}));
    SweepRunner runner(worker);
    int pointsStreamed = 0;
    runner.setPointCallback(
        [&](const SweepPointResult &, const SweepProgress &) { ++pointsStreamed; });
    const SweepResult result = runner.run(blockPowersSweep(), baseRequest());
    QVERIFY2(result.error.starts_with("no GPU: "), result.error.c_str());
    QVERIFY2(result.error.find("fake worker") != std::string::npos, result.error.c_str());
    QCOMPARE(pointsStreamed, 0);
    QCOMPARE(result.points.size(), std::size_t(7)); // listed, with the project's limits
    QCOMPARE(result.count(PointStatus::Measured), std::size_t(0));
}

void TestSweepRunner::unusableSpecSaysWhy()
{
    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    SweepSpec spec;
    spec.axes = {listAxis("M", {"1", "2"})};
    const SweepResult result = runner.run(spec, baseRequest());
    QVERIFY2(result.error.find("`M` is not a variable of the project") != std::string::npos,
             result.error.c_str());
    QVERIFY(result.points.empty());
}

void TestSweepRunner::estimatesBoundTheDuration()
{
    SweepSpec spec;
    spec.settings.fixedSamples = 0; // adaptive: at least the minimum GPU time per point
    spec.settings.minGpuTimeSeconds = 0.5;
    spec.settings.timeCapSeconds = 15;
    const SweepEstimate estimate = estimateSweep(spec, 10, 10.0);
    QVERIFY(estimate.minSeconds >= 5.0);
    QVERIFY(estimate.maxSeconds >= 150.0);
    QVERIFY(estimate.minSeconds <= estimate.maxSeconds);
    QCOMPARE(formatDuration(0.25), std::string("250 ms"));
    QCOMPARE(formatDuration(12.4), std::string("12 s"));
    QCOMPARE(formatDuration(200), std::string("3 min 20 s"));
    QCOMPARE(formatDuration(7500), std::string("2 h 5 min"));
}

// The stand-in worker answers a metrics request with made-up values for exactly the metrics it
// names, so what each point's result carries is what the runner asked for.
void TestSweepRunner::rooflineAsksForItsMetrics()
{
    SweepSpec spec = blockPowersSweep();
    QCOMPARE(pointMetricsRequest(spec).metrics, defaultMetrics());
    spec.roofline = true; // without `metrics`: the roofline implies the pass
    const std::vector<std::string> asked = pointMetricsRequest(spec).metrics;
    QCOMPARE(asked.size(), std::size_t(19)); // 6 default + 17 roofline, 4 of them shared
    for (const std::string &name : rooflineMetrics()) {
        QCOMPARE(std::count(asked.begin(), asked.end(), name), std::ptrdiff_t(1));
    }

    WorkerProcess worker(fakeWorker());
    SweepRunner runner(worker);
    const SweepResult result = runner.run(spec, baseRequest(), SweepContext{});
    QVERIFY2(result.error.empty(), result.error.c_str());
    QVERIFY(result.device.has_value());
    QCOMPARE(result.device->smCount, 132);
    std::size_t withMetrics = 0;
    for (const SweepPointResult &r : result.points) {
        if (r.status != PointStatus::Measured) {
            QVERIFY(!r.metrics.has_value());
            continue;
        }
        QVERIFY(r.metrics.has_value());
        QCOMPARE(r.metrics->values.size(), asked.size());
        for (const std::string &name : asked) {
            QVERIFY2(r.metrics->values.count(name) == 1, name.c_str());
        }
        ++withMetrics;
    }
    QCOMPARE(withMetrics, std::size_t(6));
}

CUWB_TEST_GUILESS_MAIN(TestSweepRunner)
} // namespace tst_sweeprunner
} // namespace

#include "tst_sweeprunner.moc"
