// The SASS listing read from nvdisasm's text, its instruction classes, the mix per kernel and
// per line, the JSON and text forms: on nvdisasm 13.5 output recorded for NVRTC compiles of
// the samples and of data/sass/spills.cu (tests/core/data/README.md says how).
#include "compilertesthelpers.h"

#include "inspect/instructionmix.h"
#include "inspect/sassjson.h"
#include "inspect/sasslisting.h"
#include "inspect/sasstext.h"

#include <QObject>
#include <QTest>

#include <set>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sasslisting {
using cuwbtest::readData;

class TestSassListing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsFunctionsAndInstructions();
    void instructionFields();
    void sourceLinesCarryOver();
    void inlinedCodeHasItsCallSites();
    void routinesAfterTheKernel();
    void paddingIsLeftOut();
    void spillsApartFromLocalArrays();
    void mixPerKernelAndPerLine();
    void mixOfTheSamples();
    void everyRecordedOpcodeIsClassified();
    void classTable_data();
    void classTable();
    void accessBytes();
    void classNamesRoundTrip();
    void lookupByFunctionAndOffset();
    void sumsValuesByLine();
    void instructionsOfASourceLine();
    void mainFileMatchesWholePathComponents();
    void json();
    void textInterleavesSource();
    void plainLineInfoWithoutInlining();
    void garbageGivesNothing();
};

namespace {

const SassListing &listingOf(const char *name)
{
    static std::map<std::string, SassListing> cache;
    auto it = cache.find(name);
    if (it == cache.end())
        it = cache.emplace(name, parseNvdisasm(readData(name))).first;
    return it->second;
}

const SassFunction &functionOf(const char *file, const char *name)
{
    const SassFunction *function = listingOf(file).function(name);
    if (!function)
        qFatal("no function %s in %s", name, file);
    return *function;
}

} // namespace

void TestSassListing::readsFunctionsAndInstructions()
{
    const SassListing &listing = listingOf("sass/transpose.sass");
    QCOMPARE(listing.arch, std::string("sm_90"));
    std::set<std::string> names;
    for (const SassFunction &function : listing.functions) {
        names.insert(function.name);
        QVERIFY(function.entry);
        QVERIFY(!function.instructions.empty());
        QCOMPARE(function.instructions.front().offset, std::uint64_t(0));
        // Offsets rise by one instruction (16 bytes) at a time.
        for (std::size_t i = 1; i < function.instructions.size(); ++i)
            QCOMPARE(function.instructions[i].offset - function.instructions[i - 1].offset,
                     std::uint64_t(16));
        QCOMPARE(function.sizeBytes, function.instructions.back().offset + 16);
    }
    QCOMPARE(names,
             (std::set<std::string>{"transpose_naive", "transpose_shared", "transpose_padded"}));
    QCOMPARE(functionOf("sass/transpose.sass", "transpose_naive").readableName,
             std::string("transpose_naive"));
}

void TestSassListing::instructionFields()
{
    const SassFunction &naive = functionOf("sass/transpose.sass", "transpose_naive");
    const SassInstruction &first = naive.instructions.front();
    QCOMPARE(first.opcode, std::string("LDC"));
    QCOMPARE(first.operands, std::string("R1, c[0x0][0x28]"));
    QCOMPARE(first.klass, SassClass::ConstantMemory);
    QVERIFY(first.predicate.empty());

    // `@P0 EXIT` at 0x00c0, the early return of `if (x < cols && y < rows)`.
    const SassInstruction *exit = naive.instructionAt(0xc0);
    QVERIFY(exit);
    QCOMPARE(exit->predicate, std::string("@P0"));
    QCOMPARE(exit->opcode, std::string("EXIT"));
    QVERIFY(exit->operands.empty());
    QCOMPARE(exit->klass, SassClass::Control);
    QCOMPARE(exit->source.line, 18);

    const SassInstruction *load = naive.instructionAt(0x150);
    QVERIFY(load);
    QCOMPARE(load->opcode, std::string("LDG.E.CONSTANT"));
    QCOMPARE(std::string(load->baseOpcode()), std::string("LDG"));
    QCOMPARE(load->operands, std::string("R7, desc[UR4][R6.64]"));
    QCOMPARE(load->klass, SassClass::GlobalMemory);
    QCOMPARE(load->access(), SassAccess::Load);
    QCOMPARE(load->accessBytes, 4);
    QCOMPARE(load->source.line, 19);
    QVERIFY(isMainSourceFile(load->source.file, "transpose.cu"));
    QVERIFY(load->inlinedAt.empty());
    QVERIFY(!naive.instructionAt(0x158));
}

