// Parsing of real NVRTC 13 program logs (tests/core/data/*.log, captured from the .cu
// fixtures beside them) into diagnostics with exact lines and byte columns.
#include "compilertesthelpers.h"

#include "compiler/diagnosticparser.h"

#include <QObject>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_diagnosticparser {
using cuwbtest::columnOf;
using cuwbtest::readData;

class TestDiagnosticParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void errorsAndWarningsWithTabs();
    void hostLibraryHeaderGetsHint();
    void hostLibraryHintForEveryCHeader();
    void missingIncludeIsCatastrophicWithoutHint();
    void commandLineErrorHasNoLocation();
    void instantiationNotes();
    void severalKindsInOneLog();
    void endOfSourcePlacedOnLastLine();
    void errorLimit();
    void optimisationRemarks();
    void ptxasErrorsAndWarnings();
    void ptxasInfoIsNotADiagnostic();
    void caretInSourceLineDoesNotConfuseColumn();
    void crlfLineEndings();
    void oddInputNeverCrashes();
    void truncatedFixturesNeverCrash();
    void hostPreprocessorMessages();
    void nvccOwnMessages();
    void columnFoundOnTheUsersLine();
};

void TestDiagnosticParser::errorsAndWarningsWithTabs()
{
    const auto diagnostics = parseNvrtcLog(readData("errors_tabs.log"));
    QCOMPARE(diagnostics.size(), std::size_t(3));

    const Diagnostic &foo = diagnostics[0];
    QCOMPARE(foo.file, std::string("errors_tabs.cu"));
    QCOMPARE(foo.severity, Severity::Error);
    QCOMPARE(foo.line, 7);
    // Line 7 starts with a tab; NVRTC keeps the tab in its caret line.
    QCOMPARE(foo.column, columnOf("errors_tabs.cu", 7, "foo"));
    QCOMPARE(foo.column, 20);
    QCOMPARE(foo.message, std::string("identifier \"foo\" is undefined"));
    QVERIFY(foo.code.empty());
    QVERIFY(!foo.catastrophic);
    QVERIFY(foo.notes.empty());

    const Diagnostic &bar = diagnostics[1];
    QCOMPARE(bar.line, 8);
    // Spaces, then a tab inside the line before the identifier.
    QCOMPARE(bar.column, columnOf("errors_tabs.cu", 8, "bar"));
    QCOMPARE(bar.column, 17);

    const Diagnostic &unused = diagnostics[2];
    QCOMPARE(unused.severity, Severity::Warning);
    QCOMPARE(unused.code, std::string("177-D"));
    QCOMPARE(unused.line, 6);
    QCOMPARE(unused.column, columnOf("errors_tabs.cu", 6, "unused"));
    QCOMPARE(unused.message, std::string("variable \"unused\" was declared but never referenced"));

    const DiagnosticCounts counts = countDiagnostics(diagnostics);
    QCOMPARE(counts.errors, 2);
    QCOMPARE(counts.warnings, 1);
    QCOMPARE(counts.remarks, 0);
}

void TestDiagnosticParser::hostLibraryHeaderGetsHint()
{
    const auto diagnostics = parseNvrtcLog(readData("host_header.log"));
    QCOMPARE(diagnostics.size(), std::size_t(1));
    const Diagnostic &d = diagnostics[0];
    QCOMPARE(d.severity, Severity::Error);
    QVERIFY(d.catastrophic);
    QCOMPARE(d.line, 2);
    // The caret sits just past the include directive.
    QCOMPARE(d.column, int(std::string_view("#include <cstdlib>").size()) + 1);
    QVERIFY(d.message.starts_with("cannot open source file \"cstdlib\""));
    QVERIFY(d.message.find("no host C++ standard library") != std::string::npos);
    QVERIFY(d.message.find("<cuda/std/cstdlib>") != std::string::npos);
}

