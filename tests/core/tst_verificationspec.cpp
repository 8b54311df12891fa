// A project's checks: one object (as every project had it) or a list, written back in the form
// it was read; allclose's atol and rtol; what a list of checks refuses; and in a project file,
// the unknown fields of each check kept, old files saved unchanged.
#include "compilertesthelpers.h"

#include "launch/launchjson.h"
#include "launch/verificationspec.h"
#include "project/project.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_verificationspec {

namespace {

VerificationSpec expressionCheck(const char *output, const char *expression)
{
    VerificationSpec check;
    check.kind = ReferenceKind::Expression;
    check.output = output;
    check.expression = expression;
    return check;
}

std::string errorOf(const char *text)
{
    try {
        (void)nlohmann::json::parse(text).get<Verification>();
    } catch (const nlohmann::json::exception &error) {
        return plainJsonError(error);
    }
    return {};
}

} // namespace

class TestVerificationSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneCheckIsAnObject();
    void noneIsNoCheck();
    void severalChecksAreAList();
    void aListOfOneStaysAList();
    void allClose();
    void listErrors();
    void labels();
    void projectFiles();
    void projectKeepsUnknownFieldsOfEachCheck();
    void projectPathsOfEveryCheck();
};

void TestVerificationSpec::oneCheckIsAnObject()
{
    const Verification one(expressionCheck("c", "a[i] + b[i]"));
    const nlohmann::json json = one;
    QVERIFY(json.is_object());
    QCOMPARE(json["expression"], nlohmann::json("a[i] + b[i]"));
    const Verification back = json.get<Verification>();
    QCOMPARE(back.checks.size(), std::size_t(1));
    QVERIFY(!back.listForm);
    QVERIFY(back == one);
    QVERIFY(back.configured());
}

void TestVerificationSpec::noneIsNoCheck()
{
    const Verification none = nlohmann::json::parse(R"({"kind": "none"})").get<Verification>();
    QVERIFY(!none.configured());
    QCOMPARE(nlohmann::json(none), nlohmann::json::parse(R"({"kind": "none"})"));
    QVERIFY(!Verification(VerificationSpec{}).configured());
}

void TestVerificationSpec::severalChecksAreAList()
{
    Verification checks;
    checks.checks = {expressionCheck("c", "a[i] + b[i]"), expressionCheck("d", "a[i] - b[i]")};
    VerificationSpec sum;
    sum.kind = ReferenceKind::Aggregate;
    sum.output = "partial";
    sum.reduce = Reduction::Sum;
    sum.of = "a";
    sum.count = "grid.x";
    checks.checks.push_back(sum);
    const nlohmann::json json = checks;
    QVERIFY(json.is_array());
    QCOMPARE(json.size(), std::size_t(3));
    QCOMPARE(json[2]["reduce"], nlohmann::json("sum"));
    const Verification back = json.get<Verification>();
    QVERIFY(back == checks);
    QVERIFY(back.listForm);
    QCOMPARE(back.referenceKernels(), std::vector<std::string>{});
}

void TestVerificationSpec::aListOfOneStaysAList()
{
    const nlohmann::json text =
        nlohmann::json::parse(R"([{"kind": "expression", "output": "c", "expression": "1"}])");
    const Verification one = text.get<Verification>();
    QCOMPARE(one.checks.size(), std::size_t(1));
    QVERIFY(nlohmann::json(one).is_array());
    // == compares the checks only: the form is how it is written.
    QVERIFY(one == Verification(one.checks.front()));
    // An empty list stays empty and a list.
    const Verification empty = nlohmann::json::array().get<Verification>();
    QVERIFY(!empty.configured());
    QVERIFY(nlohmann::json(empty).is_array());
}