void TestSassListing::sourceLinesCarryOver()
{
    // nvdisasm prints a line only when it changes: the instructions after it share it.
    const SassFunction &naive = functionOf("sass/transpose.sass", "transpose_naive");
    for (const std::uint64_t offset : {0xd0, 0xe0, 0x190})
        QCOMPARE(naive.instructionAt(offset)->source.line, 19);
    QCOMPARE(naive.instructionAt(0x1a0)->source.line, 20);
}

void TestSassListing::inlinedCodeHasItsCallSites()
{
    const SassFunction &lengths = functionOf("sass/spills.sass", "lengths");
    // square() (line 9) inlined into norm2() at line 14, inlined into the kernel at line 26.
    const SassInstruction *square = lengths.instructionAt(0x100);
    QCOMPARE(square->opcode, std::string("FMUL"));
    QCOMPARE(square->source.line, 9);
    QCOMPARE(square->inlinedAt.size(), std::size_t(2));
    QCOMPARE(square->inlinedAt[0].line, 14);
    QCOMPARE(square->inlinedAt[1].line, 26);
    QVERIFY(isMainSourceFile(square->inlinedAt[1].file, "spills.cu"));
    const SassInstruction *norm = lengths.instructionAt(0x110);
    QCOMPARE(norm->source.line, 14);
    QCOMPARE(norm->inlinedAt.size(), std::size_t(1));
    QCOMPARE(norm->inlinedAt[0].line, 26);
    // Back in the kernel's own line: no call sites.
    QCOMPARE(lengths.instructionAt(0x120)->source.line, 26);
    QVERIFY(lengths.instructionAt(0x120)->inlinedAt.empty());
}

void TestSassListing::routinesAfterTheKernel()
{
    const SassFunction &lengths = functionOf("sass/spills.sass", "lengths");
    QCOMPARE(lengths.routines.size(), std::size_t(3));
    QCOMPARE(lengths.routines[0].name, std::string("lengths"));
    QCOMPARE(lengths.routines[1].name, std::string("$lengths$_Z9clampUnitf"));
    QCOMPARE(lengths.routines[1].readableName, std::string("clampUnit(float)"));
    QCOMPARE(lengths.routines[1].offset, std::uint64_t(0x250));
    QCOMPARE(lengths.routines[2].readableName, std::string("__cuda_sm20_sqrt_rn_f32_slowpath"));
    QCOMPARE(lengths.instructionAt(0x240)->routine, 0);
    QCOMPARE(lengths.instructionAt(0x250)->routine, 1);
    QCOMPARE(lengths.instructionAt(0x250)->source.line, 19); // the helper's own line
    // The idiom `HFMA2.MMA R5, -RZ, RZ, 0, 0` only zeroes a register.
    QCOMPARE(lengths.instructionAt(0x250)->klass, SassClass::Move);
    // The toolkit's slow path has no line of its own; the kernel's last line does not run on.
    QCOMPARE(lengths.instructionAt(0x280)->routine, 2);
    QCOMPARE(lengths.instructionAt(0x280)->source.line, 0);
    QCOMPARE(lengths.labelOffset(".L_x_4"), 0x1a0LL);
    QCOMPARE(lengths.labelOffset(".L_x_99"), -1LL);
    // The function symbol's label is no branch label.
    QCOMPARE(lengths.labelOffset("lengths"), -1LL);
}