// Found by fuzz/fuzz_diagnostic under ASan: the header's name was a view into the message that
// the hint then grew, so naming its <cuda/std/...> equivalent read freed memory. Each C header
// and its equivalent, in messages of every length up to the heap.
void TestDiagnosticParser::hostLibraryHintForEveryCHeader()
{
    const std::pair<const char *, const char *> headers[] = {
        {"math.h", "cmath"}, {"stdint.h", "cstdint"}, {"time.h", "ctime"}, {"bit", "bit"}};
    for (const auto &[header, equivalent] : headers) {
        const std::string log =
            std::string("k.cu(1): catastrophic error: cannot open source file \"") + header +
            "\"\n";
        const auto diagnostics = parseNvrtcLog(log);
        QCOMPARE(diagnostics.size(), std::size_t(1));
        const std::string expected = std::string("(here <cuda/std/") + equivalent + ">)";
        QVERIFY2(diagnostics[0].message.ends_with(expected), diagnostics[0].message.c_str());
    }
}

void TestDiagnosticParser::missingIncludeIsCatastrophicWithoutHint()
{
    const auto diagnostics = parseNvrtcLog(readData("missing_include.log"));
    QCOMPARE(diagnostics.size(), std::size_t(1));
    const Diagnostic &d = diagnostics[0];
    QVERIFY(d.catastrophic);
    QCOMPARE(d.line, 2);
    QCOMPARE(d.column, int(std::string_view("#include \"missing_header.h\"").size()) + 1);
    QCOMPARE(d.message, std::string("cannot open source file \"missing_header.h\""));
}

void TestDiagnosticParser::commandLineErrorHasNoLocation()
{
    const auto diagnostics = parseNvrtcLog(readData("missing_preinclude.log"));
    QCOMPARE(diagnostics.size(), std::size_t(1));
    const Diagnostic &d = diagnostics[0];
    QCOMPARE(d.severity, Severity::Error);
    QVERIFY(d.catastrophic);
    QCOMPARE(d.line, 0);
    QCOMPARE(d.column, 0);
    QVERIFY(d.message.find("nonexistent_preinclude.h") != std::string::npos);
}

void TestDiagnosticParser::instantiationNotes()
{
    const auto diagnostics = parseNvrtcLog(readData("template_notes.log"));
    QCOMPARE(diagnostics.size(), std::size_t(3));

    // "detected during instantiation of ... at line 10" on one line.
    const Diagnostic &single = diagnostics[0];
    QCOMPARE(single.file, std::string("template_notes.cu"));
    QCOMPARE(single.line, 8);
    QCOMPARE(single.column, columnOf("template_notes.cu", 8, "p[1]"));
    QCOMPARE(single.notes.size(), std::size_t(1));
    QCOMPARE(single.notes[0].severity, Severity::Note);
    QCOMPARE(single.notes[0].file, std::string("template_notes.cu"));
    QCOMPARE(single.notes[0].line, 10);
    QCOMPARE(single.notes[0].message,
             std::string("instantiation of \"void bad(T *) [with T=int]\""));

    // "detected during:" then one line per level, crossing from the header into the source.
    const Diagnostic &chain = diagnostics[1];
    QCOMPARE(chain.file, std::string("template_notes.h"));
    QCOMPARE(chain.line, 5);
    QCOMPARE(chain.column, columnOf("template_notes.h", 5, "v.twice"));
    QCOMPARE(chain.message, std::string("expression must have class type but it has type "
                                        "\"float\""));
    QCOMPARE(chain.notes.size(), std::size_t(3));
    QCOMPARE(chain.notes[0].file, std::string("template_notes.h"));
    QCOMPARE(chain.notes[0].line, 10);
    QCOMPARE(chain.notes[0].message,
             std::string("instantiation of \"T twiceH(T) [with T=float]\""));
    QCOMPARE(chain.notes[1].file, std::string("template_notes.cu"));
    QCOMPARE(chain.notes[1].line, 15);
    QCOMPARE(chain.notes[2].file, std::string("template_notes.cu"));
    QCOMPARE(chain.notes[2].line, 17);
    QCOMPARE(chain.notes[2].message,
             std::string("instantiation of \"void deep(T *) [with T=float]\""));

    // Instantiated by a name expression: NVRTC gives no line.
    const Diagnostic &byName = diagnostics[2];
    QCOMPARE(byName.notes.size(), std::size_t(1));
    QCOMPARE(byName.notes[0].line, 0);
    QCOMPARE(byName.notes[0].message,
             std::string("instantiation of \"void bad(T *) [with T=float]\""));
}