void TestVerificationSpec::allClose()
{
    const VerificationSpec check =
        nlohmann::json::parse(R"({"kind": "expression", "output": "c", "expression": "1",
                                  "tolerance": "allclose", "atol": 1e-6, "rtol": 1e-3})")
            .get<VerificationSpec>();
    QCOMPARE(check.tolerance, ToleranceKind::AllClose);
    QCOMPARE(check.atol, 1e-6);
    QCOMPARE(check.rtol, 1e-3);
    const nlohmann::json json = check;
    QCOMPARE(json["atol"], nlohmann::json(1e-6));
    QVERIFY(!json.contains("toleranceValue"));
    QCOMPARE(json.get<VerificationSpec>(), check);
    QCOMPARE(check.toleranceText(), std::string("|out - ref| <= 1e-06 + 0.001 * |ref|"));
    // Other tolerances keep their one value and take no atol or rtol.
    VerificationSpec rel = expressionCheck("c", "1");
    QVERIFY(!nlohmann::json(rel).contains("atol"));
    QCOMPARE(rel.toleranceText(), std::string("rel <= 1e-05"));

    const std::pair<const char *, const char *> cases[] = {
        {R"({"kind": "expression", "output": "c", "tolerance": "allclose", "atol": 1e-6})",
         "tolerance: allclose needs both \"atol\" and \"rtol\" (|out - ref| <= atol + rtol * "
         "|ref|; numpy's defaults are 1e-08 and 1e-05)"},
        {R"({"kind": "expression", "output": "c", "tolerance": "allclose", "atol": 1e-6,
             "rtol": 1e-3, "toleranceValue": 1})",
         "toleranceValue: an allclose tolerance takes \"atol\" and \"rtol\" instead"},
        {R"({"kind": "expression", "output": "c", "tolerance": "rel", "rtol": 1e-3})",
         "rtol: applies to \"tolerance\": \"allclose\" only"},
        {R"({"kind": "expression", "output": "c", "tolerance": "allclose", "atol": -1,
             "rtol": 1e-3})",
         "atol: must be 0 or more, found -1"},
        {R"({"kind": "expression", "output": "c", "tolerance": "close"})",
         "tolerance: expected one of abs, rel, ulp, allclose, found 'close'"},
    };
    for (const auto &[text, message] : cases)
        QCOMPARE(errorOf(text), std::string(message));
}

void TestVerificationSpec::listErrors()
{
    QCOMPARE(errorOf(R"([{"kind": "expression", "output": "c"}, {"kind": "none"}])"),
             std::string("[1].kind: a list of checks holds checks; leave out one of kind "
                         "\"none\""));
    QCOMPARE(errorOf(R"([{"kind": "expression"}, 3])"),
             std::string("[1]: expected an object, found number"));
    QCOMPARE(errorOf(R"([{"kind": "aggregate", "output": "p", "reduce": "sum"}])"),
             std::string("[0]: an aggregate check compares with either \"of\" (a buffer) or "
                         "\"expected\" (an expression), not both and not neither"));
}

void TestVerificationSpec::labels()
{
    QCOMPARE(expressionCheck("c", "1").label(), std::string("`c` (expression)"));
    VerificationSpec kernel;
    kernel.kind = ReferenceKind::Kernel;
    kernel.output = "C";
    kernel.referenceKernel = "matmul_naive";
    QCOMPARE(kernel.label(), std::string("`C` (reference kernel matmul_naive)"));
    VerificationSpec sum;
    sum.kind = ReferenceKind::Aggregate;
    sum.output = "partial";
    sum.reduce = Reduction::Max;
    sum.of = "in";
    QCOMPARE(sum.label(), std::string("`partial` (max against the max of `in`)"));
}

