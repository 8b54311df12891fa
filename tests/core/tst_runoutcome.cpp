// What a run's result means (run/runoutcome.h): what the kernel did, then the checks, with a
// failure's reasons first. A kernel that completed but wrote outside its buffers or produced a
// wrong output FAILED, and the JSON carries the same reading beside the fields it always had.
#include "run/runjson.h"
#include "run/runoutcome.h"

#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_runoutcome {

namespace {

RunResult completedRun()
{
    RunResult result;
    result.status = RunStatus::Succeeded;
    result.kernelTimeMs = 0.25;
    BufferReport c;
    c.parameter = "c";
    c.count = 1024;
    result.buffers = {c};
    result.verification.ran = true;
    result.verification.passed = true;
    result.verification.checked = 1024;
    return result;
}

GuardViolation pastTheEnd(std::uint64_t elements)
{
    GuardViolation violation;
    violation.elements = elements;
    violation.firstIndex = 1024;
    violation.message =
        "wrote " + std::to_string(elements) + " elements past the end of `c`, first at index 1024";
    return violation;
}

} // namespace

class TestRunOutcome : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyCheckIsAReason()
    {
        RunResult result = completedRun();
        VerificationResult first;
        first.ran = first.passed = true;
        first.output = "c";
        first.label = "`c` (expression)";
        VerificationResult second;
        second.ran = true;
        second.output = "d";
        second.label = "`d` (file)";
        second.message = "3 of 4 elements of `d` differ (abs > 0)";
        VerificationResult third;
        third.ran = true;
        third.output = "e";
        third.message = "cannot verify: the verification mask did not compile: x";
        result.checks = {first, second, third};
        result.verification = combineChecks(result.checks);
        const RunOutcome outcome = describeRun(result, true);
        QVERIFY(!outcome.passed);
        QCOMPARE(outcome.verification, VerificationOutcome::Failed);
        QCOMPARE(outcome.checks.size(), std::size_t(3));
        QCOMPARE(outcome.checks[0].verification, VerificationOutcome::Passed);
        QCOMPARE(outcome.checks[1].verification, VerificationOutcome::Failed);
        QCOMPARE(outcome.checks[1].label, std::string("`d` (file)"));
        // A check that could not be made ran (it was asked for) and did not pass.
        QCOMPARE(outcome.checks[2].verification, VerificationOutcome::Failed);
        QCOMPARE(outcome.reasons,
                 (std::vector<std::string>{
                     "verification failed: 3 of 4 elements of `d` differ (abs > 0)",
                     "verification failed: cannot verify: the verification mask did not compile: "
                     "x"}));
        QCOMPARE(outcome.checksLine(),
                 std::string("verification FAILED (2 of 3 checks failed); no out-of-bounds writes; "
                             "every output element written"));
        const nlohmann::json json = outcome;
        QCOMPARE(json.at("checks").size(), std::size_t(3));
        QCOMPARE(json.at("checks")[1].at("verification").get<std::string>(), std::string("failed"));
        // All passed: one word, the count beside it.
        result.checks = {first, first};
        result.verification = combineChecks(result.checks);
        const RunOutcome passed = describeRun(result, true);
        QVERIFY(passed.passed);
        QCOMPARE(passed.checksLine().substr(0, 30), std::string("verification passed (2 checks)"));
        // A kernel that did not run checked nothing: one reason, the kernel's.
        result.status = RunStatus::Fault;
        result.message = "illegal address";
        const RunOutcome faulted = describeRun(result, true);
        QCOMPARE(faulted.reasons.size(), std::size_t(1));
    }

    void aCleanVerifiedRunPasses()
    {
        const RunOutcome outcome = describeRun(completedRun());
        QVERIFY(outcome.passed);
        QCOMPARE(outcome.kernel, KernelOutcome::Ran);
        QCOMPARE(outcome.verification, VerificationOutcome::Passed);
        QVERIFY(outcome.reasons.empty());
        QCOMPARE(outcome.headline(), std::string("PASSED"));
        QCOMPARE(outcome.checksLine(), std::string("verification passed; no out-of-bounds "
                                                   "writes; every output element written"));
    }

    void outOfBoundsWritesFailARunThatVerified()
    {
        RunResult result = completedRun();
        result.buffers[0].guardViolations = {pastTheEnd(24)};
        const RunOutcome outcome = describeRun(result);
        QVERIFY(!outcome.passed);
        QCOMPARE(outcome.passed, result.passed());
        QCOMPARE(outcome.kernel, KernelOutcome::Ran);
        QCOMPARE(outcome.verification, VerificationOutcome::Passed);
        QCOMPARE(outcome.outOfBoundsElements, std::uint64_t(24));
        QCOMPARE(outcome.outOfBoundsBuffers, std::vector<std::string>{"c"});
        QCOMPARE(outcome.headline(), std::string("FAILED: out-of-bounds writes: wrote 24 "
                                                 "elements past the end of `c`, first at index "
                                                 "1024"));
        QCOMPARE(outcome.checksLine(),
                 std::string("verification passed; out-of-bounds writes FOUND (24 elements in "
                             "the guard bands of `c`); every output element written"));
    }

    void outOfBoundsComesBeforeAWrongOutput()
    {
        RunResult result = completedRun();
        result.buffers[0].guardViolations = {pastTheEnd(2)};
        result.verification.passed = false;
        result.verification.message = "12 of 1024 elements differ (rel > 1e-05)\nmore detail";
        const RunOutcome outcome = describeRun(result);
        QCOMPARE(outcome.verification, VerificationOutcome::Failed);
        QCOMPARE(outcome.reasons.size(), std::size_t(2));
        QCOMPARE(outcome.reasons[1],
                 std::string("verification failed: 12 of 1024 elements differ (rel > 1e-05)"));
        QVERIFY(outcome.headline().rfind("FAILED: out-of-bounds writes: wrote 2 elements", 0) == 0);
    }

    void unwrittenOutputsAreReportedButDoNotFail()
    {
        RunResult result = completedRun();
        result.buffers[0].unwritten = 3;
        result.verification = {};
        const RunOutcome outcome = describeRun(result);
        QVERIFY(outcome.passed);
        QCOMPARE(outcome.verification, VerificationOutcome::NotConfigured);
        QCOMPARE(outcome.unwrittenElements, std::uint64_t(3));
        QCOMPARE(outcome.checksLine(), std::string("verification not configured; no "
                                                   "out-of-bounds writes; 3 output elements "
                                                   "never written"));
    }

    void aRequestedVerificationThatDidNotRunFails()
    {
        RunResult result = completedRun();
        result.verification = {};
        QVERIFY(describeRun(result, false).passed);
        const RunOutcome outcome = describeRun(result, true);
        QVERIFY(!outcome.passed);
        QCOMPARE(outcome.verification, VerificationOutcome::NotRun);
        QCOMPARE(outcome.headline(), std::string("FAILED: verification did not run"));
    }

    void whatTheKernelDidComesFirst_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<QString>("headline");
        QTest::newRow("fault") << int(RunStatus::Fault) << int(KernelOutcome::Faulted)
                               << QStringLiteral("FAILED: the kernel faulted "
                                                 "[CUDA_ERROR_ILLEGAL_ADDRESS]: it said so");
        QTest::newRow("crash") << int(RunStatus::WorkerCrashed) << int(KernelOutcome::Faulted)
                               << QStringLiteral("FAILED: the worker died during the run "
                                                 "[CUDA_ERROR_ILLEGAL_ADDRESS]: it said so");
        QTest::newRow("timeout") << int(RunStatus::Timeout) << int(KernelOutcome::TimedOut)
                                 << QStringLiteral("FAILED: the kernel timed out "
                                                   "[CUDA_ERROR_ILLEGAL_ADDRESS]: it said so");
        QTest::newRow("no-device") << int(RunStatus::NoDevice) << int(KernelOutcome::NotStarted)
                                   << QStringLiteral("FAILED: the kernel could not start "
                                                     "(no-device) [CUDA_ERROR_ILLEGAL_ADDRESS]: "
                                                     "it said so");
        QTest::newRow("compile") << int(RunStatus::CompileFailed) << int(KernelOutcome::NotStarted)
                                 << QStringLiteral("FAILED: the kernel could not start "
                                                   "(compile-failed) "
                                                   "[CUDA_ERROR_ILLEGAL_ADDRESS]: it said so");
    }

    void whatTheKernelDidComesFirst()
    {
        QFETCH(int, status);
        QFETCH(int, kernel);
        QFETCH(QString, headline);
        RunResult result;
        result.status = RunStatus(status);
        result.message = "it said so\nand more";
        result.deviceError = "CUDA_ERROR_ILLEGAL_ADDRESS";
        const RunOutcome outcome = describeRun(result);
        QVERIFY(!outcome.passed);
        QCOMPARE(int(outcome.kernel), kernel);
        QCOMPARE(outcome.verification, VerificationOutcome::NotRun);
        QCOMPARE(QString::fromStdString(outcome.headline()), headline);
        QVERIFY(outcome.checksLine().empty()); // nothing was checked
    }

    void jsonAddsTheOutcomeAndKeepsTheOldFields()
    {
        RunResult result = completedRun();
        result.buffers[0].guardViolations = {pastTheEnd(24)};
        const nlohmann::json j = result;
        QCOMPARE(j.at("status").get<std::string>(), std::string("succeeded"));
        QCOMPARE(j.at("passed").get<bool>(), false);
        const nlohmann::json &outcome = j.at("outcome");
        QCOMPARE(outcome.at("kernel").get<std::string>(), std::string("ran"));
        QCOMPARE(outcome.at("verification").get<std::string>(), std::string("passed"));
        QCOMPARE(outcome.at("outOfBoundsElements").get<int>(), 24);
        QCOMPARE(outcome.at("unwrittenElements").get<int>(), 0);
        QCOMPARE(outcome.at("summary").get<std::string>(), describeRun(result).headline());
        QCOMPARE(outcome.at("reasons").size(), std::size_t(1));
        // Read back, the result is the same (the outcome is derived, not stored).
        const RunResult back = j.get<RunResult>();
        QCOMPARE(back.buffers[0].guardViolations.size(), std::size_t(1));
        QVERIFY(nlohmann::json(back) == j);
    }
};

CUWB_TEST_GUILESS_MAIN(TestRunOutcome)
} // namespace tst_runoutcome
} // namespace

#include "tst_runoutcome.moc"