void TestDiagnosticParser::severalKindsInOneLog()
{
    const auto diagnostics = parseNvrtcLog(readData("mixed.log"));
    QCOMPARE(diagnostics.size(), std::size_t(6));

    QCOMPARE(diagnostics[0].line, 6);
    QCOMPARE(diagnostics[0].column, columnOf("mixed.cu", 6, "host_only"));
    QVERIFY(diagnostics[0].message.find("host function") != std::string::npos);

    // An error whose message continues on an indented line, followed (with no blank line)
    // by "note #3326-D" diagnostics that belong to it.
    const Diagnostic &overload = diagnostics[1];
    QCOMPARE(overload.line, 9);
    QCOMPARE(overload.column, columnOf("mixed.cu", 9, "f(\"str\")"));
    QCOMPARE(overload.message,
             std::string("no instance of overloaded function \"f\" matches the argument list; "
                         "argument types are: (const char [4])"));
    QCOMPARE(overload.notes.size(), std::size_t(2));
    QCOMPARE(overload.notes[0].severity, Severity::Note);
    QCOMPARE(overload.notes[0].code, std::string("3326-D"));
    QCOMPARE(overload.notes[0].line, 5);
    QCOMPARE(overload.notes[0].column, columnOf("mixed.cu", 5, "f(double"));
    QCOMPARE(overload.notes[1].line, 4);
    QCOMPARE(overload.notes[1].column, columnOf("mixed.cu", 4, "f(int"));

    // The column counts bytes: two 2-byte UTF-8 characters come before the identifier.
    QCOMPARE(diagnostics[2].line, 10);
    QCOMPARE(diagnostics[2].column, columnOf("mixed.cu", 10, "undefinedAfterUtf8"));
    QCOMPARE(diagnostics[2].column, 46);

    QCOMPARE(diagnostics[3].severity, Severity::Warning);
    QCOMPARE(diagnostics[3].code, std::string("186-D"));
    QCOMPARE(diagnostics[3].line, 12);
    QCOMPARE(diagnostics[3].column, columnOf("mixed.cu", 12, ">="));
    QCOMPARE(diagnostics[4].code, std::string("177-D"));
    QCOMPARE(diagnostics[4].column, columnOf("mixed.cu", 10, "s ="));
    QCOMPARE(diagnostics[5].code, std::string("550-D"));
    QCOMPARE(diagnostics[5].line, 11);

    const DiagnosticCounts counts = countDiagnostics(diagnostics);
    QCOMPARE(counts.errors, 3);
    QCOMPARE(counts.warnings, 3);
}

void TestDiagnosticParser::endOfSourcePlacedOnLastLine()
{
    const auto diagnostics = parseNvrtcLog(readData("end_of_source.log"), "end_of_source.cu", 4);
    QCOMPARE(diagnostics.size(), std::size_t(1));
    const Diagnostic &d = diagnostics[0];
    QCOMPARE(d.severity, Severity::Error);
    QCOMPARE(d.file, std::string("end_of_source.cu"));
    QCOMPARE(d.line, 4);
    QVERIFY(d.message.starts_with("expected a \"}\""));
    QCOMPARE(d.notes.size(), std::size_t(1));
    QCOMPARE(d.notes[0].code, std::string("3196-D"));
    QCOMPARE(d.notes[0].line, 3);
    QCOMPARE(d.notes[0].column, 1);

    // Without the source's size the location stays unknown rather than invented.
    const auto unplaced = parseNvrtcLog(readData("end_of_source.log"));
    QCOMPARE(unplaced.size(), std::size_t(1));
    QCOMPARE(unplaced[0].line, 0);
}

