// The PTX <-> source line map built from -lineinfo's .file/.loc directives: real NVRTC PTX
// fixtures (tests/core/data/linemap*.ptx from linemap.cu) and a direct compile.
#include "compilertesthelpers.h"

#include "compiler/kernelcompiler.h"
#include "compiler/ptxlinemap.h"

#include <QObject>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_ptxlinemap {
using cuwbtest::readData;

class TestPtxLineMap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lineInfoFixture();
    void inlinedCodeMapsToItsOwnLineInTheMainFile();
    void debugFixtureWithFileTableAtTheEnd();
    void mainFileMatchesWholePathComponents();
    void fileWithTimestampAndHeaderInlinedAt();
    void noLineInfoGivesEmptyMap();
    void directCompile();
};

namespace {
std::vector<int> lines(std::initializer_list<int> values)
{
    return std::vector<int>(values);
}

// The trimmed text of a 1-based PTX line.
QByteArray ptxLine(const std::string &ptx, int line)
{
    return QByteArray::fromStdString(ptx).split('\n').value(line - 1).trimmed();
}
} // namespace

void TestPtxLineMap::lineInfoFixture()
{
    const std::string ptx = readData("linemap.ptx");
    // NVRTC wrote the program name as an absolute path: /tmp/fixture/linemap.cu.
    const PtxLineMap map = PtxLineMap::build(ptx, "linemap.cu");
    QVERIFY(!map.empty());

    // scaleBy(): "return x * factor;" is line 5 of linemap.cu.
    QCOMPARE(map.ptxLinesForSource(5), lines({24, 25, 26}));
    QVERIFY(ptxLine(ptx, 24).startsWith("mul.f32"));
    // The kernel's parameter loads belong to its opening line, the bounds check to line 16.
    QCOMPARE(map.ptxLinesForSource(13), lines({43, 44, 45}));
    QCOMPARE(map.ptxLinesForSource(16), lines({52, 53}));
    // Line 15 is revisited: index computation, then two address conversions later on.
    QCOMPARE(map.ptxLinesForSource(15), lines({47, 48, 49, 50, 56, 77}));
    QCOMPARE(map.ptxLinesForSource(19), lines({79, 80}));
    QCOMPARE(map.ptxLinesForSource(20), lines({84}));
    // Comment lines and blank lines of the source generate nothing.
    QVERIFY(map.ptxLinesForSource(1).empty());
    QVERIFY(map.ptxLinesForSource(7).empty());
    QVERIFY(map.ptxLinesForSource(0).empty());
    QVERIFY(map.ptxLinesForSource(100000).empty());

    const SourceLocation store = map.sourceForPtxLine(80);
    QCOMPARE(store.line, 19);
    QVERIFY(store.file.ends_with("/linemap.cu"));
    // Directives, labels, braces and the header carry no source line.
    QCOMPARE(map.sourceForPtxLine(19).line, 0); // the .loc itself
    QCOMPARE(map.sourceForPtxLine(30).line, 0); // .visible .entry linemap(
    QCOMPARE(map.sourceForPtxLine(82).line, 0); // $L__BB1_2:
    QCOMPARE(map.sourceForPtxLine(86).line, 0); // }
    QCOMPARE(map.sourceForPtxLine(1).line, 0);
    QCOMPARE(map.sourceForPtxLine(-3).line, 0);
    QCOMPARE(map.sourceForPtxLine(1000000).line, 0);

    // Every mapped PTX line maps back to the source line it is listed under.
    for (int source = 1; source <= 20; ++source) {
        for (int ptxLineNumber : map.ptxLinesForSource(source))
            QCOMPARE(map.sourceForPtxLine(ptxLineNumber).line, source);
    }
}

void TestPtxLineMap::inlinedCodeMapsToItsOwnLineInTheMainFile()
{
    // ".loc 1 10 5, function_name $L__info_string0, inlined_at 1 19 5": addOne() inlined into
    // the kernel; its body is line 10 of the main file, so that is where the add belongs.
    const std::string ptx = readData("linemap.ptx");
    const PtxLineMap map = PtxLineMap::build(ptx, "linemap.cu");
    QVERIFY(ptxLine(ptx, 75).startsWith("add.f32"));
    QCOMPARE(map.sourceForPtxLine(75).line, 10);
    QCOMPARE(map.ptxLinesForSource(10), lines({75}));
}

void TestPtxLineMap::debugFixtureWithFileTableAtTheEnd()
{
    // With -G, ".file 1" follows all the code that refers to it.
    const std::string ptx = readData("linemap_debug.ptx");
    QVERIFY(ptx.find(".file\t1") > ptx.find(".loc"));
    const PtxLineMap map = PtxLineMap::build(ptx, "linemap.cu");
    QVERIFY(!map.empty());
    for (int source : {3, 5, 8, 10, 13, 15, 16, 17, 18, 19, 20}) {
        QVERIFY2(!map.ptxLinesForSource(source).empty(), qPrintable(QString::number(source)));
    }
    // Unoptimised, the early return of line 17 gets code of its own.
    for (int ptxLineNumber : map.ptxLinesForSource(5))
        QCOMPARE(map.sourceForPtxLine(ptxLineNumber).line, 5);
}