void TestSassListing::paddingIsLeftOut()
{
    const SassFunction &copy = functionOf("sass/copy.sass", "copy");
    const auto firstPadding =
        std::find_if(copy.instructions.begin(), copy.instructions.end(),
                     [](const SassInstruction &instruction) { return instruction.padding; });
    QVERIFY(firstPadding != copy.instructions.end());
    // The branch to itself ends the code: listed (exited warps are sampled there), not padding,
    // and not in the mix.
    const auto end = std::prev(firstPadding);
    QCOMPARE(end->opcode, std::string("BRA"));
    QVERIFY(end->endOfCode);
    QVERIFY(std::prev(end)->opcode == "EXIT");
    QVERIFY(!std::prev(end)->endOfCode);
    for (auto it = firstPadding; it != copy.instructions.end(); ++it) {
        QVERIFY(it->padding);
        QCOMPARE(it->opcode, std::string("NOP"));
    }
    const FunctionMix mix = instructionMix(copy);
    QCOMPARE(mix.total.instructions, int(end - copy.instructions.begin()));
    QCOMPARE(mix.total.count(SassClass::Other), 0);
}

void TestSassListing::spillsApartFromLocalArrays()
{
    // ptxas for this compile: 32 bytes spill stores, 28 bytes spill loads, 96 bytes of stack.
    const SassFunction &spills = functionOf("sass/spills.sass", "spills");
    const InstructionMix mix = instructionMix(spills).total;
    QVERIFY(mix.spills());
    QCOMPARE(mix.spillStoreBytes, 32LL);
    QCOMPARE(mix.spillLoadBytes, 28LL);
    QCOMPARE(mix.spillStores, 2);
    QCOMPARE(mix.spillLoads, 7);
    // The table indexed at run time lives in local memory too, and is no spill.
    QVERIFY(mix.localStores > mix.spillStores);
    QVERIFY(mix.localLoads > mix.spillLoads);
    QCOMPARE(mix.count(SassClass::LocalMemory), mix.localLoads + mix.localStores);
    int marked = 0;
    for (const SassInstruction &instruction : spills.instructions) {
        if (instruction.spill) {
            ++marked;
            QCOMPARE(instruction.klass, SassClass::LocalMemory);
            QCOMPARE(instruction.notes, std::vector<std::string>{"SpillRefill"});
            QVERIFY(instruction.operands.find("SpillRefill") == std::string::npos);
        }
    }
    QCOMPARE(marked, 9);
    QVERIFY(!instructionMix(functionOf("sass/spills.sass", "lengths")).total.usesLocalMemory());
}

void TestSassListing::mixPerKernelAndPerLine()
{
    const SassFunction &naive = functionOf("sass/transpose.sass", "transpose_naive");
    const FunctionMix mix = instructionMix(naive);
    QCOMPARE(mix.function, std::string("transpose_naive"));
    // The lines and the instructions without one add up to the kernel.
    InstructionMix sum = mix.noLine;
    for (const LineMix &line : mix.lines)
        sum.add(line.mix);
    QCOMPARE(sum, mix.total);
    int groups = 0;
    for (int g = 0; g < kSassGroupCount; ++g)
        groups += mix.total.groupCount(SassGroup(g));
    QCOMPARE(groups, mix.total.instructions);
    // Line 19, `out[...] = in[...]`: one global load and one global store.
    const auto line19 = std::find_if(mix.lines.begin(), mix.lines.end(),
                                     [](const LineMix &line) { return line.source.line == 19; });
    QVERIFY(line19 != mix.lines.end());
    QCOMPARE(line19->mix.count(SassClass::GlobalMemory), 2);
    QCOMPARE(mix.total.count(SassClass::GlobalMemory), 2);
    QCOMPARE(mix.total.predicated, 1); // @P0 EXIT
    QVERIFY(
        std::is_sorted(mix.lines.begin(), mix.lines.end(), [](const LineMix &a, const LineMix &b) {
            return std::tie(a.source.file, a.source.line) < std::tie(b.source.file, b.source.line);
        }));
}