void TestDiagnosticParser::errorLimit()
{
    const auto diagnostics = parseNvrtcLog(readData("many_errors.log"));
    QCOMPARE(diagnostics.size(), std::size_t(100));
    QCOMPARE(countDiagnostics(diagnostics).errors, 100);
    QCOMPARE(diagnostics.front().line, 4);
    QCOMPARE(diagnostics.front().column, columnOf("many_errors.cu", 4, "undefined_0"));
    QCOMPARE(diagnostics.back().line, 103);
    QCOMPARE(diagnostics.back().column, columnOf("many_errors.cu", 103, "undefined_99"));
    QCOMPARE(diagnostics.back().notes.size(), std::size_t(1));
    QVERIFY(diagnostics.back().notes[0].message.find("error limit") != std::string::npos);
}

void TestDiagnosticParser::optimisationRemarks()
{
    const auto diagnostics = parseNvrtcLog(readData("remarks.log"));
    // NVVM reports its inlining decisions more than once as the passes run.
    QCOMPARE(diagnostics.size(), std::size_t(5));
    for (const Diagnostic &d : diagnostics) {
        QCOMPARE(d.severity, Severity::Remark);
        QCOMPARE(d.file, std::string("remarks.cu"));
        QCOMPARE(d.line, 7);
        QCOMPARE(d.column, 5);
    }
    QCOMPARE(diagnostics[0].message, std::string("_Z1ff not inlined into _Z1kPf because it should "
                                                 "never be inlined (cost=never)"));
    QCOMPARE(diagnostics[3].message,
             std::string("_Z1gf inlined into _Z1kPf with cost=-15030 (threshold=1687)"));
    QCOMPARE(countDiagnostics(diagnostics).remarks, 5);
    QCOMPARE(countDiagnostics(diagnostics).errors, 0);

    // The front end's own remark form, as "#pragma nv_diag_remark" would print it.
    const auto edg = parseNvrtcLog("k.cu(3): remark #177-D: variable \"x\" was declared but never "
                                   "referenced\n      int x;\n          ^\n\n");
    QCOMPARE(edg.size(), std::size_t(1));
    QCOMPARE(edg[0].severity, Severity::Remark);
    QCOMPARE(edg[0].code, std::string("177-D"));
    QCOMPARE(edg[0].line, 3);
    QCOMPARE(edg[0].column, 9);
}

void TestDiagnosticParser::ptxasErrorsAndWarnings()
{
    const auto errors = parseNvrtcLog(readData("bad_asm.log"));
    QCOMPARE(errors.size(), std::size_t(3));
    QCOMPARE(countDiagnostics(errors).errors, 3);
    QCOMPARE(errors[0].line, 0); // a PTX line, not a source line
    QVERIFY(errors[0].message.find("Unknown modifier '.instr'") != std::string::npos);
    QVERIFY(errors[0].message.find("line 28") != std::string::npos);
    QVERIFY(errors[2].catastrophic);

    const auto spill = parseNvrtcLog(readData("resources_sm80_maxrreg32.log"));
    QCOMPARE(spill.size(), std::size_t(1));
    QCOMPARE(spill[0].severity, Severity::Warning);
    QCOMPARE(spill[0].line, 0);
    QVERIFY(spill[0].message.find("spilled") != std::string::npos);
    QVERIFY(spill[0].message.find("_Z5heavyPKfPfi") != std::string::npos);
}

void TestDiagnosticParser::ptxasInfoIsNotADiagnostic()
{
    QVERIFY(parseNvrtcLog(readData("resources_sm90.log")).empty());
}

