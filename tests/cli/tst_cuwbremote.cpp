// `cuwb ... --on TARGET` against a real OpenSSH server: the test starts /usr/sbin/sshd on
// 127.0.0.1 on a free port with a host key, a user key and an authorized_keys it makes with
// ssh-keygen in a temporary folder, and a client configuration of its own (ssh -F); the
// stand-in workers play the remote GPU behind it (wrapper scripts are the "remote cuwb").
// Runs, sweeps, devices, a dropped connection, a version mismatch, an unknown host key, a
// missing remote cuwb, input files sent along, a cancel, and the command transport. Without
// sshd the whole test is skipped with the reason; CI installs it (./workbench test).
#include "cuwbprocess.h"

#include "cuda/nvrtcinfo.h"
#include "worker/protocol.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "support/testmain.h"

namespace {
namespace tst_cuwbremote {

namespace {

CuwbRun runCuwb(const QStringList &arguments)
{
    return runCuwbProcess(arguments, QString(), QByteArray());
}

// A TCP port nobody listens on now (bound and released; the test starts sshd on it at once).
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        if (fd >= 0)
            ::close(fd);
        return 0;
    }
    ::close(fd);
    return ntohs(address.sin_port);
}

bool accepts(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
    ::close(fd);
    return ok;
}

bool writeFile(const QString &path, const QByteArray &text, bool executable = false)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size())
        return false;
    file.close();
    if (executable)
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                            QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                            QFile::ExeOther);
    return true;
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The pids whose parent is `parent` (from /proc): sshd's per-connection processes.
QList<pid_t> childrenOf(pid_t parent)
{
    QList<pid_t> children;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool isPid = false;
        const pid_t pid = entry.toInt(&isPid);
        if (!isPid)
            continue;
        const QString stat = readText(QStringLiteral("/proc/%1/stat").arg(pid));
        // "pid (name) state ppid ...": the name may hold blanks, so read after the last ')'.
        const QStringList fields =
            stat.mid(stat.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
        if (fields.size() > 1 && fields[1].toInt() == parent)
            children.append(pid);
    }
    return children;
}

} // namespace

class TestCuwbRemote : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void devicesShowTheRemoteGpu();
    void runSendsTheImageAndTheInputFiles();
    void gpuNewerThanThisCompilerGetsPtx();
    void tooLargeInputFileIsRefused();
    void sweepRunsOverSsh();
    void droppedConnectionIsReportedAndTheNextPointReconnects();
    void ctrlCReachesTheRemoteWorker();
    void versionMismatchIsRefused();
    void unknownHostKeyIsExplained();
    void missingRemoteCuwbIsExplained();
    void refusedConnectionIsExplained();
    void commandTransportTakesTheSamePath();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QString wrapper(const QString &name, const QString &worker, const QString &version);

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
};

QString TestCuwbRemote::wrapper(const QString &name, const QString &worker, const QString &version)
{
    // The remote "cuwb": drops the "worker" word and starts the stand-in with its mode.
    const QString file = path(name);
    writeFile(file,
              QStringLiteral("#!/bin/sh\n[ \"$1\" = worker ] && shift\n"
                             "export CUWB_FAKE_WORKER_VERSION='%1'\n"
                             "export CUWB_FAKE_WORKER_REQUESTS='%2'\n"
                             "export CUWB_FAKE_WORKER_LOG='%3'\n"
                             "exec %4\n")
                  .arg(version, path(QStringLiteral("requests.log")),
                       path(QStringLiteral("worker.log")), worker)
                  .toUtf8(),
              true);
    return file;
}

