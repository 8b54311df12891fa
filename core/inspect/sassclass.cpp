#include "inspect/sassclass.h"

#include <algorithm>
#include <array>
#include <vector>

namespace cuwb {

namespace {

struct ClassName
{
    SassClass klass;
    const char *name;
    SassGroup group;
};

constexpr std::array<ClassName, kSassClassCount> kClassNames{{
    {SassClass::GlobalMemory, "global", SassGroup::Memory},
    {SassClass::SharedMemory, "shared", SassGroup::Memory},
    {SassClass::LocalMemory, "local", SassGroup::Memory},
    {SassClass::ConstantMemory, "constant", SassGroup::Memory},
    {SassClass::TextureMemory, "texture", SassGroup::Memory},
    {SassClass::AtomicMemory, "atomic", SassGroup::Memory},
    {SassClass::GenericMemory, "generic", SassGroup::Memory},
    {SassClass::Fp32, "fp32", SassGroup::Arithmetic},
    {SassClass::Fp64, "fp64", SassGroup::Arithmetic},
    {SassClass::Fp16, "fp16", SassGroup::Arithmetic},
    {SassClass::Integer, "integer", SassGroup::Arithmetic},
    {SassClass::SpecialFunction, "sfu", SassGroup::Arithmetic},
    {SassClass::Tensor, "tensor", SassGroup::Arithmetic},
    {SassClass::Conversion, "conversion", SassGroup::Conversion},
    {SassClass::Control, "control", SassGroup::Control},
    {SassClass::Move, "move", SassGroup::Move},
    {SassClass::Other, "other", SassGroup::Move},
}};

struct OpcodeRow
{
    std::string_view base;
    SassClass klass;
};

// Base opcodes of sm_75 to sm_120 as nvdisasm prints them, by class. Sources: the instruction
// set reference of the CUDA Binary Utilities and the opcodes nvdisasm printed for the samples
// and the test kernels (tests/core/data/sass/). The uniform-datapath forms (U...) do the same
// work on one value per warp and count with their vector forms. Sorted by base at start-up.
constexpr OpcodeRow kOpcodes[] = {
    // Global memory, including the asynchronous copies into shared memory (LDGSTS, TMA, bulk
    // copies) that read global memory, and cache control.
    {"LDG", SassClass::GlobalMemory},
    {"STG", SassClass::GlobalMemory},
    {"LDGSTS", SassClass::GlobalMemory},
    {"LDGMC", SassClass::GlobalMemory},
    {"UBLKCP", SassClass::GlobalMemory},
    {"UBLKPF", SassClass::GlobalMemory},
    {"UTMALDG", SassClass::GlobalMemory},
    {"UTMASTG", SassClass::GlobalMemory},
    {"UTMAPF", SassClass::GlobalMemory},
    {"UTMACCTL", SassClass::GlobalMemory},
    {"CCTL", SassClass::GlobalMemory},
    {"CCTLL", SassClass::GlobalMemory},
    // Shared memory (STAS: a store to a cluster peer's shared memory).
    {"LDS", SassClass::SharedMemory},
    {"STS", SassClass::SharedMemory},
    {"LDSM", SassClass::SharedMemory},
    {"STSM", SassClass::SharedMemory},
    {"STAS", SassClass::SharedMemory},
    // Local memory.
    {"LDL", SassClass::LocalMemory},
    {"STL", SassClass::LocalMemory},
    // Constant banks.
    {"LDC", SassClass::ConstantMemory},
    {"ULDC", SassClass::ConstantMemory},
    // Textures and surfaces.
    {"TEX", SassClass::TextureMemory},
    {"TEXS", SassClass::TextureMemory},
    {"TLD", SassClass::TextureMemory},
    {"TLDS", SassClass::TextureMemory},
    {"TLD4", SassClass::TextureMemory},
    {"TLD4S", SassClass::TextureMemory},
    {"TMML", SassClass::TextureMemory},
    {"TXD", SassClass::TextureMemory},
    {"TXQ", SassClass::TextureMemory},
    {"SULD", SassClass::TextureMemory},
    {"SUST", SassClass::TextureMemory},
    {"SUATOM", SassClass::TextureMemory},
    {"SURED", SassClass::TextureMemory},
    {"SUQUERY", SassClass::TextureMemory},
    // Atomics and reductions of every space.
    {"ATOM", SassClass::AtomicMemory},
    {"ATOMG", SassClass::AtomicMemory},
    {"ATOMS", SassClass::AtomicMemory},
    {"ATOMAS", SassClass::AtomicMemory},
    {"RED", SassClass::AtomicMemory},
    {"REDG", SassClass::AtomicMemory},
    {"REDAS", SassClass::AtomicMemory},
    {"UBLKRED", SassClass::AtomicMemory},
    {"UTMAREDG", SassClass::AtomicMemory},
    // Generic addresses.
    {"LD", SassClass::GenericMemory},
    {"ST", SassClass::GenericMemory},
    // FP32 (FADD2, FFMA2, FMUL2: the packed pairs of sm_100).
    {"FADD", SassClass::Fp32},
    {"FADD32I", SassClass::Fp32},
    {"FADD2", SassClass::Fp32},
    {"FMUL", SassClass::Fp32},
    {"FMUL32I", SassClass::Fp32},
    {"FMUL2", SassClass::Fp32},
    {"FFMA", SassClass::Fp32},
    {"FFMA32I", SassClass::Fp32},
    {"FFMA2", SassClass::Fp32},
    {"FMNMX", SassClass::Fp32},
    {"FMNMX3", SassClass::Fp32},
    {"FSET", SassClass::Fp32},
    {"FSETP", SassClass::Fp32},
    {"FSEL", SassClass::Fp32},
    {"FCHK", SassClass::Fp32},
    {"FSWZADD", SassClass::Fp32},
    {"FRND", SassClass::Fp32},
    // FP64.
    {"DADD", SassClass::Fp64},
    {"DMUL", SassClass::Fp64},
    {"DFMA", SassClass::Fp64},
    {"DMNMX", SassClass::Fp64},
    {"DSET", SassClass::Fp64},
    {"DSETP", SassClass::Fp64},
    // FP16 and BF16 (the .BF16 and .BF16_V2 forms of the same opcodes).
    {"HADD2", SassClass::Fp16},
    {"HMUL2", SassClass::Fp16},
    {"HFMA2", SassClass::Fp16},
    {"HMNMX2", SassClass::Fp16},
    {"HSET2", SassClass::Fp16},
    {"HSETP2", SassClass::Fp16},
    // Integer and logic, predicates included.
    {"IADD", SassClass::Integer},
    {"IADD3", SassClass::Integer},
    {"IADD32I", SassClass::Integer},
    {"IMAD", SassClass::Integer},
    {"IMAD32I", SassClass::Integer},
    {"IMUL", SassClass::Integer},
    {"IMUL32I", SassClass::Integer},
    {"ISCADD", SassClass::Integer},
    {"IMNMX", SassClass::Integer},
    {"VIMNMX", SassClass::Integer},
    {"VIMNMX3", SassClass::Integer},
    {"VIADD", SassClass::Integer},
    {"VIADDMNMX", SassClass::Integer},
    {"VABSDIFF", SassClass::Integer},
    {"VABSDIFF4", SassClass::Integer},
    {"IABS", SassClass::Integer},
    {"ISETP", SassClass::Integer},
    {"ISET", SassClass::Integer},
    {"ICMP", SassClass::Integer},
    {"IDP", SassClass::Integer},
    {"IDP4A", SassClass::Integer},
    {"LEA", SassClass::Integer},
    {"LOP", SassClass::Integer},
    {"LOP3", SassClass::Integer},
    {"LOP32I", SassClass::Integer},
    {"SHF", SassClass::Integer},
    {"SHL", SassClass::Integer},
    {"SHR", SassClass::Integer},
    {"BMSK", SassClass::Integer},
    {"BREV", SassClass::Integer},
    {"FLO", SassClass::Integer},
    {"POPC", SassClass::Integer},
    {"PRMT", SassClass::Integer},
    {"SGXT", SassClass::Integer},
    {"SEL", SassClass::Integer},
    {"BFE", SassClass::Integer},
    {"BFI", SassClass::Integer},
    {"PLOP3", SassClass::Integer},
    {"PSETP", SassClass::Integer},
    {"PSET", SassClass::Integer},
    {"REDUX", SassClass::Integer},
    {"UIADD3", SassClass::Integer},
    {"UIMAD", SassClass::Integer},
    {"UIMNMX", SassClass::Integer},
    {"UIABS", SassClass::Integer},
    {"UISETP", SassClass::Integer},
    {"ULEA", SassClass::Integer},
    {"ULOP", SassClass::Integer},
    {"ULOP3", SassClass::Integer},
    {"ULOP32I", SassClass::Integer},
    {"USHF", SassClass::Integer},
    {"USHL", SassClass::Integer},
    {"USHR", SassClass::Integer},
    {"UBMSK", SassClass::Integer},
    {"UBREV", SassClass::Integer},
    {"UFLO", SassClass::Integer},
    {"UPOPC", SassClass::Integer},
    {"UPRMT", SassClass::Integer},
    {"USGXT", SassClass::Integer},
    {"USEL", SassClass::Integer},
    {"UPLOP3", SassClass::Integer},
    {"UPSETP", SassClass::Integer},
    {"UVIADD", SassClass::Integer},
    // The special function unit.
    {"MUFU", SassClass::SpecialFunction},
    // Tensor cores: warp MMAs, warp-group MMAs (sm_90) and tcgen05 MMAs (sm_100).
    {"HMMA", SassClass::Tensor},
    {"IMMA", SassClass::Tensor},
    {"DMMA", SassClass::Tensor},
    {"BMMA", SassClass::Tensor},
    {"QMMA", SassClass::Tensor},
    {"OMMA", SassClass::Tensor},
    {"HGMMA", SassClass::Tensor},
    {"IGMMA", SassClass::Tensor},
    {"QGMMA", SassClass::Tensor},
    {"BGMMA", SassClass::Tensor},
    {"UTCHMMA", SassClass::Tensor},
    {"UTCIMMA", SassClass::Tensor},
    {"UTCQMMA", SassClass::Tensor},
    {"UTCOMMA", SassClass::Tensor},
    {"UTCBMMA", SassClass::Tensor},
    // Conversions between types.
    {"F2F", SassClass::Conversion},
    {"F2I", SassClass::Conversion},
    {"I2F", SassClass::Conversion},
    {"I2I", SassClass::Conversion},
    {"F2FP", SassClass::Conversion},
    {"I2FP", SassClass::Conversion},
    {"F2IP", SassClass::Conversion},
    {"I2IP", SassClass::Conversion},
    // Control flow, reconvergence, barriers and fences.
    {"BRA", SassClass::Control},
    {"BRX", SassClass::Control},
    {"BRXU", SassClass::Control},
    {"JMP", SassClass::Control},
    {"JMX", SassClass::Control},
    {"JMXU", SassClass::Control},
    {"CALL", SassClass::Control},
    {"RET", SassClass::Control},
    {"EXIT", SassClass::Control},
    {"KILL", SassClass::Control},
    {"BPT", SassClass::Control},
    {"RTT", SassClass::Control},
    {"BSSY", SassClass::Control},
    {"BSYNC", SassClass::Control},
    {"BREAK", SassClass::Control},
    {"BMOV", SassClass::Control},
    {"WARPSYNC", SassClass::Control},
    {"BAR", SassClass::Control},
    {"UCGABAR_ARV", SassClass::Control},
    {"UCGABAR_WAIT", SassClass::Control},
    {"CGAERRBAR", SassClass::Control},
    {"SYNCS", SassClass::Control},
    {"ARRIVES", SassClass::Control},
    {"WARPGROUP", SassClass::Control},
    {"DEPBAR", SassClass::Control},
    {"LDGDEPBAR", SassClass::Control},
    {"ACQBULK", SassClass::Control},
    {"UTCBAR", SassClass::Control},
    {"MEMBAR", SassClass::Control},
    {"FENCE", SassClass::Control},
    {"ERRBAR", SassClass::Control},
    {"NANOSLEEP", SassClass::Control},
    {"YIELD", SassClass::Control},
    {"ELECT", SassClass::Control},
    {"ENDCOLLECTIVE", SassClass::Control},
    {"PMTRIG", SassClass::Control},
    // Moves: registers, special registers, predicates, the uniform datapath, warp exchanges.
    {"MOV", SassClass::Move},
    {"MOV32I", SassClass::Move},
    {"UMOV", SassClass::Move},
    {"MOVM", SassClass::Move},
    {"S2R", SassClass::Move},
    {"S2UR", SassClass::Move},
    {"CS2R", SassClass::Move},
    {"R2UR", SassClass::Move},
    {"R2P", SassClass::Move},
    {"P2R", SassClass::Move},
    {"UP2UR", SassClass::Move},
    {"UR2UP", SassClass::Move},
    {"B2R", SassClass::Move},
    {"R2B", SassClass::Move},
    {"LEPC", SassClass::Move},
    {"GETLMEMBASE", SassClass::Move},
    {"SETLMEMBASE", SassClass::Move},
    {"SHFL", SassClass::Move},
    {"VOTE", SassClass::Move},
    {"VOTEU", SassClass::Move},
    {"MATCH", SassClass::Move},
    // No operation: alignment after the last instruction, and scheduling gaps.
    {"NOP", SassClass::Other},
};

const std::vector<OpcodeRow> &sortedOpcodes()
{
    static const std::vector<OpcodeRow> rows = [] {
        std::vector<OpcodeRow> sorted(std::begin(kOpcodes), std::end(kOpcodes));
        std::sort(sorted.begin(), sorted.end(),
                  [](const OpcodeRow &a, const OpcodeRow &b) { return a.base < b.base; });
        return sorted;
    }();
    return rows;
}

// Whether a dot-separated modifier of `opcode` equals `modifier` (".F32" of "HADD2.F32").
bool hasModifier(std::string_view opcode, std::string_view modifier)
{
    std::size_t start = opcode.find('.');
    while (start != std::string_view::npos) {
        const std::size_t end = opcode.find('.', start + 1);
        const std::string_view part =
            opcode.substr(start + 1, end == std::string_view::npos ? end : end - start - 1);
        if (part == modifier)
            return true;
        start = end;
    }
    return false;
}

std::string_view stripSpaces(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    return text;
}

} // namespace

SassGroup sassGroup(SassClass klass)
{
    return kClassNames[static_cast<std::size_t>(klass)].group;
}

const char *sassClassName(SassClass klass)
{
    return kClassNames[static_cast<std::size_t>(klass)].name;
}

const char *sassGroupName(SassGroup group)
{
    switch (group) {
    case SassGroup::Memory:
        return "memory";
    case SassGroup::Arithmetic:
        return "arithmetic";
    case SassGroup::Conversion:
        return "conversion";
    case SassGroup::Control:
        return "control";
    case SassGroup::Move:
        return "move";
    }
    return "move";
}

std::optional<SassClass> sassClassFromName(std::string_view name)
{
    for (const ClassName &entry : kClassNames) {
        if (name == entry.name)
            return entry.klass;
    }
    return std::nullopt;
}

std::string_view sassBaseOpcode(std::string_view opcode)
{
    return opcode.substr(0, opcode.find('.'));
}

SassClass classifySass(std::string_view opcode, std::string_view operands)
{
    const std::string_view base = sassBaseOpcode(opcode);
    // Idioms: ptxas moves a value with an IMAD by one plus zero, and zeroes or loads a small
    // constant with an HFMA2.MMA of zero registers, to spread moves over more pipes; both are
    // moves to the reader. HADD2.F32 adds -0 to a half and writes a float: a conversion.
    if (base == "IMAD" && hasModifier(opcode, "MOV"))
        return SassClass::Move;
    if (base == "HFMA2" && hasModifier(opcode, "MMA")) {
        const std::string_view rest = stripSpaces(operands.substr(operands.find(',') + 1));
        if (operands.find(',') != std::string_view::npos && rest.starts_with("-RZ, RZ,"))
            return SassClass::Move;
    }
    if (base == "HADD2" && hasModifier(opcode, "F32"))
        return SassClass::Conversion;
    if (base == "FRND" && hasModifier(opcode, "F64"))
        return SassClass::Fp64;

    const std::vector<OpcodeRow> &rows = sortedOpcodes();
    const auto it =
        std::lower_bound(rows.begin(), rows.end(), base,
                         [](const OpcodeRow &row, std::string_view key) { return row.base < key; });
    if (it != rows.end() && it->base == base)
        return it->klass;
    return SassClass::Other;
}

SassAccess sassAccess(SassClass klass, std::string_view opcode)
{
    if (sassGroup(klass) != SassGroup::Memory)
        return SassAccess::None;
    if (klass == SassClass::AtomicMemory)
        return SassAccess::Atomic;
    const std::string_view base = sassBaseOpcode(opcode);
    if (base.starts_with("ST") || base.starts_with("UST") || base == "SUST")
        return SassAccess::Store;
    if (base.starts_with("LD") || base.starts_with("ULD") || base.starts_with("T") ||
        base == "SULD")
        return SassAccess::Load;
    return SassAccess::None;
}

int sassAccessBytes(SassClass klass, std::string_view opcode)
{
    if (sassAccess(klass, opcode) == SassAccess::None)
        return 0;
    if (hasModifier(opcode, "128"))
        return 16;
    if (hasModifier(opcode, "64"))
        return 8;
    if (hasModifier(opcode, "U16") || hasModifier(opcode, "S16"))
        return 2;
    if (hasModifier(opcode, "U8") || hasModifier(opcode, "S8"))
        return 1;
    return 4;
}

} // namespace cuwb