void TestDiagnosticParser::caretInSourceLineDoesNotConfuseColumn()
{
    // The copied source line itself looks like a caret line.
    const auto diagnostics =
        parseNvrtcLog("x.cu(2): error: expected an expression\n    ^\n      ^\n\n");
    QCOMPARE(diagnostics.size(), std::size_t(1));
    QCOMPARE(diagnostics[0].column, 5);
}

void TestDiagnosticParser::crlfLineEndings()
{
    const auto diagnostics = parseNvrtcLog(
        "a.cu(3): warning #177-D: variable \"q\" was declared but never referenced\r\n"
        "      int q;\r\n          ^\r\n\r\n");
    QCOMPARE(diagnostics.size(), std::size_t(1));
    QCOMPARE(diagnostics[0].column, 9);
    QCOMPARE(diagnostics[0].message,
             std::string("variable \"q\" was declared but never referenced"));
}

void TestDiagnosticParser::oddInputNeverCrashes()
{
    QVERIFY(parseNvrtcLog("").empty());
    QVERIFY(parseNvrtcLog(std::string_view("\0\0\0", 3)).empty());
    QVERIFY(parseNvrtcLog("\n\n\n").empty());
    QVERIFY(parseNvrtcLog("just some text\nwith lines").empty());

    const auto truncated = parseNvrtcLog("a.cu(12");
    QVERIFY(truncated.empty());
    const auto noMessage = parseNvrtcLog("a.cu(12): error:");
    QCOMPARE(noMessage.size(), std::size_t(1));
    QCOMPARE(noMessage[0].line, 12);
    QVERIFY(noMessage[0].message.empty());
    QVERIFY(parseNvrtcLog("a.cu(12): error #").empty());
    const auto hugeLine = parseNvrtcLog("a.cu(99999999999999999999): error: x\n  y\n  ^\n");
    QCOMPARE(hugeLine.size(), std::size_t(1));
    QVERIFY(hugeLine[0].line > 0);
    // A caret with nothing before it, and notes with no diagnostic to attach to.
    QCOMPARE(parseNvrtcLog("^\n").size(), std::size_t(0));
    const auto orphan = parseNvrtcLog("a.cu(1): note #3196-D: to match this \"{\"\n");
    QCOMPARE(orphan.size(), std::size_t(1));
    QCOMPARE(orphan[0].severity, Severity::Note);
    QCOMPARE(parseNvrtcLog("Error limit reached.\n").size(), std::size_t(0));
    const auto oddNote = parseNvrtcLog("a.cu(1): error: e\n  x\n  ^\n          detected during "
                                       "instantiation of \"f\" at line \n");
    QCOMPARE(oddNote.size(), std::size_t(1));
    QCOMPARE(oddNote[0].notes.size(), std::size_t(1));
    QCOMPARE(oddNote[0].notes[0].line, 0);

    // 500 diagnostics.
    std::string many;
    for (int i = 1; i <= 500; ++i) {
        many += "m.cu(" + std::to_string(i) + "): error: identifier \"x" + std::to_string(i) +
                "\" is undefined\n      p = x;\n          ^\n\n";
    }
    const auto all = parseNvrtcLog(many);
    QCOMPARE(all.size(), std::size_t(500));
    QCOMPARE(all[499].line, 500);
    QCOMPARE(all[499].column, 9);
}

void TestDiagnosticParser::truncatedFixturesNeverCrash()
{
    // Every prefix of every real log: the parser must cope with a log cut anywhere, and
    // whatever it returns must be well formed.
    for (const char *name : {"errors_tabs.log", "template_notes.log", "mixed.log",
                             "end_of_source.log", "remarks.log", "bad_asm.log"}) {
        const std::string log = readData(name);
        for (std::size_t length = 0; length <= log.size(); ++length) {
            for (const Diagnostic &d : parseNvrtcLog(std::string_view(log).substr(0, length))) {
                QVERIFY(d.line >= 0);
                QVERIFY(d.column >= 0);
            }
        }
    }
}