void TestCuwbRemote::initTestCase()
{
    const QString sshd = QStringLiteral("/usr/sbin/sshd");
    for (const QString &program :
         {sshd, QStringLiteral("/usr/bin/ssh"), QStringLiteral("/usr/bin/ssh-keygen")}) {
        if (!QFile::exists(program))
            QSKIP(qPrintable(program + QStringLiteral(" is missing: install openssh-server and "
                                                      "openssh-client to run the remote tests")));
    }
    // sshd refuses to start without its privilege separation folder (made by its service).
    QDir().mkpath(QStringLiteral("/run/sshd"));
    if (!QFile::exists(QStringLiteral("/run/sshd")))
        QSKIP("sshd needs /run/sshd, which this user cannot create");
    QVERIFY(m_dir.isValid());
    for (const QString &key :
         {QStringLiteral("hostkey"), QStringLiteral("userkey"), QStringLiteral("otherhostkey")}) {
        QCOMPARE(QProcess::execute(QStringLiteral("/usr/bin/ssh-keygen"),
                                   {QStringLiteral("-q"), QStringLiteral("-t"),
                                    QStringLiteral("ed25519"), QStringLiteral("-N"), QString(),
                                    QStringLiteral("-f"), path(key)}),
                 0);
    }
    QVERIFY(QFile::copy(path(QStringLiteral("userkey.pub")), path(QStringLiteral("authorized"))));
    m_port = freePort();
    QVERIFY(m_port > 0);
    const QString user = QString::fromLocal8Bit(getpwuid(getuid())->pw_name);
    QVERIFY(writeFile(
        path(QStringLiteral("sshd_config")),
        QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\n"
                       "AuthorizedKeysFile %3\nPidFile none\nUsePAM no\n"
                       "StrictModes no\nPasswordAuthentication no\n"
                       "KbdInteractiveAuthentication no\nPubkeyAuthentication yes\n"
                       "PermitRootLogin prohibit-password\nAllowUsers %4\n"
                       "LogLevel ERROR\n")
            .arg(m_port)
            .arg(path(QStringLiteral("hostkey")), path(QStringLiteral("authorized")), user)
            .toUtf8()));
    const QString hostKey = readText(path(QStringLiteral("hostkey.pub"))).trimmed();
    QVERIFY(writeFile(path(QStringLiteral("known_hosts")),
                      QStringLiteral("[127.0.0.1]:%1 %2\n").arg(m_port).arg(hostKey).toUtf8()));
    QVERIFY(writeFile(path(QStringLiteral("empty_known_hosts")), QByteArray()));
    const QString client = QStringLiteral("Host *\n  IdentityFile %1\n  IdentitiesOnly yes\n"
                                          "  UserKnownHostsFile %2\n  GlobalKnownHostsFile "
                                          "/dev/null\n  StrictHostKeyChecking yes\n"
                                          "  LogLevel ERROR\n");
    QVERIFY(writeFile(
        path(QStringLiteral("ssh_config")),
        client.arg(path(QStringLiteral("userkey")), path(QStringLiteral("known_hosts"))).toUtf8()));
    QVERIFY(writeFile(
        path(QStringLiteral("ssh_config_unknown")),
        client.arg(path(QStringLiteral("userkey")), path(QStringLiteral("empty_known_hosts")))
            .toUtf8()));
    // A key the server does not know: authentication is refused.
    QVERIFY(writeFile(
        path(QStringLiteral("ssh_config_badkey")),
        client.arg(path(QStringLiteral("otherhostkey")), path(QStringLiteral("known_hosts")))
            .toUtf8()));

    const QString version = QString::fromStdString(cuwb::workbenchVersion());
    const QString fake = QStringLiteral(CUWB_FAKE_WORKER_PATH);
    const QString sweep = QStringLiteral(CUWB_FAKE_SWEEP_WORKER_PATH);
    const QString marker = path(QStringLiteral("hang-marker"));
    const auto target = [&](const char *name, const QString &config, const QString &cuwb) {
        QJsonObject object;
        object.insert(QStringLiteral("name"), QLatin1String(name));
        object.insert(QStringLiteral("host"), QStringLiteral("127.0.0.1"));
        object.insert(QStringLiteral("port"), m_port);
        object.insert(QStringLiteral("user"), user);
        object.insert(QStringLiteral("cuwb"), cuwb);
        object.insert(QStringLiteral("sshOptions"), QJsonArray{QStringLiteral("-F"), path(config)});
        return object;
    };
    QJsonArray targets{
        target("gpu", QStringLiteral("ssh_config"),
               wrapper(QStringLiteral("gpu.sh"), fake + QStringLiteral(" measure-ok"), version)),
        target("sweeper", QStringLiteral("ssh_config"),
               wrapper(QStringLiteral("sweep.sh"), sweep, version)),
        target("hangs", QStringLiteral("ssh_config"),
               wrapper(QStringLiteral("hang.sh"), sweep + QStringLiteral(" hang-at-3 ") + marker,
                       version)),
        target(
            "cancels", QStringLiteral("ssh_config"),
            wrapper(QStringLiteral("cancel.sh"), sweep + QStringLiteral(" cancel-at-3"), version)),
        target("future", QStringLiteral("ssh_config"),
               wrapper(QStringLiteral("future.sh"),
                       QStringLiteral("env CUWB_FAKE_WORKER_SM=9.9 ") + fake +
                           QStringLiteral(" measure-ok"),
                       version)),
        target("old", QStringLiteral("ssh_config"),
               wrapper(QStringLiteral("old.sh"), sweep, QStringLiteral("0.0.1"))),
        target("nocuwb", QStringLiteral("ssh_config"), path(QStringLiteral("no/such/cuwb"))),
        target("unknownkey", QStringLiteral("ssh_config_unknown"),
               path(QStringLiteral("sweep.sh"))),
        target("badkey", QStringLiteral("ssh_config_badkey"), path(QStringLiteral("sweep.sh"))),
    };
    QJsonObject local;
    local.insert(QStringLiteral("name"), QStringLiteral("local-gpu"));
    local.insert(QStringLiteral("kind"), QStringLiteral("command"));
    local.insert(QStringLiteral("command"), QJsonArray{QStringLiteral("/bin/sh")});
    local.insert(QStringLiteral("cuwb"), path(QStringLiteral("gpu.sh")));
    targets.append(local);
    QJsonObject document;
    document.insert(QStringLiteral("targets"), targets);
    QVERIFY(writeFile(path(QStringLiteral("targets.json")), QJsonDocument(document).toJson()));
    qputenv("CUWB_TARGETS", path(QStringLiteral("targets.json")).toUtf8());

    m_sshd.setProcessChannelMode(QProcess::MergedChannels);
    m_sshd.start(sshd, {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                        path(QStringLiteral("sshd_config"))});
    QVERIFY(m_sshd.waitForStarted());
    for (int i = 0; i < 100 && !accepts(m_port); ++i) {
        if (m_sshd.state() != QProcess::Running)
            QSKIP(qPrintable(QStringLiteral("sshd did not start: ") +
                             QString::fromLocal8Bit(m_sshd.readAll())));
        QThread::msleep(50);
    }
    QVERIFY2(accepts(m_port), "sshd does not listen");
}

