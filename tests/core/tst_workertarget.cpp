// Targets of remote workers (worker/workertarget.h): addresses and the targets file read, the
// ssh and command lines built, ssh's failures worded; and the input files a remote request
// carries (worker/inlinefiles.h) collected, limited and laid out for the worker.
#include "worker/inlinefiles.h"
#include "worker/protocol.h"
#include "worker/workerserver.h"
#include "worker/workertarget.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <sys/wait.h>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_workertarget {

namespace {

std::string write(const QTemporaryDir &dir, const char *name, const std::string &text)
{
    const std::string path = dir.filePath(QLatin1String(name)).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

int exitStatus(int code)
{
    return code << 8; // as waitpid reports a normal exit
}

} // namespace

class TestWorkerTarget : public QObject
{
    Q_OBJECT

private slots:
    void parsesAddresses();
    void refusesBadAddresses_data();
    void refusesBadAddresses();
    void readsTheTargetsFile();
    void refusesBadTargetsFiles_data();
    void refusesBadTargetsFiles();
    void buildsTheSshCommandLine();
    void commandTargetIsTheSameRemotePath();
    void wordsSshFailures();
    void collectsAndLimitsInputFiles();
    void workerReadsTheFilesFromItsOwnFolder();
    void workerRefusesAnotherProtocol();
};

void TestWorkerTarget::parsesAddresses()
{
    const auto full = std::get<WorkerTarget>(parseTargetAddress("alice@gpu1.example.edu:2222"));
    QCOMPARE(full.kind, WorkerTarget::Kind::Ssh);
    QCOMPARE(full.user, std::string("alice"));
    QCOMPARE(full.host, std::string("gpu1.example.edu"));
    QCOMPARE(full.port, 2222);
    QCOMPARE(full.address(), std::string("alice@gpu1.example.edu:2222"));
    const auto bare = std::get<WorkerTarget>(parseTargetAddress("gpu1"));
    QCOMPARE(bare.user, std::string());
    QCOMPARE(bare.port, 0);
    QCOMPARE(bare.address(), std::string("gpu1"));
    const auto command = std::get<WorkerTarget>(parseTargetAddress("command:/opt/run  cuwb"));
    QCOMPARE(command.kind, WorkerTarget::Kind::Command);
    QCOMPARE(command.command, (std::vector<std::string>{"/opt/run", "cuwb"}));
}

void TestWorkerTarget::refusesBadAddresses_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("problem");
    QTest::newRow("port") << QStringLiteral("gpu1:99999") << QStringLiteral("no valid port");
    QTest::newRow("empty port") << QStringLiteral("gpu1:") << QStringLiteral("no valid port");
    QTest::newRow("option") << QStringLiteral("-oProxyCommand=x")
                            << QStringLiteral("is not user@host[:port]");
    QTest::newRow("blank") << QStringLiteral("gpu 1") << QStringLiteral("is not user@host[:port]");
    QTest::newRow("no user") << QStringLiteral("@gpu1") << QStringLiteral("no valid user");
    QTest::newRow("no command") << QStringLiteral("command:  ")
                                << QStringLiteral("needs a command");
}

void TestWorkerTarget::refusesBadAddresses()
{
    QFETCH(QString, text);
    QFETCH(QString, problem);
    const auto parsed = parseTargetAddress(text.toStdString());
    QVERIFY(std::holds_alternative<std::string>(parsed));
    QVERIFY2(std::get<std::string>(parsed).find(problem.toStdString()) != std::string::npos,
             std::get<std::string>(parsed).c_str());
}

void TestWorkerTarget::readsTheTargetsFile()
{
    const QTemporaryDir dir;
    const std::string file = write(dir, "targets.json", R"({"targets": [
        {"name": "lab", "host": "gpu1", "user": "alice", "port": 2222, "cuwb": "/opt/cuwb",
         "sshOptions": ["-F", "/tmp/config"], "device": 1},
        {"name": "h200", "kind": "command", "command": ["/tmp/portable/run"]},
        {"name": "node", "command": ["srun", "--gres=gpu:1"]}]})");
    const auto lab = std::get<WorkerTarget>(resolveTarget("lab", file));
    QCOMPARE(lab.host, std::string("gpu1"));
    QCOMPARE(lab.cuwb, std::string("/opt/cuwb"));
    QCOMPARE(*lab.device, 1);
    QCOMPARE(lab.displayName(), std::string("lab"));
    const auto h200 = std::get<WorkerTarget>(resolveTarget("h200", file));
    QCOMPARE(h200.kind, WorkerTarget::Kind::Command);
    QCOMPARE(h200.cuwb, std::string("cuwb"));
    // A command and no host: a command target without saying so.
    const auto node = std::get<WorkerTarget>(resolveTarget("node", file));
    QCOMPARE(node.kind, WorkerTarget::Kind::Command);
    QCOMPARE(node.command, (std::vector<std::string>{"srun", "--gres=gpu:1"}));
    // Not a name in the file: an address.
    QCOMPARE(std::get<WorkerTarget>(resolveTarget("bob@other", file)).user, std::string("bob"));
    // No file at all: addresses still work.
    QCOMPARE(std::get<WorkerTarget>(resolveTarget("gpu2", file + ".missing")).host,
             std::string("gpu2"));
}

