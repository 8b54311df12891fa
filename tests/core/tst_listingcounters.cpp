// The inspection's counters placed on a SASS listing (inspect/listingcounters.h): on the
// recorded nvdisasm listing of the transpose sample (data/sass/transpose.sass), counters at its
// offsets land on its instructions, the PC samples beside them; a counter at an offset the
// listing lacks, on another source line, or for a kernel it does not have is a mismatch that
// places nothing.
#include "compilertesthelpers.h"

#include "inspect/listingcounters.h"

#include <QObject>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_listingcounters {
using cuwbtest::readData;

namespace {

const SassListing &transposeListing()
{
    static const SassListing listing = parseNvdisasm(readData("sass/transpose.sass"));
    return listing;
}

SassInstructionCounters counted(std::uint32_t offset, std::uint32_t line,
                                std::map<std::string, std::uint64_t> values)
{
    SassInstructionCounters i;
    i.function = "transpose_naive";
    i.pcOffset = offset;
    i.file = "transpose.cu";
    i.line = line;
    i.values = std::move(values);
    return i;
}

// The naive transpose's load and store (line 19 of the sample), as an H200 counted them.
InspectResult naiveResult()
{
    InspectResult result;
    result.kernel = "transpose_naive";
    result.chip = "GH100";
    result.lineInfo = true;
    result.instructions = {
        counted(0x0000, 13, {{"smsp__sass_inst_executed", 2097152}}),
        counted(0x0150, 19,
                {{"smsp__sass_inst_executed", 2097152},
                 {"smsp__sass_inst_executed_op_global", 2097152},
                 {"smsp__sass_sectors_mem_global", 8388608},
                 {"smsp__sass_sectors_mem_global_ideal", 8388608}}),
        counted(0x0190, 19,
                {{"smsp__sass_inst_executed", 2097152},
                 {"smsp__sass_inst_executed_op_global", 2097152},
                 {"smsp__sass_inst_executed_op_global_st", 2097152},
                 {"smsp__sass_sectors_mem_global", 67108864},
                 {"smsp__sass_sectors_mem_global_ideal", 8388608}}),
    };
    PcStallSamples stall;
    stall.function = "transpose_naive";
    stall.pcOffset = 0x0190;
    stall.line = 19;
    stall.file = "transpose.cu";
    stall.samples = 300;
    stall.reasons = {{"lg_throttle", 200}, {"long_scoreboard", 100}};
    result.stalls.push_back(stall);
    stall.pcOffset = 0x0150;
    stall.samples = 100;
    stall.reasons = {{"selected", 100}};
    result.stalls.push_back(stall);
    result.stallSamples = 400;
    return result;
}

} // namespace

class TestListingCounters : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countersLandOnTheirInstructions()
    {
        const SassListing &listing = transposeListing();
        const ListingCounters counters = placeOnListing(naiveResult(), listing);
        QVERIFY2(counters.matches(), counters.mismatch.c_str());
        QCOMPARE(listing.functions[std::size_t(counters.functionIndex)].name,
                 std::string("transpose_naive"));
        QCOMPARE(counters.byOffset.size(), std::size_t(3));
        QCOMPARE(counters.instructionsExecuted, std::uint64_t(3 * 2097152));
        QCOMPARE(counters.stallSamples, std::uint64_t(400));

        const InstructionFigures *store = counters.at(0x0190);
        QVERIFY(store);
        QCOMPARE(store->totals.sectorsPerRequest(), 32.0);
        QCOMPARE(store->totals.idealSectorsPerRequest(), 4.0);
        QCOMPARE(store->stallSamples, std::uint64_t(300));
        QCOMPARE(store->stallReasons.at("lg_throttle"), std::uint64_t(200));
        const InstructionFigures *load = counters.at(0x0150);
        QVERIFY(load);
        QCOMPARE(load->totals.sectorsPerRequest(), 4.0);
        QCOMPARE(load->stallSamples, std::uint64_t(100));
        QVERIFY(!counters.at(0x0010)); // not counted
    }

    void anOffsetTheListingLacksIsAMismatch()
    {
        InspectResult result = naiveResult();
        result.instructions.push_back(counted(0x0198, 19, {{"smsp__sass_inst_executed", 1}}));
        const ListingCounters counters = placeOnListing(result, transposeListing());
        QVERIFY(!counters.matches());
        QVERIFY(counters.byOffset.empty());
        QVERIFY2(counters.mismatch.find("0x0198") != std::string::npos, counters.mismatch.c_str());
    }

    void anotherSourceLineIsAMismatch()
    {
        InspectResult result = naiveResult();
        result.instructions[1].line = 17; // the load is line 19's in this listing
        ListingCounters counters = placeOnListing(result, transposeListing());
        QVERIFY(!counters.matches());
        QVERIFY2(counters.mismatch.find("line 17") != std::string::npos, counters.mismatch.c_str());

        // The samples are checked the same way.
        result = naiveResult();
        result.stalls[0].pcOffset = 0x0400;
        counters = placeOnListing(result, transposeListing());
        QVERIFY(!counters.matches());
        QVERIFY(counters.byOffset.empty());
    }

    void withoutLineInformationOnlyOffsetsCount()
    {
        InspectResult result = naiveResult();
        result.lineInfo = false;
        for (SassInstructionCounters &i : result.instructions) {
            i.line = 0;
            i.file.clear();
        }
        for (PcStallSamples &pc : result.stalls)
            pc.line = 0;
        const ListingCounters counters = placeOnListing(result, transposeListing());
        QVERIFY2(counters.matches(), counters.mismatch.c_str());
        QCOMPARE(counters.byOffset.size(), std::size_t(3));
    }

    void aKernelTheListingLacksIsAMismatch()
    {
        InspectResult result = naiveResult();
        result.kernel = "transpose_tiled";
        const ListingCounters counters = placeOnListing(result, transposeListing());
        QVERIFY(!counters.matches());
        QCOMPARE(counters.functionIndex, -1);
        QVERIFY2(counters.mismatch.find("transpose_tiled") != std::string::npos,
                 counters.mismatch.c_str());
    }

    void aFailedInspectionPlacesNothing()
    {
        InspectResult result;
        result.kernel = "transpose_naive";
        result.error = "the kernel faulted";
        const ListingCounters counters = placeOnListing(result, transposeListing());
        QVERIFY(!counters.matches());
        QVERIFY(counters.mismatch.find("the kernel faulted") != std::string::npos);
    }
};

CUWB_TEST_APPLESS_MAIN(TestListingCounters)
} // namespace tst_listingcounters
} // namespace

#include "tst_listingcounters.moc"
