// The server half of the worker protocol (core/worker/workerserver.h), driven line by line
// without a process: every request gets a reply with its own id, a worker without a device
// says why in every reply instead of failing, a malformed line gets an error reply, and
// shutdown ends the loop. GPU 999 exists nowhere, so this holds on machines with a GPU too.
#include "worker/protocol.h"
#include "worker/workerserver.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_workerserver {

namespace {

std::string line(nlohmann::json message, int id)
{
    message["id"] = id;
    return message.dump();
}

RunRequest sampleRequest()
{
    RunRequest request;
    request.source = "__global__ void k(float *p) {}\n";
    request.launch.kernel = "k";
    return request;
}

bool contains(const std::string &text, const char *part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestWorkerServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void withoutADeviceEveryReplySaysWhy()
    {
        WorkerServer server(999, [] { return false; });

        WorkerServer::Served served = server.serve(line(makeHelloRequest(), 1));
        QCOMPARE(served.reply.at("id").get<int>(), 1);
        QVERIFY(!served.exit);
        const HelloReply hello = parseHelloReply(served.reply);
        QVERIFY(!hello.device);
        QVERIFY(!hello.message.empty());
        QVERIFY(!hello.worker.empty());

        served = server.serve(line(makeRunRequest(sampleRequest()), 2));
        const RunResult run = parseRunResultReply(served.reply);
        QCOMPARE(run.status, RunStatus::NoDevice);
        QVERIFY2(contains(run.message, "cannot run the kernel: ") &&
                     contains(run.message, hello.message.c_str()),
                 run.message.c_str());

        served = server.serve(line(makeMeasureRequest(sampleRequest(), SampleSettings{}, {}), 3));
        const Measurement measurement = parseMeasurementReply(served.reply);
        QCOMPARE(measurement.faultStatus, std::string(runStatusName(RunStatus::NoDevice)));

        served = server.serve(line(makeMetricsRequest(sampleRequest(), MetricsRequest{}), 4));
        QVERIFY(contains(parseMetricsReply(served.reply).error, "cannot collect metrics"));

        // A page of a run that never happened: an error reply, the worker goes on.
        served = server.serve(line(makePageRequest(PageRequest{"run1/p", 0, 16}), 5));
        QCOMPARE(served.reply.at("type").get<std::string>(), std::string("error"));
        QVERIFY(contains(parseErrorReply(served.reply), "no GPU"));
        QVERIFY(!served.exit);

        served = server.serve(line(makeReleaseRequest(), 6));
        QCOMPARE(served.reply.at("type").get<std::string>(), std::string("released"));

        served = server.serve(line(makeShutdownRequest(), 7));
        QCOMPARE(served.reply.at("type").get<std::string>(), std::string("bye"));
        QVERIFY(served.exit);
        QCOMPARE(served.exitStatus, 0);
    }

    void badLinesGetErrorReplies()
    {
        WorkerServer server(999, [] { return false; });
        WorkerServer::Served served = server.serve("this is not json");
        QCOMPARE(served.reply.at("type").get<std::string>(), std::string("error"));
        QVERIFY(served.reply.at("id").is_null()); // no id could be read
        QVERIFY(contains(parseErrorReply(served.reply), "malformed request"));
        QVERIFY(!served.exit);

        served = server.serve(R"({"id": 8, "type": "teleport"})");
        QCOMPARE(served.reply.at("id").get<int>(), 8);
        QCOMPARE(served.reply.at("type").get<std::string>(), std::string("error"));
        QVERIFY(!served.exit);
    }
};

CUWB_TEST_GUILESS_MAIN(TestWorkerServer)
} // namespace tst_workerserver
} // namespace

#include "tst_workerserver.moc"
