// End-to-end tests of `cuwb run` and `cuwb worker` without a GPU: a project that cannot run
// exits 1 with the reason (a grader must see it did not run), a malformed or unreadable
// project exits 2, and the worker answers the protocol on stdin/stdout with nothing else on
// stdout. Runs on a GPU are tested in tests/gpu.
#include "device/deviceinfo.h"
#include "worker/protocol.h"

#include "cuwbprocess.h"
#include "util/sandbox.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_cuwbrun {

namespace {

using Run = CuwbRun;

Run runCuwb(const QStringList &arguments, const QByteArray &input = QByteArray())
{
    return runCuwbProcess(arguments, QString(), input);
}

// What grading a folder with the built-in worker needs on this machine: nothing where the
// kernel can confine the compiles (Landlock), else --unconfined, without which grading refuses
// (gradingWithoutASandboxIsRefused).
QStringList gradingOptions()
{
    return cuwb::sandboxUnavailableReason().empty() ? QStringList()
                                                    : QStringList{QStringLiteral("--unconfined")};
}

QString sampleProject()
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb");
}

nlohmann::json parseJson(const QString &text)
{
    return nlohmann::json::parse(text.toStdString());
}

// Why this machine cannot run kernels, as the worker will say it; empty when it can.
// A folder of student projects: two copies of add_one (one in a sub-folder), a file that is
// no project, and an unreadable project when `withMalformed`. Returns the sorted project paths.
QStringList makeSubmissions(const QTemporaryDir &dir, bool withMalformed)
{
    const QString root = dir.path();
    QDir().mkpath(root + QStringLiteral("/bob"));
    QDir().mkpath(root + QStringLiteral("/alice/lab1"));
    QFile::copy(dataFile("add_one.cuwb"), root + QStringLiteral("/bob/add_one.cuwb"));
    QFile::copy(dataFile("add_one.cuwb"), root + QStringLiteral("/alice/lab1/add_one.cuwb"));
    QFile notes(root + QStringLiteral("/alice/notes.txt"));
    notes.open(QIODevice::WriteOnly);
    notes.write("not a project\n");
    QStringList projects{root + QStringLiteral("/alice/lab1/add_one.cuwb"),
                         root + QStringLiteral("/bob/add_one.cuwb")};
    if (withMalformed) {
        QFile::copy(dataFile("malformed.cuwb"), root + QStringLiteral("/carol.cuwb"));
        projects.append(root + QStringLiteral("/carol.cuwb"));
    }
    return projects;
}

QString noGpuReason()
{
    const DeviceQuery query = queryDevices();
    return query.devices.empty() ? QString::fromStdString(query.message) : QString();
}

} // namespace

class TestCuwbRun : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void sampleWithoutGpuExitsOne();
    void jsonWithoutGpu();
    void severalProjectsGiveAnArray();
    void malformedProjectExitsTwo_data();
    void malformedProjectExitsTwo();
    void malformedAmongGoodExitsTwo();
    void rejectsBadUsage_data();
    void rejectsBadUsage();
    void workerServesProtocolWithoutGpu();
    void workerAnswersGarbageWithError();
    void helpListsRunAndWorker();
    void folderRunsEveryProjectSorted();
    void folderSummaryJsonWithoutGpu();
    void folderSummaryTextWithoutGpu();
    void emptyFolderIsAUsageError();
    void outOfBoundsWritesReadAsFailed();
    void wrongOutputReadsAsFailed();
    void everyCheckIsReported();
    void aDeeplyNestedSubmissionFailsAlone();
    void aProjectFileLinkedOutIsRefusedUnread();
    void gradingWithoutASandboxIsRefused();

private:
    QString m_reason;
};

void TestCuwbRun::init()
{
    m_reason = noGpuReason();
}

void TestCuwbRun::sampleWithoutGpuExitsOne()
{
    if (m_reason.isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu runs the samples");
    }
    const Run run = runCuwb({QStringLiteral("run"), sampleProject()});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(QStringLiteral(": FAILED: the kernel could not start (no-device)")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(m_reason), qPrintable(run.out + run.err));
    QVERIFY(!run.out.contains(QStringLiteral("PASSED")));
}