void TestPtxLineMap::mainFileMatchesWholePathComponents()
{
    const std::string ptx = readData("linemap.ptx");
    QVERIFY(PtxLineMap::build(ptx, "map.cu").ptxLinesForSource(5).empty());
    QCOMPARE(PtxLineMap::build(ptx, "/tmp/fixture/linemap.cu").ptxLinesForSource(5),
             lines({24, 25, 26}));
    QCOMPARE(PtxLineMap::build(ptx, "fixture/linemap.cu").ptxLinesForSource(5),
             lines({24, 25, 26}));
    QVERIFY(PtxLineMap::build(ptx, "").ptxLinesForSource(5).empty());
}

void TestPtxLineMap::fileWithTimestampAndHeaderInlinedAt()
{
    // Hand-written in the forms older toolkits and nvcc use: ".file N "name", mtime, size",
    // and header code inlined into the main file.
    const std::string ptx = "//\n"                                  // 1
                            ".visible .entry k(\n"                  // 2
                            ")\n"                                   // 3
                            "{\n"                                   // 4
                            "\t.loc\t1 4 0\n"                       // 5
                            "\tld.param.u64 \t%rd1, [k_param_0];\n" // 6
                            "\t.loc\t2 120 3, function_name $L__info_string0, "
                            "inlined_at 1 7 5\n"                                      // 7
                            "\tcvt.rn.f16.f32 \t%rs1, %f1;\n"                         // 8
                            "\t.loc\t2 130 3\n"                                       // 9
                            "\tmov.b16 \t%rs2, %rs1;\n"                               // 10
                            "\tret;\n"                                                // 11
                            "}\n"                                                     // 12
                            "\t.file\t1 \"/home/u/k.cu\", 1700000000, 512\n"          // 13
                            "\t.file\t2 \"/usr/local/cuda/include/cuda_fp16.hpp\"\n"; // 14
    const PtxLineMap map = PtxLineMap::build(ptx, "k.cu");
    QCOMPARE(map.ptxLinesForSource(4), lines({6}));
    QCOMPARE(map.ptxLinesForSource(7), lines({8}));
    QCOMPARE(map.sourceForPtxLine(6), (SourceLocation{"/home/u/k.cu", 4}));
    // Header code not inlined into the main file keeps the header's location, and is no
    // source line of the main file.
    QCOMPARE(map.sourceForPtxLine(10),
             (SourceLocation{"/usr/local/cuda/include/cuda_fp16.hpp", 130}));
    QVERIFY(map.ptxLinesForSource(130).empty());
}

void TestPtxLineMap::noLineInfoGivesEmptyMap()
{
    const PtxLineMap map = PtxLineMap::build(".visible .entry k()\n{\n\tret;\n}\n", "k.cu");
    QVERIFY(map.empty());
    QVERIFY(PtxLineMap::build("", "k.cu").empty());
    QVERIFY(PtxLineMap().ptxLinesForSource(1).empty());
    QCOMPARE(PtxLineMap().sourceForPtxLine(1).line, 0);
    // Malformed directives are ignored, not trusted.
    const PtxLineMap odd = PtxLineMap::build(".file 1\n.loc\n.loc 1\n.loc x y\nadd;\n", "k.cu");
    QVERIFY(odd.empty());
}

void TestPtxLineMap::directCompile()
{
    KernelCompiler compiler;
    const std::string source = readData("linemap.cu");
    CompileOptions options;
    const CompileResult result = compiler.compile(source, "linemap.cu", options);
    QVERIFY2(result.success, result.log.c_str());
    QVERIFY(!result.lineMap.empty());
    const std::vector<int> mul = result.lineMap.ptxLinesForSource(5);
    QVERIFY(!mul.empty());
    bool foundMultiply = false;
    for (int line : mul)
        foundMultiply = foundMultiply || ptxLine(result.ptx, line).startsWith("mul.f32");
    QVERIFY(foundMultiply);
    QVERIFY(!result.lineMap.ptxLinesForSource(19).empty());

    options.lineInfo = false;
    const CompileResult plain = compiler.compile(source, "linemap.cu", options);
    QVERIFY(plain.success);
    QVERIFY(plain.lineMap.empty());
}

CUWB_TEST_GUILESS_MAIN(TestPtxLineMap)
} // namespace tst_ptxlinemap
} // namespace

#include "tst_ptxlinemap.moc"
