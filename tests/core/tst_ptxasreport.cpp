// Parsing of ptxas' -v report, from real NVRTC 13 logs: per-kernel registers, shared and
// constant memory, stack frame, spills and barriers, keyed by the lowered name.
#include "compilertesthelpers.h"

#include "compiler/ptxasreport.h"

#include <QObject>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_ptxasreport {
using cuwbtest::readData;

class TestPtxasReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sm90ReportWithoutConstantBank();
    void sm80ReportWithSpillsAndConstantBank();
    void deviceFunctionsAreNotKernels();
    void absentFieldsStayZero();
    void oddInput();
    void nvccReport();
};

void TestPtxasReport::sm90ReportWithoutConstantBank()
{
    const auto report = parsePtxasReport(readData("resources_sm90.log"));
    QCOMPARE(report.size(), std::size_t(5));

    const KernelResources &add = report.at("vector_add");
    QVERIFY(add.reported);
    QCOMPARE(add.registers, 12);
    QCOMPARE(add.barriers, 0);
    QCOMPARE(add.staticSharedBytes, 0);
    QCOMPARE(add.constantBytes, 0); // ptxas 13 prints no cmem[0] for sm_90
    QCOMPARE(add.spillStoreBytes, 0);

    const KernelResources &shared = report.at("_Z10withSharedIdEvPT_");
    QCOMPARE(shared.registers, 12);
    QCOMPARE(shared.barriers, 1);
    QCOMPARE(shared.staticSharedBytes, 256 * int(sizeof(double)));

    const KernelResources &stacky = report.at("_Z6stackyPii");
    QCOMPARE(stacky.stackFrameBytes, 100 * int(sizeof(int)));
    QCOMPARE(stacky.registers, 34);

    QCOMPARE(report.at("_Z5heavyPKfPfi").registers, 72);
    QCOMPARE(report.at("_Z5heavyPKfPfi").spillStoreBytes, 0);
    QCOMPARE(report.at("_Z5emptyv").registers, 4);
}

void TestPtxasReport::sm80ReportWithSpillsAndConstantBank()
{
    // resources.cu compiled with --maxrregcount=32: heavy() keeps 64 floats live and spills.
    const auto report = parsePtxasReport(readData("resources_sm80_maxrreg32.log"));
    QCOMPARE(report.size(), std::size_t(5));

    const KernelResources &heavy = report.at("_Z5heavyPKfPfi");
    QCOMPARE(heavy.registers, 32);
    QCOMPARE(heavy.spillStoreBytes, 1244);
    QCOMPARE(heavy.spillLoadBytes, 2404);
    QCOMPARE(heavy.stackFrameBytes, 1256);
    QCOMPARE(heavy.constantBytes, 372);

    const KernelResources &add = report.at("vector_add");
    QCOMPARE(add.registers, 12);
    QCOMPARE(add.constantBytes, 380);
    QCOMPARE(add.spillLoadBytes, 0);
    QCOMPARE(report.at("_Z10withSharedIdEvPT_").staticSharedBytes, 2048);
    QCOMPARE(report.at("_Z10withSharedIdEvPT_").constantBytes, 360);
}

void TestPtxasReport::deviceFunctionsAreNotKernels()
{
    // Real -G report: a recursive device function gets a "Function properties" block (with
    // spills) before any entry; it must not appear as a kernel or leak into one.
    const std::string log =
        "ptxas warning : Stack size for entry function '_Z1kPi' cannot be statically "
        "determined\n"
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Function properties for _Z4facti\n"
        "ptxas         .     16 bytes stack frame, 12 bytes spill stores, 12 bytes spill loads\n"
        "ptxas info    : Compile time = 1.454 ms\n"
        "ptxas info    : Compiling entry function '_Z1kPi' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z1kPi\n"
        "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 24 registers, used 0 barriers\n"
        "ptxas info    : Compile time = 0.741 ms\n"
        "ptxas info    : Function properties for _Z1ff\n"
        "ptxas         .     8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n";
    const auto report = parsePtxasReport(log);
    QCOMPARE(report.size(), std::size_t(1));
    const KernelResources &k = report.at("_Z1kPi");
    QCOMPARE(k.registers, 24);
    QCOMPARE(k.spillStoreBytes, 0);
    QCOMPARE(k.stackFrameBytes, 0);
}

void TestPtxasReport::absentFieldsStayZero()
{
    const auto report = parsePtxasReport("ptxas info    : Compiling entry function 'k' for "
                                         "'sm_90'\nptxas info    : Used 7 registers\n");
    QCOMPARE(report.size(), std::size_t(1));
    QVERIFY(report.at("k").reported);
    QCOMPARE(report.at("k").registers, 7);
    QCOMPARE(report.at("k").barriers, 0);
    QCOMPARE(report.at("k").stackFrameBytes, 0);
}

void TestPtxasReport::oddInput()
{
    QVERIFY(parsePtxasReport("").empty());
    QVERIFY(parsePtxasReport(readData("errors_tabs.log")).empty());
    QVERIFY(parsePtxasReport("ptxas info    : Compiling entry function 'k").empty());
    const auto noUse = parsePtxasReport("ptxas info    : Used 7 registers\n");
    QVERIFY(noUse.empty());
    const std::string log = readData("resources_sm80_maxrreg32.log");
    for (std::size_t length = 0; length <= log.size(); length += 7)
        parsePtxasReport(std::string_view(log).substr(0, length)); // must not crash
}

CUWB_TEST_GUILESS_MAIN(TestPtxasReport)
// nvcc prints a function's stack line without ptxas' "ptxas ." prefix.
void TestPtxasReport::nvccReport()
{
    const std::string log =
        "ptxas info    : Overriding maximum register limit 256 for '_Z5heavyPKfPfi' with  32 of "
        "maxrregcount option\n"
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function '_Z5heavyPKfPfi' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z5heavyPKfPfi\n"
        "    1336 bytes stack frame, 1444 bytes spill stores, 2588 bytes spill loads\n"
        "ptxas info    : Used 32 registers, used 0 barriers, 1336 bytes cumulative stack size\n";
    const auto report = parsePtxasReport(log);
    QCOMPARE(report.size(), std::size_t(1));
    const KernelResources &heavy = report.at("_Z5heavyPKfPfi");
    QCOMPARE(heavy.registers, 32);
    QCOMPARE(heavy.stackFrameBytes, 1336);
    QCOMPARE(heavy.spillStoreBytes, 1444);
    QCOMPARE(heavy.spillLoadBytes, 2588);
}

} // namespace tst_ptxasreport
} // namespace

#include "tst_ptxasreport.moc"