void TestCuwbRun::jsonWithoutGpu()
{
    if (m_reason.isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu runs projects");
    }
    const Run run =
        runCuwb({QStringLiteral("run"), dataFile("add_one.cuwb"), QStringLiteral("--json"),
                 QStringLiteral("--deadline"), QStringLiteral("2.5")});
    QCOMPARE(run.exitCode, 1);
    const nlohmann::json document = parseJson(run.out);
    QVERIFY(document.is_object());
    QCOMPARE(QString::fromStdString(document.at("project").get<std::string>()),
             dataFile("add_one.cuwb"));
    QCOMPARE(document.at("passed").get<bool>(), false);
    const RunResult result = document.at("result").get<RunResult>();
    QCOMPARE(result.status, RunStatus::NoDevice);
    const nlohmann::json &outcome = document.at("result").at("outcome");
    QCOMPARE(outcome.at("kernel").get<std::string>(), std::string("not-started"));
    QCOMPARE(outcome.at("verification").get<std::string>(), std::string("not-run"));
    QVERIFY2(QString::fromStdString(result.message).contains(m_reason), result.message.c_str());
}

void TestCuwbRun::severalProjectsGiveAnArray()
{
    if (m_reason.isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu runs projects");
    }
    const Run run = runCuwb({QStringLiteral("run"), QStringLiteral("--json"),
                             dataFile("add_one.cuwb"), dataFile("add_one.cuwb")});
    QCOMPARE(run.exitCode, 1);
    const nlohmann::json document = parseJson(run.out);
    QVERIFY(document.is_array());
    QCOMPARE(document.size(), std::size_t(2));
    for (const nlohmann::json &entry : document) {
        QCOMPARE(entry.at("passed").get<bool>(), false);
        QCOMPARE(entry.at("result").at("status").get<std::string>(), std::string("no-device"));
    }
}

void TestCuwbRun::malformedProjectExitsTwo_data()
{
    QTest::addColumn<QString>("project");
    QTest::addColumn<QString>("message");
    QTest::newRow("bad json") << dataFile("malformed.cuwb") << QStringLiteral("line 4");
    QTest::newRow("missing source")
        << dataFile("missing_source.cuwb") << QStringLiteral("no_such_kernel.cu");
    QTest::newRow("no such project")
        << dataFile("no_such_project.cuwb") << QStringLiteral("no_such_project.cuwb");
}

void TestCuwbRun::malformedProjectExitsTwo()
{
    QFETCH(QString, project);
    QFETCH(QString, message);
    const Run run = runCuwb({QStringLiteral("run"), project});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.startsWith(QStringLiteral("cuwb run: ") + project + QStringLiteral(": ")),
             qPrintable(run.err));
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
}

void TestCuwbRun::malformedAmongGoodExitsTwo()
{
    const Run run = runCuwb({QStringLiteral("run"), QStringLiteral("--json"),
                             dataFile("malformed.cuwb"), dataFile("add_one.cuwb")});
    QCOMPARE(run.exitCode, 2);
    const nlohmann::json document = parseJson(run.out);
    QCOMPARE(document.size(), std::size_t(2));
    QVERIFY(document[0].contains("error"));
    QVERIFY(!document[0].contains("result"));
    QVERIFY(document[1].contains("result")); // the good one still ran (or tried to)
}

void TestCuwbRun::rejectsBadUsage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("no project") << QStringList{QStringLiteral("run")};
    QTest::newRow("negative deadline")
        << QStringList{QStringLiteral("run"), dataFile("add_one.cuwb"),
                       QStringLiteral("--deadline"), QStringLiteral("-1")};
    QTest::newRow("deadline not a number") << QStringList{
        QStringLiteral("run"), dataFile("add_one.cuwb"), QStringLiteral("--deadline=soon")};
    QTest::newRow("bad device") << QStringList{QStringLiteral("run"), dataFile("add_one.cuwb"),
                                               QStringLiteral("--device"), QStringLiteral("x")};
    QTest::newRow("unknown option")
        << QStringList{QStringLiteral("run"), QStringLiteral("--fast"), dataFile("add_one.cuwb")};
    QTest::newRow("worker positional")
        << QStringList{QStringLiteral("worker"), QStringLiteral("extra")};
}