void TestCuwbRemote::cleanupTestCase()
{
    // The worker that hung on purpose outlives the ssh connection that was cut, as a process
    // on a remote host would: it named itself in the marker.
    QFile marker(path(QStringLiteral("hang-marker")));
    if (marker.open(QIODevice::ReadOnly)) {
        const qint64 pid = marker.readAll().trimmed().toLongLong();
        if (pid > 0)
            ::kill(pid_t(pid), SIGKILL);
    }
    if (m_sshd.state() != QProcess::NotRunning) {
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(3000)) {
            m_sshd.kill();
            m_sshd.waitForFinished();
        }
    }
}

void TestCuwbRemote::devicesShowTheRemoteGpu()
{
    const CuwbRun run =
        runCuwb({QStringLiteral("devices"), QStringLiteral("--on"), QStringLiteral("gpu")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith(QStringLiteral("On 127.0.0.1: cuwb ") +
                                QString::fromStdString(cuwb::workbenchVersion())),
             qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("GPU 0: Fake H200 (sm_90), 132 SMs")),
             qPrintable(run.out));
}

void TestCuwbRemote::runSendsTheImageAndTheInputFiles()
{
    // A project whose input comes from a file on this machine: the file travels in the
    // request, and so does the image compiled here for the remote GPU (sm_90 from the hello).
    QByteArray input;
    for (int i = 0; i < 1024; ++i) {
        const float value = float(i) * 0.5f;
        input.append(reinterpret_cast<const char *>(&value), sizeof value);
    }
    QVERIFY(writeFile(path(QStringLiteral("a.bin")), input));
    const QString project = path(QStringLiteral("from_file.cuwb"));
    QVERIFY(writeFile(project,
                      R"json({"schemaVersion": 1, "name": "from_file",
 "source": {"inline": "extern \"C\" __global__ void add_one(const float *a, float *c, int n)\n{\n    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)\n        c[i] = a[i] + 1.0f;\n}\n"},
 "launch": {"kernel": "add_one", "variables": [{"name": "N", "value": "1024"}],
   "arguments": [
     {"parameter": "a", "kind": "buffer", "elementType": "float", "count": "N", "role": "in",
      "init": {"kind": "file", "file": "a.bin"}},
     {"parameter": "c", "kind": "buffer", "elementType": "float", "count": "N", "role": "out"},
     {"parameter": "n", "kind": "scalar", "elementType": "int", "value": "N"}],
   "grid": ["ceil(N / block.x)", "1", "1"], "block": ["256", "1", "1"]
}
})json"));
    QFile::remove(path(QStringLiteral("requests.log")));
    const CuwbRun run =
        runCuwb({QStringLiteral("run"), project, QStringLiteral("--on"), QStringLiteral("gpu")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("from_file.cuwb: PASSED")),
             qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("on Fake GPU (sm_90)")), qPrintable(run.out));
    const QStringList lines =
        readText(path(QStringLiteral("requests.log"))).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(lines.size() >= 2, qPrintable(lines.join(QLatin1Char('\n'))));
    const QJsonObject hello = QJsonDocument::fromJson(lines[0].toUtf8()).object();
    QCOMPARE(hello.value(QStringLiteral("type")).toString(), QStringLiteral("hello"));
    QCOMPARE(hello.value(QStringLiteral("cuwb")).toString(),
             QString::fromStdString(cuwb::workbenchVersion()));
    QJsonObject request;
    for (const QString &line : lines) {
        const QJsonObject message = QJsonDocument::fromJson(line.toUtf8()).object();
        if (message.value(QStringLiteral("type")).toString() == QStringLiteral("run"))
            request = message;
    }
    QVERIFY2(!request.isEmpty(), qPrintable(lines.join(QLatin1Char('\n'))));
    const QJsonArray files = request.value(QStringLiteral("files")).toArray();
    QCOMPARE(files.size(), 1);
    QCOMPARE(files[0].toObject().value(QStringLiteral("path")).toString(),
             path(QStringLiteral("a.bin")));
    QCOMPARE(QByteArray::fromBase64(
                 files[0].toObject().value(QStringLiteral("data")).toString().toLatin1()),
             input);
    const QJsonObject image = request.value(QStringLiteral("request"))
                                  .toObject()
                                  .value(QStringLiteral("image"))
                                  .toObject();
    QCOMPARE(
        image.value(QStringLiteral("options")).toObject().value(QStringLiteral("arch")).toString(),
        QStringLiteral("sm_90"));
    QVERIFY(!image.value(QStringLiteral("cubin")).toString().isEmpty());
    QVERIFY(image.value(QStringLiteral("ptx")).toString().contains(QStringLiteral(".entry")));
}