void TestSassListing::mixOfTheSamples()
{
    // The tiled matmul stages tiles in shared memory between barriers; the naive one does not.
    const InstructionMix tiled =
        instructionMix(functionOf("sass/matmul.sass", "matmul_tiled")).total;
    const InstructionMix naive =
        instructionMix(functionOf("sass/matmul.sass", "matmul_naive")).total;
    QVERIFY(tiled.count(SassClass::SharedMemory) > 0);
    QCOMPARE(naive.count(SassClass::SharedMemory), 0);
    QVERIFY(tiled.count(SassClass::Fp32) > 0);
    QVERIFY(naive.count(SassClass::GlobalMemory) > tiled.count(SassClass::GlobalMemory));
    const SassFunction &tiledCode = functionOf("sass/matmul.sass", "matmul_tiled");
    QVERIFY(std::any_of(tiledCode.instructions.begin(), tiledCode.instructions.end(),
                        [](const SassInstruction &instruction) {
                            return instruction.baseOpcode() == "BAR" &&
                                   instruction.klass == SassClass::Control;
                        }));
    QVERIFY(std::any_of(tiledCode.instructions.begin(), tiledCode.instructions.end(),
                        [](const SassInstruction &instruction) {
                            return instruction.baseOpcode() == "FFMA" &&
                                   instruction.klass == SassClass::Fp32;
                        }));
    const InstructionMix padded =
        instructionMix(functionOf("sass/transpose.sass", "transpose_padded")).total;
    QVERIFY(padded.count(SassClass::SharedMemory) > 0);
    QVERIFY(!padded.usesLocalMemory());
}

void TestSassListing::everyRecordedOpcodeIsClassified()
{
    for (const char *file :
         {"sass/transpose.sass", "sass/matmul.sass", "sass/copy.sass", "sass/spills.sass"}) {
        for (const SassFunction &function : listingOf(file).functions) {
            for (const SassInstruction &instruction : function.instructions) {
                if (instruction.klass == SassClass::Other)
                    QVERIFY2(instruction.baseOpcode() == "NOP", instruction.opcode.c_str());
            }
        }
    }
}

void TestSassListing::classTable_data()
{
    QTest::addColumn<QString>("opcode");
    QTest::addColumn<QString>("operands");
    QTest::addColumn<QString>("klass");
    const auto row = [](const char *opcode, const char *operands, const char *klass) {
        QTest::newRow(opcode) << QString::fromLatin1(opcode) << QString::fromLatin1(operands)
                              << QString::fromLatin1(klass);
    };
    row("LDG.E.128.CONSTANT", "R4, desc[UR4][R2.64]", "global");
    row("STG.E.U16", "desc[UR4][R2.64], R5", "global");
    row("LDGSTS.E.BYPASS.128", "[R1], desc[UR4][R2.64]", "global");
    row("LDS.64", "R4, [R2]", "shared");
    row("LDSM.16.M88.4", "R4, [R2]", "shared");
    row("STL.64", "[R1], R4", "local");
    row("LDL.LU", "R4, [R1+0x4]", "local");
    row("ULDC.64", "UR4, c[0x0][0x208]", "constant");
    row("TLD.LZ", "R0, R0, RZ, 0x0, 0x0, 1D", "texture");
    row("SULD.D.BA.1D", "R0, [R2], UR4", "texture");
    row("ATOMS.POPC.INC.32", "RZ, [UR4], RZ", "atomic");
    row("REDG.E.ADD.STRONG.GPU", "desc[UR4][R2.64], R5", "atomic");
    row("ATOMG.E.CAS.STRONG.GPU", "PT, R0, [R2], R4, R5", "atomic");
    row("LD.E", "R0, [R2.64]", "generic");
    row("FFMA.SAT", "R0, R1, R2, R3", "fp32");
    row("FSETP.GEU.AND", "P0, PT, R0, RZ, PT", "fp32");
    row("DFMA.RM", "R0, R2, R4, R6", "fp64");
    row("FRND.F64.TRUNC", "R0, R2", "fp64");
    row("HFMA2", "R0, R1, R2, R3", "fp16");
    row("HFMA2.BF16_V2", "R0, R1, R2, -RZ", "fp16");
    row("HMUL2", "R0, R1, R2", "fp16");
    row("HFMA2.MMA", "R5, -RZ, RZ, 0, 0", "move");
    row("HFMA2.MMA ", "R5, R1, R2, R3", "fp16");
    row("HADD2.F32", "R0, -RZ, R2.H0_H0", "conversion");
    row("IMAD.MOV.U32", "R0, RZ, RZ, R1", "move");
    row("IMAD.WIDE.U32", "R2, R0, 0x4, R2", "integer");
    row("UIADD3", "UR4, UR4, 0x1, URZ", "integer");
    row("LOP3.LUT", "R0, R1, 0xff, RZ, 0xc0, !PT", "integer");
    row("VIADDMNMX", "R0, R1, 0x1, R2, !PT", "integer");
    row("MUFU.RSQ", "R3, R0", "sfu");
    row("HMMA.16816.F32", "R4, R8, R12, R4", "tensor");
    row("DMMA.884", "R4, R8, R12, R4", "tensor");
    row("HGMMA.64x128x16.F32", "R24, gdesc[UR4], R24", "tensor");
    row("F2F.F64.F32", "R2, R0", "conversion");
    row("F2FP.F16.F32.PACK_AB", "R0, R1, R2", "conversion");
    row("I2F.U32.RP", "R0, R1", "conversion");
    row("BRA", "`(.L_x_1)", "control");
    row("BAR.SYNC.DEFER_BLOCKING", "0x0", "control");
    row("BSSY", "B0, `(.L_x_0)", "control");
    row("WARPSYNC.ALL", "", "control");
    row("CALL.REL.NOINC", "`($x)", "control");
    row("MOV", "R0, 0x1", "move");
    row("S2R", "R0, SR_TID.X", "move");
    row("SHFL.BFLY", "PT, R0, R1, 0x1, 0x1f", "move");
    row("VOTE.ANY", "R0, PT, P0", "move");
    row("NOP", "", "other");
    row("XYZZY.NEW", "R0", "other");
}

