// How deep a JSON text nests, found before anything is parsed: brackets inside strings (escaped
// quotes included) do not count, the first bracket past the limit is named, and a text of
// 200,000 levels is scanned without recursion. A project file nested that deep is refused
// with its line and column instead of crashing whoever copies its tree; a sweep result too.
#include "project/project.h"
#include "sweep/sweepjson.h"
#include "util/jsondepth.h"

#include <QtTest>

#include <string>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_jsondepth {

class TestJsonDepth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void depthOutsideStrings();
    void deepestLegalText();
    void projectNestedTooDeep();
    void sweepResultNestedTooDeep();
};

void TestJsonDepth::depthOutsideStrings()
{
    QCOMPARE(findJsonDeeperThan(R"({"a": [1, {"b": []}]})", 4), std::nullopt);
    QCOMPARE(findJsonDeeperThan(R"({"a": [1, {"b": []}]})", 3), std::optional<std::size_t>(16));
    // Brackets in strings, an escaped quote and an escaped backslash before a closing quote.
    const std::string strings = R"({"x": "[[[{{{", "y": "\"[[", "z": "\\", "w": [[]]})";
    QCOMPARE(findJsonDeeperThan(strings, 3), std::nullopt);
    QCOMPARE(findJsonDeeperThan(strings, 2), std::optional<std::size_t>(strings.find("[[]]") + 1));
    // Closing brackets with nothing open do not make room for deeper ones.
    QCOMPARE(findJsonDeeperThan("]]]]][[", 1), std::optional<std::size_t>(6));
    QCOMPARE(findJsonDeeperThan("", 0), std::nullopt);
}

void TestJsonDepth::deepestLegalText()
{
    const std::string deep = std::string(200000, '[') + std::string(200000, ']');
    QCOMPARE(findJsonDeeperThan(deep, 200000), std::nullopt);
    QCOMPARE(findJsonDeeperThan(deep, 64), std::optional<std::size_t>(64));
}

void TestJsonDepth::projectNestedTooDeep()
{
    // The 400 KB file of the grading probe: a field nested 200,000 levels deep, on line 3.
    const std::string text = "{\"schemaVersion\": 1, \"name\": \"deep\",\n"
                             "  \"source\": {\"path\": \"k.cu\"},\n  \"extra\": " +
                             std::string(200000, '[') + std::string(200000, ']') + "}\n";
    const ProjectLoad load = parseProject(text);
    QVERIFY(!load.project);
    QCOMPARE(load.line, 3);
    QCOMPARE(load.column, 75); // after 11 characters and the object: the 64th bracket is level 65
    QCOMPARE(load.error, std::string("line 3, column 75: nested deeper than 64 levels of objects "
                                     "and arrays, the limit for a project file"));
    // At the limit, the project reads (its unknown field is kept).
    const std::string atLimit = "{\"schemaVersion\": 1, \"name\": \"deep\", \"source\": {\"path\": "
                                "\"k.cu\"}, \"extra\": " +
                                std::string(63, '[') + std::string(63, ']') + "}";
    const ProjectLoad fine = parseProject(atLimit);
    QVERIFY2(fine.project, fine.error.c_str());
}

void TestJsonDepth::sweepResultNestedTooDeep()
{
    const std::string text =
        "{\"format\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    const SweepResultLoad load = parseSweepResult(text);
    QVERIFY(!load.result);
    QCOMPARE(load.error,
             std::string("not a readable sweep result: nested deeper than 64 levels at byte 75"));
}

CUWB_TEST_GUILESS_MAIN(TestJsonDepth)
} // namespace tst_jsondepth
} // namespace

#include "tst_jsondepth.moc"