void TestCuwbRun::rejectsBadUsage()
{
    QFETCH(QStringList, arguments);
    const Run run = runCuwb(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY(!run.err.isEmpty());
}

void TestCuwbRun::workerServesProtocolWithoutGpu()
{
    if (m_reason.isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu drives the worker on it");
    }
    RunRequest request;
    request.source = "__global__ void k() {}\n";
    request.launch.kernel = "k";
    std::string input;
    const auto add = [&input](nlohmann::json message, int id) {
        message["id"] = id;
        input += encodeLine(message);
    };
    add(makeHelloRequest(), 1);
    add(makeRunRequest(request), 2);
    add(makePageRequest(PageRequest{"run2/k", 0, 16}), 3);
    add(makeReleaseRequest(), 4);
    add(makeShutdownRequest(), 5);
    add(makeHelloRequest(), 6); // after shutdown: never read

    const Run run = runCuwb({QStringLiteral("worker")}, QByteArray::fromStdString(input));
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5); // one reply per request, nothing else on stdout
    std::vector<nlohmann::json> replies;
    for (const QString &line : lines) {
        replies.push_back(parseJson(line));
    }
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(replies[i].at("id").get<int>(), i + 1);
    }
    const HelloReply hello = parseHelloReply(replies[0]);
    QCOMPARE(hello.protocol, kWorkerProtocolVersion);
    QVERIFY(!hello.device.has_value());
    QCOMPARE(QString::fromStdString(hello.message), m_reason);
    QVERIFY(!hello.nvrtcVersion.empty());

    const RunResult result = parseRunResultReply(replies[1]);
    QCOMPARE(result.status, RunStatus::NoDevice);
    QVERIFY(QString::fromStdString(result.message).contains(m_reason));
    QVERIFY(!replyIsExiting(replies[1]));

    QVERIFY(QString::fromStdString(parseErrorReply(replies[2])).contains(m_reason));
    QCOMPARE(replies[3].at("type").get<std::string>(), std::string("released"));
    QCOMPARE(replies[4].at("type").get<std::string>(), std::string("bye"));
}

void TestCuwbRun::workerAnswersGarbageWithError()
{
    const Run run = runCuwb({QStringLiteral("worker")},
                            QByteArrayLiteral("this is not json\n"
                                              "{\"id\":7,\"type\":\"launch\"}\n"
                                              "{\"id\":8,\"type\":\"page\",\"first\":\"x\"}\n"));
    QCOMPARE(run.exitCode, 0); // end of input ends the worker
    const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    const nlohmann::json first = parseJson(lines[0]);
    QVERIFY(first.at("id").is_null());
    QVERIFY(parseErrorReply(first).starts_with("malformed request: "));
    const nlohmann::json second = parseJson(lines[1]);
    QCOMPARE(second.at("id").get<int>(), 7);
    QVERIFY2(parseErrorReply(second).find("unknown request type 'launch'") != std::string::npos,
             parseErrorReply(second).c_str());
    QCOMPARE(parseJson(lines[2]).at("id").get<int>(), 8);
    QCOMPARE(parseJson(lines[2]).at("type").get<std::string>(), std::string("error"));
}