void TestSassListing::classTable()
{
    QFETCH(QString, opcode);
    QFETCH(QString, operands);
    QFETCH(QString, klass);
    const SassClass got = classifySass(opcode.trimmed().toStdString(), operands.toStdString());
    QCOMPARE(QString::fromLatin1(sassClassName(got)), klass);
}

void TestSassListing::accessBytes()
{
    QCOMPARE(sassAccessBytes(SassClass::GlobalMemory, "LDG.E.128.CONSTANT"), 16);
    QCOMPARE(sassAccessBytes(SassClass::LocalMemory, "STL.64"), 8);
    QCOMPARE(sassAccessBytes(SassClass::LocalMemory, "LDL.LU"), 4);
    QCOMPARE(sassAccessBytes(SassClass::GlobalMemory, "LDG.E.U16"), 2);
    QCOMPARE(sassAccessBytes(SassClass::GlobalMemory, "LDG.E.U8.CONSTANT"), 1);
    QCOMPARE(sassAccessBytes(SassClass::Fp32, "FADD"), 0);
    QCOMPARE(sassAccess(SassClass::LocalMemory, "STL.128"), SassAccess::Store);
    QCOMPARE(sassAccess(SassClass::SharedMemory, "LDS"), SassAccess::Load);
    QCOMPARE(sassAccess(SassClass::AtomicMemory, "ATOMS.ADD"), SassAccess::Atomic);
    QCOMPARE(sassAccess(SassClass::Control, "BRA"), SassAccess::None);
}

void TestSassListing::classNamesRoundTrip()
{
    std::set<std::string> names;
    for (int i = 0; i < kSassClassCount; ++i) {
        const SassClass klass = SassClass(i);
        names.insert(sassClassName(klass));
        QCOMPARE(sassClassFromName(sassClassName(klass)), std::optional<SassClass>(klass));
    }
    QCOMPARE(names.size(), std::size_t(kSassClassCount));
    QVERIFY(!sassClassFromName("fp128"));
    QCOMPARE(sassGroup(SassClass::AtomicMemory), SassGroup::Memory);
    QCOMPARE(sassGroup(SassClass::Tensor), SassGroup::Arithmetic);
    QCOMPARE(sassGroup(SassClass::Other), SassGroup::Move);
}

