// `cuwb compile-server`, the GUI's compiler process, end to end over its stdin/stdout; and what
// the in-process `cuwb compile` says when NVRTC crashes on a source.
#include "cuwbprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "support/testmain.h"

namespace {
namespace tst_cuwbcompileserver {

namespace {

QByteArray line(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

QJsonObject parse(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

// NVRTC corrupts its heap on a kernel name of 114,688 characters pasted with ##.
QByteArray pastedIdentifier()
{
    QByteArray source = "#define C_(a, b) a##b\n#define C(a, b) C_(a, b)\n#define D0 abcdefg\n";
    for (int i = 1; i <= 14; ++i)
        source += "#define D" + QByteArray::number(i) + " C(D" + QByteArray::number(i - 1) + ", D" +
                  QByteArray::number(i - 1) + ")\n";
    source += "extern \"C\" __global__ void D14(int *x) { x[0] = 0; }\n";
    return source;
}

} // namespace

class TestCuwbCompileServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void servesHelloCompileAndShutdown()
    {
        const QJsonObject options{{QStringLiteral("arch"), QStringLiteral("sm_90")}};
        QByteArray input;
        input +=
            line({{QStringLiteral("id"), 1}, {QStringLiteral("type"), QStringLiteral("hello")}});
        input += line({{QStringLiteral("id"), 2},
                       {QStringLiteral("type"), QStringLiteral("compile")},
                       {QStringLiteral("source"),
                        QStringLiteral("extern \"C\" __global__ void k(float *x) { x[0] = 1; }\n")},
                       {QStringLiteral("fileName"), QStringLiteral("k.cu")},
                       {QStringLiteral("options"), options}});
        input += line({{QStringLiteral("id"), 3}, {QStringLiteral("type"), QStringLiteral("run")}});
        input +=
            line({{QStringLiteral("id"), 4}, {QStringLiteral("type"), QStringLiteral("compile")}});
        input +=
            line({{QStringLiteral("id"), 5}, {QStringLiteral("type"), QStringLiteral("shutdown")}});
        const CuwbRun run =
            runCuwbProcess({QStringLiteral("compile-server"), QStringLiteral("--memory-limit-mb"),
                            QStringLiteral("4096")},
                           QString(), input);
        QCOMPARE(run.exitCode, 0);
        const QStringList replies = run.outLines();
        QCOMPARE(replies.size(), 5);

        const QJsonObject hello = parse(replies.at(0));
        QCOMPARE(hello.value(QStringLiteral("type")).toString(), QStringLiteral("hello"));
        QCOMPARE(hello.value(QStringLiteral("protocol")).toInt(), 1);

        const QJsonObject compiled = parse(replies.at(1));
        QCOMPARE(compiled.value(QStringLiteral("type")).toString(), QStringLiteral("compiled"));
        QCOMPARE(compiled.value(QStringLiteral("id")).toInt(), 2);
        const QJsonObject result = compiled.value(QStringLiteral("result")).toObject();
        QVERIFY(result.value(QStringLiteral("success")).toBool());
        QVERIFY(!result.value(QStringLiteral("cubin")).toString().isEmpty());
        QCOMPARE(result.value(QStringLiteral("kernels")).toArray().size(), 1);

        // Neither a worker's request nor a malformed compile takes the server down.
        QCOMPARE(parse(replies.at(2)).value(QStringLiteral("type")).toString(),
                 QStringLiteral("error"));
        const QJsonObject malformed = parse(replies.at(3));
        QCOMPARE(malformed.value(QStringLiteral("type")).toString(), QStringLiteral("error"));
        QVERIFY(malformed.value(QStringLiteral("message"))
                    .toString()
                    .startsWith(QStringLiteral("malformed request")));
        QCOMPARE(parse(replies.at(4)).value(QStringLiteral("type")).toString(),
                 QStringLiteral("bye"));
    }

    void aBadMemoryLimitIsAUsageError()
    {
        const CuwbRun run =
            runCuwbProcess({QStringLiteral("compile-server"), QStringLiteral("--memory-limit-mb"),
                            QStringLiteral("lots")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(QStringLiteral("--memory-limit-mb needs a number of MiB")));
    }

    // The CLI runs NVRTC in-process: its abort ends it, with a sentence that says why. (nvcc,
    // the default where the toolkit has it, compiles this source: the bug is NVRTC's.)
    void theCliSaysWhyWhenNvrtcCrashes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("pasted.cu"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(pastedIdentifier());
        file.close();
        QProcess process;
        process.start(QStringLiteral(CUWB_CLI_PATH),
                      {QStringLiteral("compile"), QStringLiteral("--compiler"),
                       QStringLiteral("nvrtc"), path});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitStatus(), QProcess::CrashExit);
        QVERIFY(QString::fromUtf8(process.readAllStandardError())
                    .contains(QStringLiteral("cuwb compile: the process died of a fatal signal")));
    }
};

CUWB_TEST_GUILESS_MAIN(TestCuwbCompileServer)
} // namespace tst_cuwbcompileserver
} // namespace

#include "tst_cuwbcompileserver.moc"
