// The sandbox a confined tool runs in (util/sandbox.h), through runTool: it reads what its
// policy names and nothing else (a file one folder over is "Permission denied"), writes only
// where it may, cannot open a network socket (a local one still works), and its children are
// held to the same rules; a tool whose sandbox cannot be applied does not run. The same
// commands without the sandbox succeed, so each refusal is the sandbox's. Skips, saying why,
// where the kernel has no Landlock.
#include "util/sandbox.h"
#include "util/toolprocess.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sandbox {

namespace {

void writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

ToolRun shell(const std::string &script, const Sandbox *sandbox)
{
    ToolLimits limits;
    limits.timeoutMs = 20000;
    limits.sandbox = sandbox;
    return runTool({"/bin/bash", "-c", script}, limits);
}

} // namespace

class TestSandbox : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void readsOnlyWhatItMay();
    void writesOnlyWhereItMay();
    void reachesNoNetwork();
    void childrenAreHeldToo();
    void resourcesAreLimited();
    void processesAreLimited();

private:
    QTemporaryDir m_root;
    std::string m_inside;  // readable
    std::string m_scratch; // writable
    std::string m_outside; // neither
    std::unique_ptr<Sandbox> m_sandbox;
};

void TestSandbox::initTestCase()
{
    if (const std::string why = sandboxUnavailableReason(); !why.empty())
        QSKIP(why.c_str());
    QVERIFY(m_root.isValid());
    const QDir root(m_root.path());
    for (const char *name : {"inside", "scratch", "outside"})
        QVERIFY(root.mkdir(QString::fromLatin1(name)));
    writeFile(root.filePath(QStringLiteral("inside/data.txt")), "inside data\n");
    writeFile(root.filePath(QStringLiteral("outside/secret.txt")), "TOPSECRET\n");
    m_inside = root.filePath(QStringLiteral("inside")).toStdString();
    m_scratch = root.filePath(QStringLiteral("scratch")).toStdString();
    m_outside = root.filePath(QStringLiteral("outside")).toStdString();
    SandboxPolicy policy = compilerSandboxPolicy({});
    policy.readable.push_back(m_inside);
    policy.writable.push_back(m_scratch);
    m_sandbox = std::make_unique<Sandbox>(policy);
    QVERIFY(m_sandbox->abi() >= 1);
}

void TestSandbox::readsOnlyWhatItMay()
{
    const ToolRun in = shell("cat " + m_inside + "/data.txt", m_sandbox.get());
    QVERIFY2(in.succeeded(), in.err.c_str());
    QCOMPARE(in.out, std::string("inside data\n"));
    const ToolRun out = shell("cat " + m_outside + "/secret.txt", m_sandbox.get());
    QVERIFY(!out.succeeded());
    QVERIFY2(out.err.find("Permission denied") != std::string::npos, out.err.c_str());
    QVERIFY(out.out.find("TOPSECRET") == std::string::npos);
    // Nor can it list the folder, or the home of whoever runs it.
    QVERIFY(!shell("ls " + m_outside, m_sandbox.get()).succeeded());
    QVERIFY(shell("cat " + m_outside + "/secret.txt", nullptr).succeeded());
}

void TestSandbox::writesOnlyWhereItMay()
{
    QVERIFY(
        shell("echo x > " + m_scratch + "/made.txt && mkdir " + m_scratch + "/sub", m_sandbox.get())
            .succeeded());
    QVERIFY(QFile::exists(QString::fromStdString(m_scratch + "/made.txt")));
    const ToolRun inside = shell("echo x > " + m_inside + "/made.txt", m_sandbox.get());
    QVERIFY(!inside.succeeded());
    QVERIFY2(inside.err.find("Permission denied") != std::string::npos, inside.err.c_str());
    QVERIFY(!shell("rm " + m_inside + "/data.txt", m_sandbox.get()).succeeded());
    QVERIFY(QFile::exists(QString::fromStdString(m_inside + "/data.txt")));
    QVERIFY(shell("echo x > /dev/null", m_sandbox.get()).succeeded());
}

