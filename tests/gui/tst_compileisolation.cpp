// The GUI compiles in `cuwb compile-server` (CompileController, worker/isolatedcompiler.h):
// sources that crash NVRTC, overflow its stack, outgrow the memory limit or compile for too
// long come back as a failed result that says so, the GUI and its text survive, and the next
// compile starts a new compiler process.
#include "gui/compile/compilecontroller.h"
#include "gui/compile/problemsmodel.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/shell/mainwindow.h"
#include "worker/compileserver.h"
#include "worker/isolatedcompiler.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_compileisolation {

namespace {

constexpr int kTimeoutMs = 120000;

// A 416-byte kind of source whose kernel name is a 114,688-character identifier pasted with
// ##: NVRTC corrupts its heap on it and aborts ("malloc(): invalid size").
QString pastedIdentifier()
{
    QString source = QStringLiteral("#define C_(a, b) a##b\n#define C(a, b) C_(a, b)\n"
                                    "#define D0 abcdefg\n");
    for (int i = 1; i <= 14; ++i)
        source += QStringLiteral("#define D%1 C(D%2, D%2)\n").arg(i).arg(i - 1);
    source += QStringLiteral("extern \"C\" __global__ void D14(int *x) { x[0] = 0; }\n");
    return source;
}

// Deep enough to overflow a default thread stack in NVRTC's parser.
QString nestedBraces(int depth)
{
    return QStringLiteral("extern \"C\" __global__ void k(int *x) ") +
           QString(depth, QLatin1Char('{')) + QStringLiteral("x[0] = 1;") +
           QString(depth, QLatin1Char('}')) + QLatin1Char('\n');
}

// Each term costs NVRTC about 2 KB: 400,000 terms are far beyond a 640 MiB limit.
QString hugeExpression(int terms)
{
    QString sum = QStringLiteral("x[1]");
    sum.reserve(terms * 5);
    for (int i = 1; i < terms; ++i)
        sum += QStringLiteral("+x[1]");
    return QStringLiteral("extern \"C\" __global__ void k(int *x) { x[0] = ") + sum +
           QStringLiteral("; }\n");
}

// 5,000 kernels take NVRTC tens of seconds.
QString manyKernels(int count)
{
    QString source;
    for (int i = 0; i < count; ++i)
        source += QStringLiteral("extern \"C\" __global__ void k%1(float *x) { x[0] += %1.0f; }\n")
                      .arg(i);
    return source;
}

CompileRequest requestFor(const QString &source)
{
    CompileRequest request;
    request.source = source;
    request.fileName = QStringLiteral("hostile.cu");
    return request;
}

CompileRequest goodRequest(int variant = 0)
{
    return requestFor(
        QStringLiteral("extern \"C\" __global__ void good(float *x) { x[0] += %1.0f; }\n")
            .arg(variant));
}

CompileResult resultOf(const QList<QVariant> &arguments)
{
    return arguments.at(2).value<CompileResult>();
}

void useBuildCuwb(CompileController &controller)
{
    if (QFileInfo::exists(QStringLiteral(CUWB_CLI_PATH)))
        controller.setCliPath(QStringLiteral(CUWB_CLI_PATH));
}

// Compiles one request and returns its result (the controller must be idle).
CompileResult compileOne(CompileController &controller, const CompileRequest &request)
{
    QSignalSpy finished(&controller, &CompileController::compileFinished);
    controller.submit(request);
    if (!finished.wait(kTimeoutMs) && finished.isEmpty())
        return {};
    return resultOf(finished.takeFirst());
}

} // namespace