void TestWorkerTarget::refusesBadTargetsFiles_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("problem");
    QTest::newRow("not json") << QStringLiteral("{") << QStringLiteral("is not valid JSON");
    QTest::newRow("no list") << QStringLiteral("{}") << QStringLiteral("\"targets\" list");
    QTest::newRow("port") << QStringLiteral(R"({"targets":[{"name":"a","host":"h","port":0x}]})")
                          << QStringLiteral("is not valid JSON");
    QTest::newRow("big port") << QStringLiteral(
                                     R"({"targets":[{"name":"a","host":"h","port":70000}]})")
                              << QStringLiteral("target 'a': \"port\" must be 1 to 65535");
    QTest::newRow("kind") << QStringLiteral(R"({"targets":[{"name":"a","kind":"ftp"}]})")
                          << QStringLiteral("unknown \"kind\" 'ftp'");
    QTest::newRow("no host") << QStringLiteral(R"({"targets":[{"name":"a"}]})")
                             << QStringLiteral("target 'a': an ssh target needs \"host\"");
    QTest::newRow("no command") << QStringLiteral(R"({"targets":[{"name":"a","kind":"command"}]})")
                                << QStringLiteral("target 'a': a command target needs \"command\"");
    QTest::newRow("host option") << QStringLiteral(R"({"targets":[{"name":"a","host":"-x"}]})")
                                 << QStringLiteral("\"host\" must be a host name");
}

void TestWorkerTarget::refusesBadTargetsFiles()
{
    QFETCH(QString, text);
    QFETCH(QString, problem);
    const QTemporaryDir dir;
    const std::string file = write(dir, "targets.json", text.toStdString());
    const auto resolved = resolveTarget("a", file);
    QVERIFY(std::holds_alternative<std::string>(resolved));
    const std::string message = std::get<std::string>(resolved);
    QVERIFY2(message.find(problem.toStdString()) != std::string::npos, message.c_str());
    QVERIFY2(message.find(file) != std::string::npos, message.c_str());
}

void TestWorkerTarget::buildsTheSshCommandLine()
{
    WorkerTarget target = std::get<WorkerTarget>(parseTargetAddress("alice@gpu1:2222"));
    target.sshOptions = {"-F", "/tmp/config"};
    target.device = 3;
    const WorkerProcess::Options options = workerOptionsFor(target, std::nullopt);
    QVERIFY(options.executable.ends_with("/ssh"));
    QCOMPARE(options.arguments, (std::vector<std::string>{"-T", "-o", "BatchMode=yes", "-p", "2222",
                                                          "-F", "/tmp/config", "alice@gpu1", "--",
                                                          "cuwb", "worker", "--device", "3"}));
    QCOMPARE(options.remoteName, std::string("gpu1"));
    QCOMPARE(options.linkSlackSeconds, WorkerProcess::kLinkSlackSeconds);
    // --device on the command line wins over the target's.
    QCOMPARE(workerOptionsFor(target, 0).arguments.back(), std::string("0"));
}

void TestWorkerTarget::commandTargetIsTheSameRemotePath()
{
    const WorkerTarget target =
        std::get<WorkerTarget>(parseTargetAddress("command:/tmp/portable/run cuwb"));
    const WorkerProcess::Options options = workerOptionsFor(target, 1);
    QCOMPARE(options.executable, std::string("/tmp/portable/run"));
    QCOMPARE(options.arguments, (std::vector<std::string>{"cuwb", "worker", "--device", "1"}));
    QCOMPARE(options.remoteName, std::string("command:/tmp/portable/run cuwb"));
    QCOMPARE(options.linkSlackSeconds, WorkerProcess::kLinkSlackSeconds);
}