void TestSandbox::reachesNoNetwork()
{
    // bash opens a TCP socket for /dev/tcp: refused before any connection is tried. Without
    // the sandbox the same line gets as far as the network (nothing listens on port 9).
    const std::string connect = "exec 3<>/dev/tcp/127.0.0.1/9";
    const ToolRun confined = shell(connect, m_sandbox.get());
    QVERIFY(!confined.succeeded());
    QVERIFY2(confined.err.find("Permission denied") != std::string::npos, confined.err.c_str());
    const ToolRun open = shell(connect, nullptr);
    QVERIFY2(open.err.find("Permission denied") == std::string::npos, open.err.c_str());
    // A local socket is no network: a socket pair works.
    if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
        QSKIP("the local socket's half needs /usr/bin/python3");
    const ToolRun local = shell("/usr/bin/python3 -c 'import socket; a, b = socket.socketpair(); "
                                "a.send(b\"ok\"); print(b.recv(2).decode())'",
                                m_sandbox.get());
    QVERIFY2(local.succeeded(), local.err.c_str());
    QCOMPARE(local.out, std::string("ok\n"));
}

void TestSandbox::childrenAreHeldToo()
{
    const ToolRun nested = shell("bash -c 'cat " + m_outside + "/secret.txt'", m_sandbox.get());
    QVERIFY(!nested.succeeded());
    QVERIFY(nested.out.find("TOPSECRET") == std::string::npos);
}

// CPU time, memory and file size: a busy loop is stopped by SIGXCPU after its second, an
// allocation past the address-space limit fails, a file cannot grow past its limit.
void TestSandbox::resourcesAreLimited()
{
    SandboxPolicy policy = compilerSandboxPolicy({});
    policy.writable.push_back(m_scratch);
    policy.cpuSeconds = 1;
    policy.maxAddressBytes = std::uint64_t(256) << 20;
    policy.maxFileBytes = 4096;
    const Sandbox limited(policy);
    const ToolRun busy = shell("while :; do :; done", &limited);
    QCOMPARE(busy.signal, SIGXCPU);
    const ToolRun big = shell("head -c 8192 /dev/zero > " + m_scratch + "/big.bin", &limited);
    QVERIFY(!big.succeeded());
    QCOMPARE(QFileInfo(QString::fromStdString(m_scratch + "/big.bin")).size(), qint64(4096));
    if (QFile::exists(QStringLiteral("/usr/bin/python3"))) {
        const ToolRun hog = shell("/usr/bin/python3 -c 'x = bytearray(512 << 20)'", &limited);
        QVERIFY(!hog.succeeded());
        QVERIFY2(hog.err.find("MemoryError") != std::string::npos, hog.err.c_str());
    }
}

// A fork bomb stops at the limit: a spawner that tries to start more children (each asleep)
// than the user's tasks plus the sandbox's allowance gets EAGAIN before the end. Root is not
// held to RLIMIT_NPROC, so as root the spawner runs as nobody (setpriv).
void TestSandbox::processesAreLimited()
{
    if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
        QSKIP("needs /usr/bin/python3 for a spawner that stops at its first refused fork");
    const bool root = ::getuid() == 0;
    if (root && !QFile::exists(QStringLiteral("/usr/bin/setpriv")))
        QSKIP("runs as root, whom RLIMIT_NPROC does not hold, and has no setpriv to run as nobody");
    SandboxPolicy policy = compilerSandboxPolicy({});
    policy.moreProcesses = 16;
    const Sandbox limited(policy);
    const std::uint64_t tries = userTaskCount() + 200;
    const std::string spawner = "import os, sys, time\n"
                                "started = 0\n"
                                "for i in range(" +
                                std::to_string(tries) +
                                "):\n"
                                "    try:\n"
                                "        if os.fork() == 0:\n"
                                "            time.sleep(2)\n"
                                "            os._exit(0)\n"
                                "        started += 1\n"
                                "    except OSError as e:\n"
                                "        print(\"refused after\", started, e.errno)\n"
                                "        break\n"
                                "else:\n"
                                "    print(\"all started\", started)\n";
    const std::string as =
        root ? "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
    // Inline: nobody may not read the test's own folder.
    const ToolRun bomb = shell(as + "/usr/bin/python3 -c '" + spawner + "'", &limited);
    if (root && bomb.err.find("setpriv:") != std::string::npos)
        QSKIP(
            ("runs as root, whom RLIMIT_NPROC does not hold, and cannot become nobody: " + bomb.err)
                .c_str());
    QVERIFY2(bomb.out.find("refused after") == 0, (bomb.out + bomb.err).c_str());
    QVERIFY2(bomb.out.find(" " + std::to_string(EAGAIN)) != std::string::npos, bomb.out.c_str());
}

CUWB_TEST_GUILESS_MAIN(TestSandbox)
} // namespace tst_sandbox
} // namespace

#include "tst_sandbox.moc"