void TestCuwbRun::helpListsRunAndWorker()
{
    const Run run = runCuwb({QStringLiteral("help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(QStringLiteral("\n  run ")));
    QVERIFY(run.out.contains(QStringLiteral("\n  worker ")));
    const Run runHelp = runCuwb({QStringLiteral("help"), QStringLiteral("run")});
    QCOMPARE(runHelp.exitCode, 0);
    QVERIFY(runHelp.out.startsWith(QStringLiteral("Usage: cuwb run ")));
    const Run workerHelp = runCuwb({QStringLiteral("help"), QStringLiteral("worker")});
    QCOMPARE(workerHelp.exitCode, 0);
    QVERIFY(workerHelp.out.startsWith(QStringLiteral("Usage: cuwb worker")));
}

void TestCuwbRun::folderRunsEveryProjectSorted()
{
    if (m_reason.isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu runs projects");
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList projects = makeSubmissions(dir, false);
    const Run run =
        runCuwb(QStringList{QStringLiteral("run"), dir.path(), QStringLiteral("--json")} +
                gradingOptions());
    QCOMPARE(run.exitCode, 1);
    const nlohmann::json document = parseJson(run.out);
    // Without --summary the format is the one scripts know: an array for several projects.
    QVERIFY(document.is_array());
    QCOMPARE(document.size(), std::size_t(projects.size()));
    for (std::size_t k = 0; k < document.size(); ++k) {
        QCOMPARE(QString::fromStdString(document[k].at("project").get<std::string>()),
                 projects[qsizetype(k)]);
        QCOMPARE(document[k].at("passed").get<bool>(), false);
        const RunResult result = document[k].at("result").get<RunResult>();
        QCOMPARE(result.status, RunStatus::NoDevice);
        QVERIFY2(QString::fromStdString(result.message).contains(m_reason), result.message.c_str());
    }
    // A folder and a file together: the folder's projects, then the file.
    const Run mixed = runCuwb(
        {QStringLiteral("run"), QStringLiteral("--json"), dir.path(), dataFile("add_one.cuwb")});
    QCOMPARE(mixed.exitCode, 1);
    const nlohmann::json mixedDocument = parseJson(mixed.out);
    QCOMPARE(mixedDocument.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(mixedDocument[2].at("project").get<std::string>()),
             dataFile("add_one.cuwb"));
}

void TestCuwbRun::folderSummaryJsonWithoutGpu()
{
    if (m_reason.isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu runs projects");
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList projects = makeSubmissions(dir, true);
    const Run run = runCuwb(QStringList{QStringLiteral("run"), dir.path(), QStringLiteral("--json"),
                                        QStringLiteral("--summary")} +
                            gradingOptions());
    QCOMPARE(run.exitCode, 1); // one submission cannot be read: it failed, the others graded
    const nlohmann::json document = parseJson(run.out);
    QVERIFY(document.is_object());
    QCOMPARE(document.at("projects").get<int>(), 3);
    QCOMPARE(document.at("passed").get<int>(), 0);
    const nlohmann::json &failed = document.at("failed");
    QCOMPARE(failed.size(), std::size_t(3));
    for (std::size_t k = 0; k < failed.size(); ++k) {
        QCOMPARE(QString::fromStdString(failed[k].at("project").get<std::string>()),
                 projects[qsizetype(k)]);
        const QString reason = QString::fromStdString(failed[k].at("reason").get<std::string>());
        QVERIFY2(!reason.contains(QLatin1Char('\n')), qPrintable(reason));
        if (k < 2) {
            QVERIFY2(reason.startsWith(QStringLiteral("the kernel could not start (no-device): ")),
                     qPrintable(reason));
            QVERIFY2(reason.contains(m_reason), qPrintable(reason));
        } else {
            QVERIFY2(reason.startsWith(QStringLiteral("cannot be read: ")), qPrintable(reason));
            QVERIFY2(reason.contains(QStringLiteral("line 4")), qPrintable(reason));
        }
    }
    // The full results stay beside the summary, always as an array.
    QVERIFY(document.at("results").is_array());
    QCOMPARE(document.at("results").size(), std::size_t(3));
    QVERIFY(document.at("results")[2].contains("error"));

    // One project with --summary: still the object, its results an array of one.
    const Run single = runCuwb({QStringLiteral("run"), QStringLiteral("--summary"),
                                QStringLiteral("--json"), dataFile("add_one.cuwb")});
    QCOMPARE(single.exitCode, 1);
    const nlohmann::json singleDocument = parseJson(single.out);
    QCOMPARE(singleDocument.at("projects").get<int>(), 1);
    QVERIFY(singleDocument.at("results").is_array());
}

void TestCuwbRun::folderSummaryTextWithoutGpu()
{
    if (m_reason.isEmpty()) {
        QSKIP("this machine has a GPU; tests/gpu runs projects");
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList projects = makeSubmissions(dir, false);
    const Run run =
        runCuwb(QStringList{QStringLiteral("run"), dir.path(), QStringLiteral("--summary")} +
                gradingOptions());
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(QStringLiteral("summary: 2 projects, 0 passed, 2 failed\n")),
             qPrintable(run.out));
    for (const QString &project : projects) {
        QVERIFY2(run.out.contains(QStringLiteral("  FAILED ") + project +
                                  QStringLiteral(": the kernel could not start (no-device): ")),
                 qPrintable(run.out));
    }
    // Without --summary, no summary.
    const Run plain = runCuwb(QStringList{QStringLiteral("run"), dir.path()} + gradingOptions());
    QCOMPARE(plain.exitCode, 1);
    QVERIFY(!plain.out.contains(QStringLiteral("summary:")));
}

void TestCuwbRun::emptyFolderIsAUsageError()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir().mkpath(dir.path() + QStringLiteral("/nothing/here"));
    QFile other(dir.path() + QStringLiteral("/readme.txt"));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.close();
    const Run run = runCuwb({QStringLiteral("run"), QStringLiteral("--json"), dir.path()});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(run.err.contains(QStringLiteral("the folder ") + dir.path() +
                              QStringLiteral(" holds no .cuwb project")),
             qPrintable(run.err));
    const Run help = runCuwb({QStringLiteral("help"), QStringLiteral("run")});
    QVERIFY(help.out.contains(QStringLiteral("FOLDER")));
    QVERIFY(help.out.contains(QStringLiteral("--summary")));
}

void TestCuwbRun::outOfBoundsWritesReadAsFailed()
{
    // The kernel completed and its output verified, but it wrote past the end of `c`: the
    // run FAILED, the reason first, and nothing says it succeeded.
    const QString worker = QStringLiteral(CUWB_FAKE_WORKER_PATH " out-of-bounds");
    const Run run = runCuwb({QStringLiteral("run"), dataFile("add_one.cuwb"),
                             QStringLiteral("--worker"), worker, QStringLiteral("--summary")});
    QCOMPARE(run.exitCode, 1);
    const QString headline = run.out.section(QLatin1Char('\n'), 0, 0);
    QCOMPARE(headline, dataFile("add_one.cuwb") +
                           QStringLiteral(": FAILED: out-of-bounds writes: wrote 24 elements "
                                          "past the end of `c`, first at index 4"));
    QVERIFY2(!run.out.contains(QStringLiteral("succeeded")), qPrintable(run.out));
    QVERIFY2(!run.out.contains(QStringLiteral("PASSED")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("  kernel add_one: ran in ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("  checks: verification passed; out-of-bounds "
                                             "writes FOUND (24 elements in the guard bands of "
                                             "`c`)")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("summary: 1 project, 0 passed, 1 failed\n")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral(": out-of-bounds writes: wrote 24 elements")),
             qPrintable(run.out));

    const Run json = runCuwb({QStringLiteral("run"), dataFile("add_one.cuwb"),
                              QStringLiteral("--worker"), worker, QStringLiteral("--json")});
    QCOMPARE(json.exitCode, 1);
    const nlohmann::json document = parseJson(json.out);
    QCOMPARE(document.at("passed").get<bool>(), false);
    const nlohmann::json &result = document.at("result");
    QCOMPARE(result.at("status").get<std::string>(), std::string("succeeded")); // kept as it was
    QCOMPARE(result.at("passed").get<bool>(), false);
    const nlohmann::json &outcome = result.at("outcome");
    QCOMPARE(outcome.at("kernel").get<std::string>(), std::string("ran"));
    QCOMPARE(outcome.at("verification").get<std::string>(), std::string("passed"));
    QCOMPARE(outcome.at("outOfBoundsElements").get<int>(), 24);
    QVERIFY(outcome.at("outOfBoundsBuffers") == nlohmann::json::array({"c"}));
    QCOMPARE(outcome.at("reasons").size(), std::size_t(1));
    QVERIFY(outcome.at("summary").get<std::string>().rfind("FAILED: out-of-bounds writes", 0) == 0);
}

void TestCuwbRun::wrongOutputReadsAsFailed()
{
    const Run run =
        runCuwb({QStringLiteral("run"), dataFile("add_one.cuwb"), QStringLiteral("--worker"),
                 QStringLiteral(CUWB_FAKE_WORKER_PATH " wrong")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.startsWith(dataFile("add_one.cuwb") +
                                QStringLiteral(": FAILED: verification failed: 3 of 4 elements "
                                               "differ (abs > 0)\n")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("  checks: verification FAILED; no out-of-bounds "
                                             "writes; every output element written")),
             qPrintable(run.out));

    const Run both =
        runCuwb({QStringLiteral("run"), dataFile("add_one.cuwb"), QStringLiteral("--worker"),
                 QStringLiteral("w"), QStringLiteral("--device"), QStringLiteral("0")});
    QCOMPARE(both.exitCode, 2);
}

void TestCuwbRun::everyCheckIsReported()
{
    // Two checks after a sequence of two kernels, from a worker that verifies each check.
    const QString worker = QStringLiteral(CUWB_FAKE_WORKER_PATH " checks");
    const Run good = runCuwb(
        {QStringLiteral("run"), dataFile("add_checks.cuwb"), QStringLiteral("--worker"), worker});
    QCOMPARE(good.exitCode, 0);
    QVERIFY2(good.out.startsWith(dataFile("add_checks.cuwb") + QStringLiteral(": PASSED\n")),
             qPrintable(good.out));
    QVERIFY2(good.out.contains(QStringLiteral("  kernels add_one, twice: ran in 1.25 ms")),
             qPrintable(good.out));
    QVERIFY2(good.out.contains(QStringLiteral("    add_one: 1 ms\n    twice: 0.25 ms\n")),
             qPrintable(good.out));
    QVERIFY2(good.out.contains(QStringLiteral(
                 "  verification of c: passed (4 elements checked, largest error 2e-07 at index "
                 "2; abs 1e-07 at c[1], rel 2e-07 at c[2])")),
             qPrintable(good.out));
    QVERIFY2(good.out.contains(QStringLiteral("  verification of d: passed")),
             qPrintable(good.out));
    QVERIFY2(good.out.contains(QStringLiteral("  checks: verification passed (2 checks); ")),
             qPrintable(good.out));

    const Run wrong = runCuwb({QStringLiteral("run"), dataFile("add_checks_wrong.cuwb"),
                               QStringLiteral("--worker"), worker, QStringLiteral("--summary")});
    QCOMPARE(wrong.exitCode, 1);
    QVERIFY2(wrong.out.startsWith(dataFile("add_checks_wrong.cuwb") +
                                  QStringLiteral(": FAILED: verification failed: 2 of 4 elements "
                                                 "of `d` differ (rel > 1e-05)\n")),
             qPrintable(wrong.out));
    QVERIFY2(wrong.out.contains(QStringLiteral("  verification of d: FAILED")),
             qPrintable(wrong.out));
    QVERIFY2(wrong.out.contains(QStringLiteral("verification FAILED (1 of 2 checks failed)")),
             qPrintable(wrong.out));
    // The grading summary names the check that failed.
    QVERIFY2(wrong.out.contains(QStringLiteral("FAILED ") + dataFile("add_checks_wrong.cuwb") +
                                QStringLiteral(": verification failed: 2 of 4 elements of `d` "
                                               "differ")),
             qPrintable(wrong.out));

    const Run json = runCuwb({QStringLiteral("run"), dataFile("add_checks_wrong.cuwb"),
                              QStringLiteral("--worker"), worker, QStringLiteral("--json")});
    QCOMPARE(json.exitCode, 1);
    const nlohmann::json document = parseJson(json.out);
    const nlohmann::json &result = document.at("result");
    QCOMPARE(result.at("checks").size(), std::size_t(2));
    QCOMPARE(result.at("checks")[1].at("output").get<std::string>(), std::string("d"));
    QCOMPARE(result.at("checks")[1].at("maxAbsError").get<double>(), 0.5);
    QCOMPARE(result.at("checks")[1].at("maxRelErrorIndex").get<int>(), 3);
    QCOMPARE(result.at("kernelTimes").size(), std::size_t(2));
    QCOMPARE(result.at("kernelTimes")[1].at("kernel").get<std::string>(), std::string("twice"));
    const nlohmann::json &outcome = result.at("outcome");
    QCOMPARE(outcome.at("verification").get<std::string>(), std::string("failed"));
    QCOMPARE(outcome.at("checks")[0].at("verification").get<std::string>(), std::string("passed"));
    QCOMPARE(outcome.at("checks")[1].at("verification").get<std::string>(), std::string("failed"));
    QCOMPARE(outcome.at("reasons").size(), std::size_t(1));
    const RunResult back = result.get<RunResult>();
    QCOMPARE(back.checks.size(), std::size_t(2));
    QVERIFY(!back.passed());
}

void TestCuwbRun::aDeeplyNestedSubmissionFailsAlone()
{
    // A 400 KB project with a field nested 200,000 levels deep once overflowed the stack and
    // took the whole class's grading with it. It is refused before it is parsed, with its line
    // and column, and the others are graded beside it.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList projects = makeSubmissions(dir, false);
    QFile deep(dir.path() + QStringLiteral("/mallory.cuwb"));
    QVERIFY(deep.open(QIODevice::WriteOnly));
    deep.write("{\"schemaVersion\": 1, \"name\": \"deep\",\n  \"extra\": ");
    deep.write(QByteArray(200000, '['));
    deep.write(QByteArray(200000, ']'));
    deep.write("}\n");
    deep.close();
    const QString worker = QStringLiteral(CUWB_FAKE_WORKER_PATH " checks");
    const Run run = runCuwb({QStringLiteral("run"), dir.path(), QStringLiteral("--worker"), worker,
                             QStringLiteral("--json"), QStringLiteral("--summary")});
    QCOMPARE(run.exitCode, 1); // one submission cannot be read: it failed, the others graded
    const nlohmann::json document = parseJson(run.out);
    QCOMPARE(document.at("projects").get<int>(), 3);
    QCOMPARE(document.at("passed").get<int>(), 2);
    const nlohmann::json &failed = document.at("failed");
    QCOMPARE(failed.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(failed[0].at("project").get<std::string>()), deep.fileName());
    QCOMPARE(failed[0].at("reason").get<std::string>(),
             std::string("cannot be read: line 2, column 75: nested deeper than 64 levels of "
                         "objects and arrays, the limit for a project file"));
    QVERIFY(projects.size() == 2);
}

void TestCuwbRun::aProjectFileLinkedOutIsRefusedUnread()
{
    // mallory's .cuwb is a symlink to a file outside the class folder that is not a project:
    // it is refused by name before it is read, so no parse error quotes the file's text into
    // the grading report.
    QTemporaryDir outside;
    QTemporaryDir dir;
    QVERIFY(outside.isValid() && dir.isValid());
    const QString secret = outside.filePath(QStringLiteral("secret.json"));
    QFile file(secret);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"schemaVersion\": 1, TOPSECRET_LINE_abc123\n");
    file.close();
    makeSubmissions(dir, false);
    QDir().mkpath(dir.filePath(QStringLiteral("mallory")));
    const QString link = dir.filePath(QStringLiteral("mallory/lab.cuwb"));
    QVERIFY(QFile::link(secret, link));
    const QString worker = QStringLiteral(CUWB_FAKE_WORKER_PATH " checks");
    const Run run = runCuwb({QStringLiteral("run"), dir.path(), QStringLiteral("--worker"), worker,
                             QStringLiteral("--json"), QStringLiteral("--summary")});
    QVERIFY2(!run.out.contains(QStringLiteral("TOPSECRET")) &&
                 !run.err.contains(QStringLiteral("TOPSECRET")),
             qPrintable(run.out + run.err));
    QCOMPARE(run.exitCode, 1);
    const nlohmann::json document = parseJson(run.out);
    QCOMPARE(document.at("passed").get<int>(), 2);
    const nlohmann::json &failed = document.at("failed");
    QCOMPARE(failed.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(failed[0].at("project").get<std::string>()), link);
    const QString reason = QString::fromStdString(failed[0].at("reason").get<std::string>());
    QVERIFY2(reason.startsWith(QStringLiteral("refused: the project file is a symlink that leads "
                                              "out of its folder")),
             qPrintable(reason));
}

// Where the kernel cannot confine a graded compile, grading stops before any project is run
// and says what to do; --unconfined grades with the text check alone.
void TestCuwbRun::gradingWithoutASandboxIsRefused()
{
    const std::string why = cuwb::sandboxUnavailableReason();
    if (why.empty())
        QSKIP("this kernel confines graded compiles (Landlock); tst_cuwbconfine tests them");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    makeSubmissions(dir, false);
    const Run run = runCuwb({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(run.err.contains(QStringLiteral("cannot confine the graded projects' compiles")) &&
                 run.err.contains(QStringLiteral("--unconfined")),
             qPrintable(run.err));
}

CUWB_TEST_GUILESS_MAIN(TestCuwbRun)
} // namespace tst_cuwbrun
} // namespace

#include "tst_cuwbrun.moc"