CUWB_TEST_GUILESS_MAIN(TestDiagnosticParser)
// Under nvcc the host preprocessor (gcc) reports what it stops at, in its own form, with an
// excerpt that is not a source copy.
void TestDiagnosticParser::hostPreprocessorMessages()
{
    const std::string log = "In file included from main.cu:3:\n"
                            "helpers.cuh:7:10: fatal error: missing.h: No such file or directory\n"
                            "    7 | #include \"missing.h\"\n"
                            "      |          ^~~~~~~~~~~\n"
                            "compilation terminated.\n"
                            "main.cu:2:2: warning: #warning check this [-Wcpp]\n"
                            "    2 | #warning check this\n"
                            "      |  ^~~~~~~\n";
    const std::vector<Diagnostic> diagnostics = parseNvrtcLog(log, "main.cu", 10);
    QCOMPARE(diagnostics.size(), std::size_t(2));
    QCOMPARE(diagnostics[0].file, std::string("helpers.cuh"));
    QCOMPARE(diagnostics[0].line, 7);
    QCOMPARE(diagnostics[0].column, 10);
    QVERIFY(diagnostics[0].catastrophic);
    QCOMPARE(diagnostics[0].severity, Severity::Error);
    QCOMPARE(diagnostics[0].message, std::string("cannot open source file \"missing.h\""));
    QCOMPARE(diagnostics[1].severity, Severity::Warning);
    QCOMPARE(diagnostics[1].line, 2);
    QCOMPARE(diagnostics[1].message, std::string("#warning check this [-Wcpp]"));
}

void TestDiagnosticParser::nvccOwnMessages()
{
    const std::vector<Diagnostic> diagnostics =
        parseNvrtcLog("nvcc warning : The 'compute_75' architecture is deprecated\n"
                      "nvcc fatal   : Unknown option '-foo'\n");
    QCOMPARE(diagnostics.size(), std::size_t(2));
    QCOMPARE(diagnostics[0].severity, Severity::Warning);
    QCOMPARE(diagnostics[1].severity, Severity::Error);
    QVERIFY(diagnostics[1].catastrophic);
    QCOMPARE(diagnostics[1].message, std::string("nvcc: Unknown option '-foo'"));
    QCOMPARE(diagnostics[1].line, 0);
}

// nvcc's front end copies the preprocessed line: macros expanded, comments gone. The column
// is that of the same token on the user's line.
void TestDiagnosticParser::columnFoundOnTheUsersLine()
{
    const std::string source = "#define KERNEL __global__\n"
                               "KERNEL void k(undefined_t *p) { } // undefined_t again\n"
                               "__global__ void m(int *p) { p[0] = count; } // count\n";
    const std::string copy2 = "__attribute__((global)) void k(undefined_t *p) { }";
    const std::string copy3 = "__attribute__((global)) void m(int *p) { p[0] = count; }";
    const auto caret = [](const std::string &copy, const char *token) {
        return std::string(2 + copy.find(token), ' ') + "^\n";
    };
    const std::string log = "m.cu(2): error: identifier \"undefined_t\" is undefined\n  " + copy2 +
                            "\n" + caret(copy2, "undefined_t") +
                            "\nm.cu(3): error: identifier \"count\" is undefined\n  " + copy3 +
                            "\n" + caret(copy3, "count;");
    const std::vector<Diagnostic> diagnostics = parseNvrtcLog(log, "m.cu", 3, source);
    QCOMPARE(diagnostics.size(), std::size_t(2));
    QCOMPARE(diagnostics[0].column, 15); // not the mention in the comment
    QCOMPARE(diagnostics[1].column, 36);
    // Without the source the caret's offset is all there is.
    QCOMPARE(parseNvrtcLog(log, "m.cu", 3)[0].column, int(copy2.find("undefined_t")) + 1);
}

} // namespace tst_diagnosticparser
} // namespace

#include "tst_diagnosticparser.moc"
