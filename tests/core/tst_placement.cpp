// Placement: every combination the command line could ask for that cannot go together is a
// sentence (the CLI's usage errors come from here, so each is checked once), and the worker,
// the per-GPU workers and the GPUs that follow from a placement that can.
#include "cluster/placement.h"

#include <QtTest>

#include <string>
#include <vector>

#include "support/testmain.h"

Q_DECLARE_METATYPE(cuwb::Placement)

using namespace cuwb;

namespace {
namespace tst_placement {

namespace {

// This machine as queryDevices() would list two GPUs.
DeviceQuery twoGpus()
{
    DeviceQuery query;
    query.driverLoaded = true;
    for (int i = 0; i < 2; ++i) {
        DeviceInfo device;
        device.ordinal = i;
        device.name = "Fake H200";
        query.devices.push_back(device);
    }
    return query;
}

} // namespace

class TestPlacement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void impossibleCombinationsAreNamed_data();
    void impossibleCombinationsAreNamed();
    void workerOfEachPlace();
    void workerPerDevice();
    void devicesOfThisMachine();
};

void TestPlacement::impossibleCombinationsAreNamed_data()
{
    QTest::addColumn<Placement>("placement");
    QTest::addColumn<QString>("problem");
    Placement p;
    QTest::newRow("this GPU") << p << QString();
    p = {};
    p.target = "gpu-host";
    p.worker = "ssh gpu-host cuwb worker";
    QTest::newRow("--on and --worker")
        << p << QStringLiteral("--on and --worker both say where the worker runs; give one");
    p = {};
    p.worker = "  ";
    QTest::newRow("empty --worker") << p << QStringLiteral("--worker needs a command");
    p = {};
    p.worker = "my-worker";
    p.device = 1;
    QTest::newRow("--device with --worker")
        << p << QStringLiteral("--device is for the built-in worker; give it in --worker");
    p = {};
    p.device = 1;
    p.devices = {0, 1};
    QTest::newRow("--device with --devices")
        << p
        << QStringLiteral(
               "--device and --devices both choose the GPU; give one (--devices 0,1 for several)");
    p = {};
    p.devices = {0, 2, 0};
    QTest::newRow("a GPU twice") << p
                                 << QStringLiteral(
                                        "--devices names GPU 0 twice; each GPU gets one worker");
    p = {};
    p.allDevices = true;
    p.target = "gpu-host";
    QTest::newRow("all elsewhere")
        << p
        << QStringLiteral("--devices all counts the GPUs of this machine; with --on or --worker, "
                          "name them: --devices 0,1");
    p = {};
    p.perDevice = true;
    QTest::newRow("--per-device alone")
        << p
        << QStringLiteral("--per-device goes with --devices: it runs the whole sweep on each of "
                          "them");
    p = {};
    p.devices = {0, 1};
    p.slurm = SlurmOptions{};
    QTest::newRow("--devices with --slurm")
        << p << QStringLiteral("--devices and --slurm exclude each other");
    p = {};
    p.slurm = SlurmOptions{};
    p.slurm->tasks = 0;
    QTest::newRow("no task") << p
                             << QStringLiteral(
                                    "--gpus needs a number of tasks from 1 to 1000, got 0");
    p = {};
    p.slurm = SlurmOptions{};
    p.target = "gpu-host";
    p.device = 1;
    QTest::newRow("Slurm tasks on a target's GPU 1") << p << QString();
    p = {};
    p.worker = "srun --quiet cuwb worker";
    p.devices = {0, 3};
    p.perDevice = true;
    QTest::newRow("named GPUs of a worker command") << p << QString();
}

void TestPlacement::impossibleCombinationsAreNamed()
{
    QFETCH(Placement, placement);
    QFETCH(QString, problem);
    QCOMPARE(QString::fromStdString(placementProblem(placement)), problem);
    if (!problem.isEmpty()) {
        // Nothing is made of a placement that cannot be.
        const auto worker = placementWorker(placement, "/opt/cuwb");
        QVERIFY(std::holds_alternative<std::string>(worker));
        QCOMPARE(QString::fromStdString(std::get<std::string>(worker)), problem);
        QVERIFY(std::holds_alternative<std::string>(placementDevices(placement, twoGpus())));
    }
}

void TestPlacement::workerOfEachPlace()
{
    Placement placement;
    auto worker = std::get<WorkerProcess::Options>(placementWorker(placement, "/opt/cuwb"));
    QCOMPARE(worker.executable, std::string("/opt/cuwb"));
    QCOMPARE(worker.arguments, (std::vector<std::string>{"worker"}));

    placement.device = 2;
    worker = std::get<WorkerProcess::Options>(placementWorker(placement, "/opt/cuwb"));
    QCOMPARE(worker.arguments, (std::vector<std::string>{"worker", "--device", "2"}));

    placement = {};
    placement.worker = "ssh  gpu-host cuwb worker";
    worker = std::get<WorkerProcess::Options>(placementWorker(placement, "/opt/cuwb"));
    QCOMPARE(worker.executable, std::string("ssh"));
    QCOMPARE(worker.arguments, (std::vector<std::string>{"gpu-host", "cuwb", "worker"}));

    // A target's worker is remote (the client compiles and sends inputs along).
    placement = {};
    placement.target = "command:srun --quiet";
    placement.device = 1;
    const auto chosen = placementWorker(placement, "/opt/cuwb");
    QVERIFY2(std::holds_alternative<WorkerProcess::Options>(chosen),
             std::get_if<std::string>(&chosen) ? std::get<std::string>(chosen).c_str() : "");
    worker = std::get<WorkerProcess::Options>(chosen);
    QVERIFY(!worker.remoteName.empty());
    QVERIFY(worker.arguments.size() >= 2);
    QCOMPARE(worker.arguments.back(), std::string("1"));

    // A target that cannot be resolved says so as --on's problem.
    placement = {};
    placement.target = "gpu1:notaport";
    const auto unknown = placementWorker(placement, "/opt/cuwb");
    QVERIFY(std::holds_alternative<std::string>(unknown));
    QVERIFY(QString::fromStdString(std::get<std::string>(unknown))
                .startsWith(QStringLiteral("--on: ")));
}

void TestPlacement::workerPerDevice()
{
    Placement placement;
    placement.devices = {0, 1};
    const auto forDevice =
        std::get<WorkerOptionsForDevice>(placementWorkerForDevice(placement, "/opt/cuwb"));
    QCOMPARE(forDevice(1).arguments, (std::vector<std::string>{"worker", "--device", "1"}));
    placement.worker = "my-worker --fast";
    const auto mine =
        std::get<WorkerOptionsForDevice>(placementWorkerForDevice(placement, "/opt/cuwb"));
    QCOMPARE(mine(3).executable, std::string("my-worker"));
    QCOMPARE(mine(3).arguments, (std::vector<std::string>{"--fast", "--device", "3"}));
}

void TestPlacement::devicesOfThisMachine()
{
    Placement placement;
    placement.allDevices = true;
    QCOMPARE(std::get<std::vector<int>>(placementDevices(placement, twoGpus())),
             (std::vector<int>{0, 1}));
    placement = {};
    placement.devices = {1, 0};
    QCOMPARE(std::get<std::vector<int>>(placementDevices(placement, twoGpus())),
             (std::vector<int>{1, 0}));
    placement.devices = {0, 2};
    QCOMPARE(QString::fromStdString(std::get<std::string>(placementDevices(placement, twoGpus()))),
             QStringLiteral("--devices: there is no GPU 2; this machine has GPU 0 (Fake H200), "
                            "GPU 1 (Fake H200)"));
    DeviceQuery none;
    none.message = "no CUDA driver";
    QCOMPARE(QString::fromStdString(std::get<std::string>(placementDevices(placement, none))),
             QStringLiteral("--devices: this machine has no GPU (no CUDA driver)"));
    // Elsewhere, the worker's hello says whether its machine has GPU 2: nothing is checked here.
    placement.worker = "ssh gpu-host cuwb worker";
    QCOMPARE(std::get<std::vector<int>>(placementDevices(placement, none)),
             (std::vector<int>{0, 2}));
}

CUWB_TEST_GUILESS_MAIN(TestPlacement)
} // namespace tst_placement
} // namespace

#include "tst_placement.moc"
