// The inspection pass's counters placed on source lines: the per-line totals, the findings
// (uncoalesced loads and stores told apart, bank conflicts, local memory, divergence) and the
// notes, on counters shaped like the H200's for the transpose samples; and the JSON the worker
// sends them in.
#include "inspect/instructioncountersjson.h"
#include "inspect/linecounters.h"

#include <QtTest>

#include <string>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_linecounters {

namespace {

SassInstructionCounters instruction(std::uint32_t offset, std::uint32_t line,
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

// The naive transpose's line 19 on the H200: a coalesced load (4 sectors a request) and a
// store whose warp touches 32 sectors, 2^21 requests each; line 16 computes an index.
InspectResult naiveTranspose()
{
    InspectResult r;
    r.kernel = "transpose_naive";
    r.chip = "GH100";
    r.lineInfo = true;
    const std::uint64_t requests = 2097152;
    r.instructions = {
        instruction(0x10, 16,
                    {{"smsp__sass_inst_executed", 8388608},
                     {"smsp__sass_thread_inst_executed_pred_on", 8388608ull * 32}}),
        instruction(0x90, 19,
                    {{"smsp__sass_inst_executed", requests},
                     {"smsp__sass_thread_inst_executed_pred_on", requests * 32},
                     {"smsp__sass_inst_executed_op_global", requests},
                     {"smsp__sass_sectors_mem_global", requests * 4},
                     {"smsp__sass_sectors_mem_global_ideal", requests * 4}}),
        instruction(0xa0, 19,
                    {{"smsp__sass_inst_executed", requests},
                     {"smsp__sass_thread_inst_executed_pred_on", requests * 32},
                     {"smsp__sass_inst_executed_op_global", requests},
                     {"smsp__sass_inst_executed_op_global_st", requests},
                     {"smsp__sass_sectors_mem_global", requests * 32},
                     {"smsp__sass_sectors_mem_global_ideal", requests * 4}}),
        instruction(0xb0, 0, {{"smsp__sass_inst_executed", 1000}}),
    };
    return r;
}

const LineCounters *lineOf(const InspectSummary &summary, int line)
{
    for (const LineCounters &l : summary.lines) {
        if (l.line == line)
            return &l;
    }
    return nullptr;
}

} // namespace

class TestLineCounters : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void storeFlaggedLoadNot();
    void bankConflictLocalMemoryAndDivergence();
    void notesSayWhatIsMissing();
    void hottestLinesFirst();
    void jsonRoundTrip();
};

void TestLineCounters::storeFlaggedLoadNot()
{
    const InspectSummary summary = summarise(naiveTranspose());
    QCOMPARE(summary.kernel, std::string("transpose_naive"));
    QCOMPARE(summary.lines.size(), std::size_t(2));
    const LineCounters *line = lineOf(summary, 19);
    QVERIFY(line);
    QCOMPARE(line->totals.globalRequests, std::uint64_t(2 * 2097152));
    QCOMPARE(line->totals.sectorsPerRequest(), 18.0);
    QCOMPARE(line->offsets, (std::vector<std::uint32_t>{0x90, 0xa0}));
    QCOMPARE(line->findings.size(), std::size_t(1));
    QCOMPARE(line->findings.front().kind, FindingKind::Uncoalesced);
    QCOMPARE(line->findings.front().message,
             std::string("uncoalesced store: 32.0 sectors per request, 4.0 ideal"));
    QVERIFY(lineOf(summary, 16)->findings.empty());
    QCOMPARE(summary.unplacedInstructions, std::uint64_t(1000));
}