void TestCuwbRemote::gpuNewerThanThisCompilerGetsPtx()
{
    // The remote GPU is an sm_99, which this NVRTC does not know: the image is compiled for
    // the newest architecture below it that it knows, and goes as PTX alone (the driver there
    // JIT-compiles it; the worker's side is in preparedlaunch.cpp).
    QString expected;
    for (const std::string &arch : cuwb::nvrtcSupportedArchs()) {
        if (arch == "sm_99")
            QSKIP("this NVRTC knows sm_99");
        if (QString::fromStdString(arch).mid(3).toInt() <= 99)
            expected = QString::fromStdString(arch);
    }
    QVERIFY(!expected.isEmpty());
    QFile::remove(path(QStringLiteral("requests.log")));
    const CuwbRun run = runCuwb({QStringLiteral("run"), path(QStringLiteral("from_file.cuwb")),
                                 QStringLiteral("--on"), QStringLiteral("future")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("from_file.cuwb: PASSED")),
             qPrintable(run.out + run.err));
    QJsonObject request;
    const QStringList lines =
        readText(path(QStringLiteral("requests.log"))).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        const QJsonObject message = QJsonDocument::fromJson(line.toUtf8()).object();
        if (message.value(QStringLiteral("type")).toString() == QStringLiteral("run"))
            request = message;
    }
    const QJsonObject image = request.value(QStringLiteral("request"))
                                  .toObject()
                                  .value(QStringLiteral("image"))
                                  .toObject();
    QCOMPARE(
        image.value(QStringLiteral("options")).toObject().value(QStringLiteral("arch")).toString(),
        expected);
    QCOMPARE(image.value(QStringLiteral("cubin")).toString(), QString());
    QVERIFY(image.value(QStringLiteral("ptx")).toString().contains(QStringLiteral(".entry")));
}

