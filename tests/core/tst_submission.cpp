// Reading one graded submission (grading/submission.h) and the reply of `cuwb read-submission`:
// a readable project comes back whole through its JSON (the project as written, its source);
// a refusal and a read error travel as such; a reply that is not what the reader writes (not
// JSON, nested deeper than it nests, without its fields, a project that does not parse) is an
// error that says so, never a project.
#include "grading/submission.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_submission {

namespace {

void writeFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

const char *const kProject = R"({
    "schemaVersion": 1,
    "name": "scale",
    "source": { "path": "k.cu" },
    "compileOptions": { "arch": "sm_90", "defines": ["SCALE=2"] },
    "launch": {
        "kernel": "k",
        "arguments": [
            { "parameter": "a", "kind": "buffer", "elementType": "float", "count": "64",
              "role": "out", "init": { "kind": "zeros" } }
        ],
        "grid": [ "1", "1", "1" ], "block": [ "64", "1", "1" ]
    },
    "verification": { "kind": "expression", "output": "a", "expression": "2" },
    "courseNote": { "week": 3 }
})";

const char *const kKernel = "__global__ void k(float *a) { a[threadIdx.x] = SCALE; }\n";

} // namespace

class TestSubmission : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aProjectComesBackWhole();
    void refusalsAndErrorsTravel();
    void aReplyThatIsNotTheReadersIsAnError_data();
    void aReplyThatIsNotTheReadersIsAnError();
};

void TestSubmission::aProjectComesBackWhole()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("alice/p.cuwb"));
    writeFile(path, kProject);
    writeFile(dir.filePath(QStringLiteral("alice/k.cu")), kKernel);
    const SubmissionRead read = readSubmission(path.toStdString());
    QVERIFY2(read.ok(), (read.refused + read.error).c_str());
    QCOMPARE(read.source, std::string(kKernel));

    const SubmissionRead back = submissionReadFromJson(submissionReadToJson(read));
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.source, read.source);
    QCOMPARE(serializeProject(*back.project), serializeProject(*read.project));
    QCOMPARE(back.project->options.defines, std::vector<std::string>{"SCALE=2"});
    QCOMPARE(back.project->unknownFields["courseNote"]["week"], 3);
}

void TestSubmission::refusalsAndErrorsTravel()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bob/p.cuwb"));
    writeFile(path, QByteArray(kProject).replace("\"k.cu\"", "\"/etc/hostname\""));
    const SubmissionRead refused = readSubmission(path.toStdString());
    QVERIFY(!refused.ok());
    QVERIFY2(refused.refused.find("absolute path") != std::string::npos, refused.refused.c_str());
    const SubmissionRead back = submissionReadFromJson(submissionReadToJson(refused));
    QCOMPARE(back.refused, refused.refused);
    QVERIFY(!back.ok());

    writeFile(path, "{ \"schemaVersion\": 1, ");
    const SubmissionRead broken = readSubmission(path.toStdString());
    QVERIFY(!broken.ok() && !broken.error.empty());
    const SubmissionRead brokenBack = submissionReadFromJson(submissionReadToJson(broken));
    QCOMPARE(brokenBack.error, broken.error);
    QVERIFY(brokenBack.refused.empty() && !brokenBack.ok());
}

void TestSubmission::aReplyThatIsNotTheReadersIsAnError_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<QString>("says");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("no refusal or error field");
    QTest::newRow("not JSON") << QByteArray("Segmentation fault")
                              << QStringLiteral("no refusal or error field");
    QTest::newRow("an array") << QByteArray("[1, 2]")
                              << QStringLiteral("no refusal or error field");
    QTest::newRow("too deep") << QByteArray("{\"refused\": [[[1]]]}")
                              << QStringLiteral("nested too deep");
    QTest::newRow("no project") << QByteArray(R"({"refused": "", "error": ""})")
                                << QStringLiteral("no project or source");
    QTest::newRow("a project that does not parse")
        << QByteArray(R"({"refused": "", "error": "", "project": "{", "source": ""})")
        << QStringLiteral("does not parse");
}

void TestSubmission::aReplyThatIsNotTheReadersIsAnError()
{
    QFETCH(QByteArray, reply);
    QFETCH(QString, says);
    const SubmissionRead read = submissionReadFromJson(reply.toStdString());
    QVERIFY(!read.ok());
    QVERIFY2(QString::fromStdString(read.error).contains(says), read.error.c_str());
}

CUWB_TEST_GUILESS_MAIN(TestSubmission)
} // namespace tst_submission
} // namespace

#include "tst_submission.moc"