void TestLineCounters::bankConflictLocalMemoryAndDivergence()
{
    InspectResult r;
    r.kernel = "k";
    r.lineInfo = true;
    r.instructions = {
        instruction(0x10, 37,
                    {{"smsp__sass_inst_executed", 100},
                     {"smsp__sass_thread_inst_executed_pred_on", 3200},
                     {"smsp__sass_inst_executed_op_shared", 100},
                     {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared", 3200},
                     {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 100}}),
        instruction(0x20, 40,
                    {{"smsp__sass_inst_executed", 100},
                     {"smsp__sass_thread_inst_executed_pred_on", 3200},
                     {"smsp__sass_inst_executed_op_local", 10},
                     {"smsp__sass_sectors_mem_local", 40}}),
        instruction(0x30, 41,
                    {{"smsp__sass_inst_executed", 100},
                     {"smsp__sass_thread_inst_executed_pred_on", 800},
                     {"smsp__sass_branch_targets_threads_divergent", 30},
                     {"smsp__sass_branch_targets_threads_uniform", 70}}),
    };
    const InspectSummary summary = summarise(r);
    const LineCounters *conflicts = lineOf(summary, 37);
    QCOMPARE(conflicts->totals.bankConflictWays(), 32.0);
    QCOMPARE(conflicts->findings.size(), std::size_t(1));
    QCOMPARE(conflicts->findings.front().kind, FindingKind::BankConflict);
    QVERIFY(conflicts->findings.front().message.rfind("32-way bank conflict", 0) == 0);
    QCOMPARE(lineOf(summary, 40)->findings.front().kind, FindingKind::LocalMemory);
    const LineCounters *branch = lineOf(summary, 41);
    QCOMPARE(branch->findings.size(), std::size_t(2));
    QCOMPARE(branch->findings[0].kind, FindingKind::Divergence);
    QCOMPARE(branch->findings[0].message,
             std::string("divergent branch: 30 % of its executions split the warp"));
    QCOMPARE(branch->findings[1].kind, FindingKind::IdleThreads);
}

void TestLineCounters::notesSayWhatIsMissing()
{
    InspectResult r = naiveTranspose();
    for (SassInstructionCounters &i : r.instructions)
        i.line = 0;
    r.lineInfo = false;
    r.droppedRecords = 3;
    const InspectSummary summary = summarise(r);
    QVERIFY(summary.lines.empty());
    QCOMPARE(summary.notes.size(), std::size_t(2));
    QVERIFY(summary.notes[0].find("-lineinfo") != std::string::npos);
    QVERIFY(summary.notes[1].find("3 of CUPTI's instruction records were dropped") !=
            std::string::npos);
    // With line information, the instructions without a line are counted in a note.
    const InspectSummary placed = summarise(naiveTranspose());
    QCOMPARE(placed.notes.size(), std::size_t(1));
    QVERIFY(placed.notes[0].find("have no source line") != std::string::npos);
}

void TestLineCounters::hottestLinesFirst()
{
    const InspectSummary summary = summarise(naiveTranspose());
    const std::vector<const LineCounters *> hot = hottestLines(summary, 1);
    QCOMPARE(hot.size(), std::size_t(1));
    QCOMPARE(hot.front()->line, 16);
    QVERIFY(hot.front()->share > 0.66 && hot.front()->share < 0.67);
}

void TestLineCounters::jsonRoundTrip()
{
    const InspectResult before = naiveTranspose();
    const InspectResult after = nlohmann::json(before).get<InspectResult>();
    QCOMPARE(after.kernel, before.kernel);
    QCOMPARE(after.chip, before.chip);
    QCOMPARE(after.lineInfo, true);
    QCOMPARE(after.instructions.size(), before.instructions.size());
    QCOMPARE(after.instructions[2].pcOffset, std::uint32_t(0xa0));
    QCOMPARE(after.instructions[2].values, before.instructions[2].values);
    QCOMPARE(after.instructions[2].file, std::string("transpose.cu"));
    QVERIFY_THROWS_EXCEPTION(nlohmann::json::exception,
                             nlohmann::json::object().get<InspectResult>());
}

CUWB_TEST_GUILESS_MAIN(TestLineCounters)

} // namespace tst_linecounters
} // namespace

#include "tst_linecounters.moc"