void TestCuwbRemote::tooLargeInputFileIsRefused()
{
    // 65 MiB (a sparse file): more than a request carries; nothing is sent.
    QFile big(path(QStringLiteral("big.bin")));
    QVERIFY(big.open(QIODevice::WriteOnly));
    QVERIFY(big.resize(qint64(65) << 20));
    big.close();
    const QString project = path(QStringLiteral("big.cuwb"));
    QString text = readText(path(QStringLiteral("from_file.cuwb")));
    QVERIFY(!text.isEmpty());
    text.replace(QStringLiteral("a.bin"), QStringLiteral("big.bin"));
    text.replace(QStringLiteral("\"1024\""), QStringLiteral("\"17039360\""));
    QVERIFY(writeFile(project, text.toUtf8()));
    const CuwbRun run =
        runCuwb({QStringLiteral("run"), project, QStringLiteral("--on"), QStringLiteral("gpu")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(QStringLiteral("carries at most 64 MiB of files")),
             qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(path(QStringLiteral("big.bin"))), qPrintable(run.out));
}

void TestCuwbRemote::sweepRunsOverSsh()
{
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                                 QStringLiteral("--on"), QStringLiteral("sweeper")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("on Fake H200: 7 points")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("[7/7]")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("median 1.000 µs")), qPrintable(run.out));
}

void TestCuwbRemote::droppedConnectionIsReportedAndTheNextPointReconnects()
{
    // The remote worker holds the third point; the test cuts the connection by killing sshd's
    // process for it. The point is reported as lost, and the next points reconnect.
    QFile::remove(path(QStringLiteral("hang-marker")));
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(QStringLiteral(CUWB_CLI_PATH),
                  {QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"), QStringLiteral("--on"),
                   QStringLiteral("hangs")});
    QVERIFY(process.waitForStarted());
    QByteArray out;
    while (!QFile::exists(path(QStringLiteral("hang-marker"))) &&
           process.state() == QProcess::Running) {
        process.waitForReadyRead(100);
        out += process.readAllStandardOutput();
    }
    QVERIFY2(QFile::exists(path(QStringLiteral("hang-marker"))), out.constData());
    const QList<pid_t> sessions = childrenOf(pid_t(m_sshd.processId()));
    QVERIFY(!sessions.isEmpty());
    for (const pid_t session : sessions)
        ::kill(session, SIGTERM);
    QVERIFY(process.waitForFinished(60000));
    out += process.readAllStandardOutput();
    const QString text = QString::fromUtf8(out);
    QVERIFY2(text.contains(QStringLiteral("[3/7] block.x=128: failed: The connection to 127.0.0.1 "
                                          "was lost during the run")),
             qPrintable(text + QString::fromUtf8(process.readAllStandardError())));
    QVERIFY2(text.contains(QStringLiteral("[6/7] block.x=1024: median")), qPrintable(text));
}