void TestWorkerTarget::wordsSshFailures()
{
    WorkerProcess::Options options;
    options.remoteName = "gpu1";
    const auto says = [&](int status, const std::string &err, bool during) {
        return describeRemoteFailure(options, exitStatus(status), err, during);
    };
    QVERIFY(says(255, "Host key verification failed.\n", false)
                .starts_with("ssh does not know the host key of gpu1"));
    QVERIFY(says(255, "alice@gpu1: Permission denied (publickey).\n", false)
                .starts_with("ssh could not log in to gpu1"));
    QVERIFY(says(255, "ssh: connect to host gpu1 port 22: Connection refused\n", false)
                .starts_with("ssh could not connect to gpu1: the connection was refused"));
    QVERIFY(says(255, "ssh: Could not resolve hostname gpu1: Name or service not known\n", false)
                .starts_with("ssh could not reach gpu1"));
    const std::string missing = says(127, "bash: line 1: cuwb: command not found\n", false);
    QVERIFY2(missing.starts_with("there is no cuwb on gpu1 (the command was not found) (it "
                                 "said: bash: line 1: cuwb: command not found); install cuwb "
                                 "there"),
             missing.c_str());
    QVERIFY(says(255, "Connection to gpu1 closed by remote host.\n", true)
                .starts_with("the connection to gpu1 was lost during the run"));
    QVERIFY(says(255, "", true).starts_with("the worker on gpu1 stopped during the run"));
    QCOMPARE(says(3, "", true),
             std::string("the worker on gpu1 exited with status 3 without answering"));
}

void TestWorkerTarget::collectsAndLimitsInputFiles()
{
    const QTemporaryDir dir;
    RunRequest request;
    ArgumentSpec a;
    a.parameter = "a";
    a.init.kind = InitKind::File;
    a.init.file = write(dir, "a.bin", std::string("\x01\x02\x00\x03", 4));
    request.launch.arguments = {a, a}; // the same file twice goes once
    request.verification.checks.assign(1, VerificationSpec{});
    request.verification.checks[0].kind = ReferenceKind::File;
    request.verification.checks[0].file = write(dir, "c.npy", "npy-bytes");
    const auto files = std::get<std::vector<InlineFile>>(collectInputFiles(request));
    QCOMPARE(files.size(), std::size_t(2));
    QCOMPARE(files[0].bytes, std::string("\x01\x02\x00\x03", 4));
    QCOMPARE(files[1].path, request.verification.checks[0].file);

    request.verification.checks[0].file = dir.filePath(QStringLiteral("missing.npy")).toStdString();
    const auto missing = collectInputFiles(request);
    QVERIFY(std::get<std::string>(missing).starts_with("cannot read the input file "));

    const std::string big = dir.filePath(QStringLiteral("big.bin")).toStdString();
    std::ofstream(big).close();
    std::filesystem::resize_file(big, kMaxInlineFileBytes + 1);
    request.verification.checks[0].file = big;
    const std::string tooBig = std::get<std::string>(collectInputFiles(request));
    QVERIFY2(tooBig.find("carries at most 64 MiB of files") != std::string::npos, tooBig.c_str());
}

void TestWorkerTarget::workerReadsTheFilesFromItsOwnFolder()
{
    RunRequest request;
    ArgumentSpec a;
    a.parameter = "a";
    a.init.kind = InitKind::File;
    a.init.file = "/home/alice/inputs/a.npy";
    request.launch.arguments = {a};
    std::string copy;
    {
        const InlineFileFolder folder({{"/home/alice/inputs/a.npy", "bytes"}}, request);
        copy = request.launch.arguments[0].init.file;
        QVERIFY(copy != "/home/alice/inputs/a.npy");
        QVERIFY(copy.ends_with(".npy"));
        std::ifstream in(copy);
        std::string text;
        in >> text;
        QCOMPARE(text, std::string("bytes"));
    }
    QVERIFY(!std::filesystem::exists(copy)); // gone with the request
}

void TestWorkerTarget::workerRefusesAnotherProtocol()
{
    WorkerServer server(0, [] { return false; });
    nlohmann::json hello = makeHelloRequest();
    hello["id"] = 1;
    hello["protocol"] = kWorkerProtocolVersion + 1;
    hello["cuwb"] = "9.9.9";
    const WorkerServer::Served served = server.serve(hello.dump());
    QCOMPARE(served.reply["type"].get<std::string>(), std::string("error"));
    const std::string message = served.reply["message"].get<std::string>();
    QVERIFY2(message.find("the client (cuwb 9.9.9) speaks version 2") != std::string::npos,
             message.c_str());
    QVERIFY2(message.find("this worker is cuwb " + workbenchVersion()) != std::string::npos,
             message.c_str());
    // The hello itself carries this program's version.
    QCOMPARE(makeHelloRequest()["cuwb"].get<std::string>(), workbenchVersion());
}

CUWB_TEST_GUILESS_MAIN(TestWorkerTarget)
} // namespace tst_workertarget
} // namespace

#include "tst_workertarget.moc"