void TestSassListing::lookupByFunctionAndOffset()
{
    const SassListing &listing = listingOf("sass/spills.sass");
    const SassInstruction *instruction = listing.instructionAt("lengths", 0x1a0);
    QVERIFY(instruction);
    QCOMPARE(instruction->opcode, std::string("FMUL.FTZ"));
    QVERIFY(!listing.instructionAt("lengths", 0x1a8));
    QVERIFY(!listing.instructionAt("nonesuch", 0));
    QCOMPARE(listing.instructionCount(),
             listing.functions[0].instructions.size() + listing.functions[1].instructions.size());
}

void TestSassListing::sumsValuesByLine()
{
    // Counters as CUPTI reports them, by (function, pcOffset).
    const SassListing &listing = listingOf("sass/spills.sass");
    const LineValues sums = sumByLine(listing, {{"lengths", 0x0c0, 10.0},
                                                {"lengths", 0x0e0, 5.0},
                                                {"lengths", 0x100, 2.0},
                                                {"lengths", 0x280, 7.0},
                                                {"lengths", 0x9999, 1.0},
                                                {"gone", 0, 3.0}});
    QCOMPARE(sums.unattributed, 11.0);
    QCOMPARE(sums.lines.size(), std::size_t(2));
    QCOMPARE(sums.lines[0].source.line, 9); // the inlined square()
    QCOMPARE(sums.lines[0].value, 2.0);
    QCOMPARE(sums.lines[1].source.line, 26);
    QCOMPARE(sums.lines[1].value, 15.0);
    QCOMPARE(sums.lines[1].instructions, 2);
}

void TestSassListing::instructionsOfASourceLine()
{
    const SassListing &listing = listingOf("sass/spills.sass");
    const std::vector<SassInstructionRef> own = instructionsForLine(listing, "spills.cu", 14);
    QCOMPARE(own.size(), std::size_t(1)); // norm2's FFMA
    const SassInstruction &ffma = listing.functions[std::size_t(own[0].function)]
                                      .instructions[std::size_t(own[0].instruction)];
    QCOMPARE(ffma.offset, std::uint64_t(0x110));
    // Line 26 calls norm2: with inlined code it also covers square's and norm2's instructions.
    const auto direct = instructionsForLine(listing, "spills.cu", 26);
    const auto withInlined = instructionsForLine(listing, "spills.cu", 26, true);
    QCOMPARE(withInlined.size(), direct.size() + 2);
    QVERIFY(instructionsForLine(listing, "other.cu", 26).empty());
}

void TestSassListing::mainFileMatchesWholePathComponents()
{
    QVERIFY(isMainSourceFile("transpose.cu", "transpose.cu"));
    QVERIFY(isMainSourceFile("/home/me/transpose.cu", "transpose.cu"));
    QVERIFY(!isMainSourceFile("/home/me/my_transpose.cu", "transpose.cu"));
    QVERIFY(!isMainSourceFile("/home/me/transpose.cu", ""));
}

void TestSassListing::json()
{
    const SassFunction &lengths = functionOf("sass/spills.sass", "lengths");
    const nlohmann::json function = lengths;
    QCOMPARE(function["name"].get<std::string>(), std::string("lengths"));
    QCOMPARE(function["entry"].get<bool>(), true);
    QCOMPARE(function["routines"].size(), std::size_t(3));
    const nlohmann::json &square = function["instructions"][0x100 / 16];
    QCOMPARE(square["offset"].get<int>(), 0x100);
    QCOMPARE(square["opcode"].get<std::string>(), std::string("FMUL"));
    QCOMPARE(square["class"].get<std::string>(), std::string("fp32"));
    QCOMPARE(square["group"].get<std::string>(), std::string("arithmetic"));
    QCOMPARE(square["line"].get<int>(), 9);
    QCOMPARE(square["inlinedAt"][1]["line"].get<int>(), 26);
    const nlohmann::json mix = instructionMix(functionOf("sass/spills.sass", "spills"));
    QCOMPARE(mix["total"]["spills"]["storeBytes"].get<int>(), 32);
    QCOMPARE(mix["total"]["classes"]["local"].get<int>(),
             mix["total"]["local"]["loads"].get<int>() +
                 mix["total"]["local"]["stores"].get<int>());
    QCOMPARE(mix["total"]["classes"].size(), std::size_t(kSassClassCount));
    QVERIFY(mix["lines"].is_array() && !mix["lines"].empty());
    const nlohmann::json listing = listingOf("sass/copy.sass");
    QCOMPARE(listing["arch"].get<std::string>(), std::string("sm_90"));
}

