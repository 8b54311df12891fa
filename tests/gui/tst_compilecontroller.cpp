#include "gui/compile/compilecontroller.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_compilecontroller {

namespace {

CompileRequest requestFor(const char *kernelName, int documentId = 1)
{
    CompileRequest request;
    request.source = QStringLiteral("extern \"C\" __global__ void %1(float *x) { x[0] += 1.0f; }\n")
                         .arg(QLatin1String(kernelName));
    request.fileName = QStringLiteral("request.cu");
    request.documentId = documentId;
    return request;
}

quint64 jobIdOf(const QList<QVariant> &arguments)
{
    return arguments.at(0).value<quint64>();
}

CompileResult resultOf(const QList<QVariant> &arguments)
{
    return arguments.at(2).value<CompileResult>();
}

} // namespace

class TestCompileController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compilesOffTheGuiThreadAndDelivers()
    {
        CompileController controller;
        QSignalSpy started(&controller, &CompileController::compileStarted);
        QSignalSpy finished(&controller, &CompileController::compileFinished);
        QSignalSpy busy(&controller, &CompileController::busyChanged);
        const quint64 id = controller.submit(requestFor("only", 7));
        QVERIFY(id > 0);
        // submit() returns at once: the compile runs on the worker.
        QVERIFY(controller.isBusy());
        QCOMPARE(started.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(jobIdOf(finished.at(0)), id);
        QCOMPARE(finished.at(0).at(1).toInt(), 7);
        const CompileResult result = resultOf(finished.at(0));
        QVERIFY2(result.success, result.log.c_str());
        QCOMPARE(result.kernels.size(), std::size_t(1));
        QCOMPARE(result.kernels.front().loweredName, std::string("only"));
        QVERIFY(!controller.isBusy());
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }

    void newerRequestSupersedesOlderOnes()
    {
        CompileController controller;
        QSignalSpy started(&controller, &CompileController::compileStarted);
        QSignalSpy finished(&controller, &CompileController::compileFinished);
        QSignalSpy discarded(&controller, &CompileController::compileDiscarded);
        const quint64 first = controller.submit(requestFor("first"));
        const quint64 second = controller.submit(requestFor("second"));
        const quint64 third = controller.submit(requestFor("third"));
        QVERIFY(first < second && second < third);
        QCOMPARE(controller.latestJobId(), third);
        // One runs, one waits: "second" was replaced before it started.
        QCOMPARE(started.count(), 1);

        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy(), 30000);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(jobIdOf(finished.at(0)), third);
        QCOMPARE(resultOf(finished.at(0)).kernels.front().loweredName, std::string("third"));
        QCOMPARE(started.count(), 2);
        QCOMPARE(jobIdOf(started.at(1)), third);
        QCOMPARE(discarded.count(), 1);
        QCOMPARE(discarded.at(0).at(0).value<quint64>(), first);
    }

    void debounceWaitsForAPause()
    {
        CompileController controller;
        controller.setDebounceInterval(150);
        int provided = 0;
        controller.setSourceProvider([&provided] {
            ++provided;
            return requestFor("debounced");
        });
        QSignalSpy finished(&controller, &CompileController::compileFinished);

        // A burst of edits closer together than the interval: nothing is compiled yet.
        QElapsedTimer burst;
        burst.start();
        for (int edit = 0; edit < 5; ++edit) {
            controller.scheduleCompile();
            QVERIFY(controller.isDebouncing());
            QTest::qWait(30);
        }
        if (burst.elapsed() < 150) // the burst ran in time, so the timer cannot have fired
            QCOMPARE(provided, 0);

        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(provided, 1);
        QVERIFY(!controller.isDebouncing());
        QTest::qWait(300);
        QCOMPARE(provided, 1);
        QCOMPARE(finished.count(), 1);
    }

    void compileNowSkipsTheDebounce()
    {
        CompileController controller;
        controller.setDebounceInterval(60000);
        controller.setSourceProvider([] { return requestFor("now"); });
        QSignalSpy finished(&controller, &CompileController::compileFinished);
        controller.scheduleCompile();
        QVERIFY(controller.isDebouncing());
        QVERIFY(controller.compileNow() > 0);
        QVERIFY(!controller.isDebouncing());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    }

    void nothingToCompileIsNotAJob()
    {
        CompileController controller;
        controller.setSourceProvider([] {
            CompileRequest none;
            none.valid = false;
            return none;
        });
        QSignalSpy started(&controller, &CompileController::compileStarted);
        QCOMPARE(controller.compileNow(), quint64(0));
        QCOMPARE(started.count(), 0);
    }

    void badOptionsComeBackAsAFailedResult()
    {
        CompileController controller;
        CompileOptions options;
        options.arch = "sm_12";
        controller.setOptions(options);
        QSignalSpy finished(&controller, &CompileController::compileFinished);
        controller.submit(requestFor("never"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const CompileResult result = resultOf(finished.at(0));
        QVERIFY(!result.success);
        QVERIFY(!result.failureMessage.empty() || !result.diagnostics.empty());
    }

    void extraIncludeFoldersReachTheCompiler()
    {
        CompileController controller;
        QSignalSpy finished(&controller, &CompileController::compileFinished);
        CompileRequest request;
        request.source =
            QStringLiteral("#include \"helper.cuh\"\n"
                           "extern \"C\" __global__ void k(float *x) { x[0] = twice(x[0]); }\n");
        request.fileName = QStringLiteral("includes.cu");
        request.extraIncludeDirs << QStringLiteral(CUWB_TEST_DATA_DIR);
        controller.submit(request);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const CompileResult result = resultOf(finished.at(0));
        QVERIFY2(result.success, result.log.c_str());
    }
};

CUWB_TEST_MAIN(TestCompileController)
} // namespace tst_compilecontroller
} // namespace

#include "tst_compilecontroller.moc"