class TestCompileIsolation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The crash is NVRTC's (nvcc compiles this source): the fallback compiler stays contained.
    void aCompilerCrashIsAMessageAndTheNextCompileWorks()
    {
        CompileController controller;
        useBuildCuwb(controller);
        CompileOptions options;
        options.compiler = "nvrtc";
        controller.setOptions(options);
        const CompileResult crashed = compileOne(controller, requestFor(pastedIdentifier()));
        QVERIFY(!crashed.success);
        QVERIFY2(QString::fromStdString(crashed.failureMessage).contains(QStringLiteral("crashed")),
                 crashed.failureMessage.c_str());
        QCOMPARE(controller.compiler().serverStarts(), 1);

        const CompileResult next = compileOne(controller, goodRequest());
        QVERIFY2(next.success, next.failureMessage.c_str());
        QCOMPARE(next.kernels.size(), std::size_t(1));
        QVERIFY(!next.cubin.empty());
        QVERIFY(!next.ptx.empty());
        QCOMPARE(controller.compiler().serverStarts(), 2);
    }

    void deepNestingCompilesOnTheLargeStack()
    {
        CompileController controller;
        useBuildCuwb(controller);
        const CompileResult result = compileOne(controller, requestFor(nestedBraces(20000)));
        QVERIFY2(result.success, (result.failureMessage + result.log).c_str());
        QCOMPARE(controller.compiler().serverStarts(), 1);
    }

    void theMemoryLimitStopsARunawayCompile()
    {
        if (kSanitizerReservesAddressSpace)
            QSKIP("a sanitizer's shadow memory leaves no room for an address-space limit");
        CompileController controller;
        useBuildCuwb(controller);
        // The default 4 GiB would take a 10 MB expression; a lower limit, a smaller one.
        controller.setLimits(120.0, quint64(640) << 20);
        const CompileResult result = compileOne(controller, requestFor(hugeExpression(400000)));
        QVERIFY(!result.success);
        QVERIFY2(QString::fromStdString(result.failureMessage)
                     .contains(QStringLiteral("640 MiB memory limit")),
                 result.failureMessage.c_str());
        const CompileResult next = compileOne(controller, goodRequest());
        QVERIFY2(next.success, next.failureMessage.c_str());
    }

    void theTimeLimitStopsALongCompile()
    {
        CompileController controller;
        useBuildCuwb(controller);
        controller.setLimits(1.0, IsolatedCompiler::defaultLimits().memoryBytes);
        const CompileResult result = compileOne(controller, requestFor(manyKernels(5000)));
        QVERIFY(!result.success);
        QVERIFY2(QString::fromStdString(result.failureMessage)
                     .contains(QStringLiteral("stopped after 1 s")),
                 result.failureMessage.c_str());
        const CompileResult next = compileOne(controller, goodRequest());
        QVERIFY2(next.success, next.failureMessage.c_str());
        QCOMPARE(controller.compiler().serverStarts(), 2);
    }

    void aNewerEditStopsTheRunningCompile()
    {
        CompileController controller;
        useBuildCuwb(controller);
        QVERIFY(compileOne(controller, goodRequest(1)).success); // the server runs
        QCOMPARE(controller.compiler().serverStarts(), 1);

        QSignalSpy finished(&controller, &CompileController::compileFinished);
        QSignalSpy discarded(&controller, &CompileController::compileDiscarded);
        const quint64 slow = controller.submit(requestFor(manyKernels(5000)));
        QTest::qWait(1000); // well inside the slow compile
        QVERIFY(controller.isBusy());
        const quint64 edit = controller.submit(goodRequest(2));
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy(), kTimeoutMs);
        QCOMPARE(discarded.count(), 1);
        QCOMPARE(discarded.at(0).at(0).value<quint64>(), slow);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).value<quint64>(), edit);
        const CompileResult result = resultOf(finished.at(0));
        QVERIFY2(result.success, result.failureMessage.c_str());
        // The slow compile's process was killed, not waited for: the edit needed a new one.
        QCOMPARE(controller.compiler().serverStarts(), 2);
    }

    void cancelStopsTheRunningCompile()
    {
        CompileController controller;
        useBuildCuwb(controller);
        QSignalSpy finished(&controller, &CompileController::compileFinished);
        controller.submit(requestFor(manyKernels(5000)));
        QTest::qWait(1000);
        controller.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        const CompileResult result = resultOf(finished.at(0));
        QVERIFY(!result.success);
        QVERIFY2(QString::fromStdString(result.failureMessage).contains(QStringLiteral("stopped")),
                 result.failureMessage.c_str());
        QVERIFY(compileOne(controller, goodRequest()).success);
    }

    void repeatsAreServedFromTheCache()
    {
        CompileController controller;
        useBuildCuwb(controller);
        QVERIFY(!compileOne(controller, goodRequest(3)).fromCache);
        const CompileResult again = compileOne(controller, goodRequest(3));
        QVERIFY(again.success);
        QVERIFY(again.fromCache);
    }

    // The real window: a source that crashes the compiler leaves the window, the Problems
    // panel and the unsaved text as they were.
    void theWindowAndItsUnsavedTextSurvive()
    {
        // The window's compiler server uses NVRTC, which this source crashes (nvcc does not).
        qputenv("CUWB_NVCC", "off");
        const struct Restore
        {
            ~Restore() { qunsetenv("CUWB_NVCC"); }
        } restore;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        cuwb::test::keepSettingsIn(dir.path());
        const QString path = dir.filePath(QStringLiteral("hostile.cu"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(pastedIdentifier().toUtf8());
        }
        MainWindow::Settings settings;
        settings.samplesDir = QStringLiteral(CUWB_SAMPLES_DIR);
        settings.restoreLayout = false;
        settings.prompts = false;
        if (QFileInfo::exists(QStringLiteral(CUWB_CLI_PATH)))
            settings.cliPath = QStringLiteral(CUWB_CLI_PATH);
        MainWindow window(settings);
        window.show();
        Document *document = window.openPath(path);
        QVERIFY(document);
        const auto settled = [&] {
            return document->hasResult() && !window.compileController()->isBusy() &&
                   !window.compileController()->isDebouncing();
        };
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kTimeoutMs);
        QVERIFY(QString::fromStdString(document->lastResult().failureMessage)
                    .contains(QStringLiteral("crashed")));
        QVERIFY(window.problemsModel()->rowCount() > 0);

        // An unsaved edit, compiled as typed: the compiler crashes again, the text stays.
        document->editor()->insertAt(QStringLiteral("// not saved\n"), 0, 0);
        const QString typed = document->editor()->text();
        window.compileController()->compileNow();
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kTimeoutMs);
        QVERIFY(QString::fromStdString(document->lastResult().failureMessage)
                    .contains(QStringLiteral("crashed")));
        QCOMPARE(document->editor()->text(), typed);
        QVERIFY(document->isModified());
        QVERIFY(window.isVisible());
    }
};

CUWB_TEST_MAIN(TestCompileIsolation)
} // namespace tst_compileisolation
} // namespace

#include "tst_compileisolation.moc"