void TestVerificationSpec::projectFiles()
{
    // A project's verification as every version before wrote it saves unchanged...
    const char *old = R"({"schemaVersion": 1, "name": "old", "source": {"path": "k.cu"},
        "launch": {"kernel": "k"},
        "verification": {"kind": "expression", "output": "c", "expression": "1",
                         "mask": "i % 2 == 0", "count": "N / 2", "tolerance": "ulp",
                         "toleranceValue": 4.0}})";
    ProjectLoad load = parseProject(old);
    QVERIFY2(load.project, load.error.c_str());
    const nlohmann::json saved = nlohmann::json::parse(serializeProject(*load.project));
    QCOMPARE(saved["verification"], nlohmann::json::parse(old)["verification"]);
    QVERIFY(!saved["launch"].contains("then"));
    // ...and one with a list of checks keeps its list.
    Project project = *load.project;
    VerificationSpec second = expressionCheck("d", "2");
    second.tolerance = ToleranceKind::AllClose;
    project.verification.checks.push_back(second);
    const std::string text = serializeProject(project);
    load = parseProject(text);
    QVERIFY2(load.project, load.error.c_str());
    QVERIFY(load.project->verification == project.verification);
    QCOMPARE(serializeProject(*load.project), text);
    QVERIFY(nlohmann::json::parse(text)["verification"].is_array());
    // An error inside the list names the check.
    load = parseProject(R"({"schemaVersion": 1, "source": {"path": "k.cu"},
        "verification": [{"kind": "expression", "output": "c"}, {"kind": "file", "tolerance": 3}]})");
    QVERIFY(!load.project);
    QCOMPARE(load.error,
             std::string("verification[1].tolerance: expected one of abs, rel, ulp, allclose, "
                         "found number"));
}

void TestVerificationSpec::projectKeepsUnknownFieldsOfEachCheck()
{
    const char *text = R"({"schemaVersion": 1, "source": {"path": "k.cu"},
        "verification": [{"kind": "expression", "output": "c", "expression": "1", "note": "x"},
                         {"kind": "expression", "output": "d", "expression": "2"}]})";
    const ProjectLoad load = parseProject(text);
    QVERIFY2(load.project, load.error.c_str());
    const nlohmann::json saved = nlohmann::json::parse(serializeProject(*load.project));
    QCOMPARE(saved["verification"][0]["note"], nlohmann::json("x"));
    QVERIFY(!saved["verification"][1].contains("note"));
    // An object's unknown fields stay with it, and do not break a list it became.
    const ProjectLoad single = parseProject(R"({"schemaVersion": 1, "source": {"path": "k.cu"},
        "verification": {"kind": "expression", "output": "c", "expression": "1", "note": "y"}})");
    QVERIFY(single.project);
    Project edited = *single.project;
    edited.verification.checks.push_back(expressionCheck("d", "2"));
    const nlohmann::json list = nlohmann::json::parse(serializeProject(edited));
    QVERIFY(list["verification"].is_array());
    QCOMPARE(list["verification"].size(), std::size_t(2));
}

void TestVerificationSpec::projectPathsOfEveryCheck()
{
    Project project;
    project.sourcePath = "k.cu";
    VerificationSpec first;
    first.kind = ReferenceKind::File;
    first.output = "c";
    first.file = "expected/c.npy";
    VerificationSpec second = first;
    second.output = "d";
    second.file = "expected/d.npy";
    project.verification.checks = {first, second};
    KernelStep step;
    step.kernel = "finish";
    ArgumentSpec fromFile;
    fromFile.parameter = "weights";
    fromFile.init.kind = InitKind::File;
    fromFile.init.file = "w.npy";
    step.arguments = {fromFile};
    project.launch.then = {step};
    resolveProjectPaths(project, "/work/lab/p.cuwb");
    QCOMPARE(project.verification.checks[0].file, std::string("/work/lab/expected/c.npy"));
    QCOMPARE(project.verification.checks[1].file, std::string("/work/lab/expected/d.npy"));
    QCOMPARE(project.launch.then[0].arguments[0].init.file, std::string("/work/lab/w.npy"));
    // The request carries every check.
    const RunRequest request = projectRunRequest(project, "source");
    QCOMPARE(request.verification.checks.size(), std::size_t(2));
}

CUWB_TEST_GUILESS_MAIN(TestVerificationSpec)
} // namespace tst_verificationspec
} // namespace

#include "tst_verificationspec.moc"
