// The launch's host checks off the GUI thread (gui/launch/runcheckcontroller.h), compiling in a
// real `cuwb compile-server`: a verification expression that reads a buffer the kernel does
// not have is a finding, fixing it clears the findings, an unchanged launch is not checked
// again, and a session without a kernel has none.
#include "gui/launch/runcheckcontroller.h"

#include "../support/sweeptesthelpers.h"

#include "compiler/kernelcompiler.h"

#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_runcheckcontroller {

namespace {

using sweeptest::kAddOneSource;

// The add_one launch of the sweep tests, over 4096 elements.
LaunchSpec addOneLaunch()
{
    LaunchSpec spec = sweeptest::addOneRequest().launch;
    spec.variables = {{"N", "4096"}};
    return spec;
}

VerificationSpec expression(const char *text)
{
    VerificationSpec verification;
    verification.kind = ReferenceKind::Expression;
    verification.output = "c";
    verification.expression = text;
    return verification;
}

} // namespace

class TestRunCheckController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral(CUWB_CLI_PATH)))
            QSKIP("the cuwb that serves compile-server is not built");
        KernelCompiler compiler(0);
        m_module = compiler.compile(kAddOneSource, "add_one.cu", CompileOptions{});
        QVERIFY2(m_module.success, m_module.log.c_str());
    }

    void findsWhatTheWorkerWouldNotCompile()
    {
        RunCheckController controller;
        controller.setCliPath(QStringLiteral(CUWB_CLI_PATH));
        controller.setDebounceInterval(0);
        QSignalSpy changed(&controller, &RunCheckController::findingsChanged);
        LaunchSession session;
        session.setModule(m_module, kAddOneSource, "add_one.cu");
        session.setLaunch(addOneLaunch(), expression("a[i] + one[i]"));

        controller.check(session);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy(), 60000);
        QCOMPARE(changed.count(), 1);
        const std::vector<LaunchIssue> findings = controller.findings();
        QCOMPARE(findings.size(), std::size_t(1));
        QCOMPARE(findings[0].field, std::string("verification: expression"));
        QVERIFY2(findings[0].message.find("identifier \"one\" is undefined") != std::string::npos,
                 findings[0].message.c_str());

        // The same launch again: nothing to do, no signal.
        controller.check(session);
        QVERIFY(!controller.isBusy());
        QCOMPARE(changed.count(), 1);

        // Fixed: the findings go.
        session.setVerification(expression("a[i] + 1.0f"));
        controller.check(session);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy(), 60000);
        QCOMPARE(changed.count(), 2);
        QVERIFY(controller.findings().empty());

        // Broken again, then no kernel at all: nothing to check, no findings.
        session.setVerification(expression("a[i] + one[i]"));
        controller.check(session);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy(), 60000);
        QCOMPARE(controller.findings().size(), std::size_t(1));
        session.clear();
        controller.check(session);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy(), 60000);
        QVERIFY(controller.findings().empty());
        QCOMPARE(changed.count(), 4);
    }

    void newerLaunchWins()
    {
        // Two edits in a burst: only the second is checked and reported.
        RunCheckController controller;
        controller.setCliPath(QStringLiteral(CUWB_CLI_PATH));
        QSignalSpy changed(&controller, &RunCheckController::findingsChanged);
        LaunchSession session;
        session.setModule(m_module, kAddOneSource, "add_one.cu");
        session.setLaunch(addOneLaunch(), expression("a[i] + first[i]"));
        controller.check(session);
        session.setVerification(expression("a[i] + second[i]"));
        controller.check(session);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isBusy(), 60000);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(controller.findings().size(), std::size_t(1));
        QVERIFY2(controller.findings()[0].message.find("\"second\"") != std::string::npos,
                 controller.findings()[0].message.c_str());
    }

private:
    CompileResult m_module;
};

CUWB_TEST_MAIN(TestRunCheckController)
} // namespace tst_runcheckcontroller
} // namespace

#include "tst_runcheckcontroller.moc"