void TestSassListing::textInterleavesSource()
{
    const SassFunction &spills = functionOf("sass/spills.sass", "spills");
    SassTextOptions options;
    options.sourceText = [](const std::string &file, int line) {
        return isMainSourceFile(file, "spills.cu") ? "source line " + std::to_string(line)
                                                   : std::string();
    };
    options.displayFile = [](const std::string &file) {
        return isMainSourceFile(file, "spills.cu") ? std::string("data/spills.cu") : file;
    };
    const SassText text = formatSassFunction(spills, options);
    QVERIFY(text.text.find("data/spills.cu:38: source line 38") != std::string::npos);
    QVERIFY(text.text.find("STL.128 [R1+0x50], R8") != std::string::npos);
    QVERIFY(text.text.find("// spill store, 16 bytes") != std::string::npos);
    QVERIFY(text.text.find("// spill refill (load), 4 bytes") != std::string::npos);
    QVERIFY(text.text.find("// local store") != std::string::npos);
    QVERIFY(text.text.find("padding instructions") != std::string::npos);
    QCOMPARE(std::count(text.text.begin(), text.text.end(), '\n'),
             std::ptrdiff_t(text.lines.size()));
    // Both ways between text lines and instructions.
    const int first = text.lineOfInstruction(0);
    QVERIFY(first > 0);
    QCOMPARE(text.lines[std::size_t(first - 1)].instruction, 0);
    const SourceLocation &second = spills.instructions[1].source;
    const std::vector<int> lines = text.linesForSource(second.file, second.line);
    QVERIFY(!lines.empty());
    for (const int line : lines)
        QCOMPARE(text.lines[std::size_t(line - 1)].source.line, second.line);
    // Without the source: only instructions and labels.
    SassTextOptions bare;
    bare.interleaveSource = false;
    bare.showPadding = true;
    const SassText plain = formatSassFunction(spills, bare);
    int instructions = 0;
    for (const SassTextLine &line : plain.lines)
        instructions += line.instruction >= 0 ? 1 : 0;
    QCOMPARE(std::size_t(instructions), spills.instructions.size());
}

void TestSassListing::plainLineInfoWithoutInlining()
{
    // nvdisasm -g prints the innermost line alone; the listing then knows no call sites.
    const std::string text = "\t.target\tsm_90\n"
                             "\t.section\t.text._Z5scalePfi,\"ax\",@progbits\n"
                             "        .global         _Z5scalePfi\n"
                             "        .type           _Z5scalePfi,@function\n"
                             "        .other          _Z5scalePfi,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
                             "_Z5scalePfi:\n"
                             "\t//## File \"/x/a.cu\", line 3\n"
                             "        /*0000*/                   FMUL R3, R6, R6 ;\n"
                             "        /*0010*/              @!UP0 EXIT ;\n";
    const SassListing listing = parseNvdisasm(text);
    QCOMPARE(listing.functions.size(), std::size_t(1));
    const SassFunction &function = listing.functions[0];
    QCOMPARE(function.readableName, std::string("scale(float*, int)"));
    QVERIFY(function.entry);
    QCOMPARE(function.instructions.size(), std::size_t(2));
    QCOMPARE(function.instructions[1].source.line, 3);
    QVERIFY(function.instructions[1].inlinedAt.empty());
    QCOMPARE(function.instructions[1].predicate, std::string("@!UP0"));
}

void TestSassListing::garbageGivesNothing()
{
    QVERIFY(parseNvdisasm("").functions.empty());
    QVERIFY(
        parseNvdisasm("nvdisasm fatal   : Input file 'x' is not a valid ELF\n").functions.empty());
    // Instruction lines outside a code section are ignored.
    QVERIFY(parseNvdisasm("        /*0000*/  NOP ;\n").functions.empty());
}

CUWB_TEST_GUILESS_MAIN(TestSassListing)
} // namespace tst_sasslisting
} // namespace

#include "tst_sasslisting.moc"