void TestCuwbRemote::ctrlCReachesTheRemoteWorker()
{
    // The remote worker holds the third point until a cancel comes over the link (it logs the
    // cancel it read); Ctrl+C to cuwb sends it, and what was measured is kept, as locally.
    const QString log = path(QStringLiteral("worker.log"));
    QFile::remove(log);
    QProcess process;
    process.start(QStringLiteral(CUWB_CLI_PATH),
                  {QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"), QStringLiteral("--on"),
                   QStringLiteral("cancels")});
    QVERIFY(process.waitForStarted());
    QByteArray out;
    while (readText(log).count(QStringLiteral("measure")) < 3 &&
           process.state() == QProcess::Running) {
        process.waitForReadyRead(50);
        out += process.readAllStandardOutput();
    }
    QCOMPARE(readText(log).count(QStringLiteral("measure")), 3);
    ::kill(pid_t(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(30000));
    out += process.readAllStandardOutput();
    QCOMPARE(process.exitCode(), 130);
    const QString text = QString::fromUtf8(out);
    QVERIFY2(text.contains(QStringLiteral("measured 2 of 7 points")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral(", cancelled")), qPrintable(text));
    QVERIFY2(readText(log).contains(QStringLiteral("measure\nmeasure\nmeasure\ncancel\n")),
             qPrintable(readText(log)));
}

void TestCuwbRemote::versionMismatchIsRefused()
{
    const CuwbRun run =
        runCuwb({QStringLiteral("devices"), QStringLiteral("--on"), QStringLiteral("old")});
    QCOMPARE(run.exitCode, 1);
    const QString version = QString::fromStdString(cuwb::workbenchVersion());
    QVERIFY2(run.err.contains(QStringLiteral("the worker on 127.0.0.1 is cuwb 0.0.1 but this "
                                             "program is cuwb %1; install cuwb %1 there")
                                  .arg(version)),
             qPrintable(run.err));
}

void TestCuwbRemote::unknownHostKeyIsExplained()
{
    const CuwbRun run = runCuwb({QStringLiteral("sweep"), dataFile("sweep_add_one.cuwb"),
                                 QStringLiteral("--on"), QStringLiteral("unknownkey")});
    QVERIFY(run.exitCode != 0);
    const QString text = run.out + run.err;
    QVERIFY2(text.contains(QStringLiteral("ssh does not know the host key of 127.0.0.1")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("`ssh-keyscan 127.0.0.1 >> ~/.ssh/known_hosts`")),
             qPrintable(text));
}

void TestCuwbRemote::missingRemoteCuwbIsExplained()
{
    const CuwbRun run =
        runCuwb({QStringLiteral("devices"), QStringLiteral("--on"), QStringLiteral("nocuwb")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("there is no cuwb on 127.0.0.1")),
             qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("the portable tarball (scripts/make-portable.sh")),
             qPrintable(run.err));
}

void TestCuwbRemote::refusedConnectionIsExplained()
{
    // A key the server does not accept, then a port nobody listens on.
    const CuwbRun denied =
        runCuwb({QStringLiteral("devices"), QStringLiteral("--on"), QStringLiteral("badkey")});
    QCOMPARE(denied.exitCode, 1);
    QVERIFY2(denied.err.contains(QStringLiteral("ssh could not log in to 127.0.0.1: the server "
                                                "refused every key")),
             qPrintable(denied.err));
    const int closedPort = freePort();
    const CuwbRun refused = runCuwb({QStringLiteral("devices"), QStringLiteral("--on"),
                                     QStringLiteral("127.0.0.1:%1").arg(closedPort)});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("ssh could not connect to 127.0.0.1: the "
                                                 "connection was refused")),
             qPrintable(refused.err));
}

void TestCuwbRemote::commandTransportTakesTheSamePath()
{
    // A local command as the transport: the same handshake and messages as over ssh.
    const CuwbRun run =
        runCuwb({QStringLiteral("devices"), QStringLiteral("--on"), QStringLiteral("local-gpu")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith(QStringLiteral("On local-gpu: cuwb ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("Fake H200")), qPrintable(run.out));
    const CuwbRun usage = runCuwb({QStringLiteral("devices"), QStringLiteral("--on"),
                                   QStringLiteral("no-such-target:99999")});
    QCOMPARE(usage.exitCode, 2);
    QVERIFY2(usage.err.contains(QStringLiteral("no valid port")), qPrintable(usage.err));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbRemote)
} // namespace tst_cuwbremote
} // namespace

#include "tst_cuwbremote.moc"
