// KernelCompiler against the real compilers (no GPU needed): nvcc, as the user's build runs it,
// and NVRTC where the toolkit has no nvcc; samples, toolkit headers, whole files with host
// code, template kernels, diagnostics at exact positions, ptxas resources, the cache, and bad
// input.
#include "compilertesthelpers.h"

#include "compiler/compilejson.h"
#include "compiler/kernelcompiler.h"
#include "compiler/nvcc.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <thread>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_kernelcompiler {
using cuwbtest::readData;
using cuwbtest::readFile;

class TestKernelCompiler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void vectorAddSample();
    void mistakesSample();
    void mistakesSampleWithNvrtc();
    void compilerIsNamed();
    void wholeFileWithHostCode();
    void nvrtcStandIns();
    void allMissingHeadersAtOnce();
    void flags();
    void columnUnderExpandedMacros();
    void nameExpressionErrorWithNvcc();
    void nameExpressionOfDefines();
    void templateKernelsByNameExpression();
    void toolkitHeaders_data();
    void toolkitHeaders();
    void hostLibraryHeader();
    void missingInclude();
    void errorAtLineAndColumn();
    void spillingKernel();
    void emptySource();
    void invalidOptionsAreAMessage();
    void hostFunctionWithoutDevice();
    void largeAndOddSources();
    void cacheHit();
    void cacheMissOnDifferentInput();
    void cacheEvictsLeastRecentlyUsed();
    void concurrentCompiles();
    void json();
};

namespace {
CompileOptions withNvrtc()
{
    CompileOptions options;
    options.compiler = "nvrtc";
    return options;
}

std::string sample(const char *name)
{
    return readFile(QStringLiteral(CUWB_SAMPLES_DIR "/%1/%1.cu").arg(QString::fromUtf8(name)));
}

// 1-based line of the first line containing text.
int lineContaining(const std::string &source, const std::string &text)
{
    const std::size_t pos = source.find(text);
    if (pos == std::string::npos)
        return -1;
    return int(std::count(source.begin(), source.begin() + long(pos), '\n')) + 1;
}

const KernelInfo *findKernel(const CompileResult &result, const std::string &lowered)
{
    for (const KernelInfo &kernel : result.kernels) {
        if (kernel.loweredName == lowered)
            return &kernel;
    }
    return nullptr;
}
} // namespace

void TestKernelCompiler::vectorAddSample()
{
    KernelCompiler compiler;
    const std::string source = sample("vector_add");
    const CompileResult result = compiler.compile(source, "vector_add.cu", CompileOptions());
    QVERIFY2(result.success, result.log.c_str());
    QVERIFY(result.failureMessage.empty());
    QVERIFY2(result.diagnostics.empty(), result.log.c_str());
    QCOMPARE(result.fileName, std::string("vector_add.cu"));
    QVERIFY(!result.fromCache);
    QVERIFY(result.compileTimeMs > 0.0);
    QVERIFY(result.ptx.find(".entry vector_add(") != std::string::npos);
    QVERIFY(result.ptx.find(".target sm_90") != std::string::npos);
    QVERIFY(result.cubin.starts_with("\x7f"
                                     "ELF"));
    QVERIFY(!result.lineMap.empty());

    QCOMPARE(result.kernels.size(), std::size_t(1));
    const KernelInfo &kernel = result.kernels[0];
    QCOMPARE(kernel.loweredName, std::string("vector_add"));
    QCOMPARE(kernel.readableName, std::string("vector_add"));
    QVERIFY(kernel.externC);
    QVERIFY(kernel.nameExpression.empty());
    QCOMPARE(kernel.sourceLine, lineContaining(source, "__global__ void vector_add("));
    QVERIFY(kernel.resources.reported);
    QVERIFY(kernel.resources.registers > 0);
    QCOMPARE(kernel.resources.spillStoreBytes, 0);
    QCOMPARE(kernel.resources.staticSharedBytes, 0);
    QVERIFY(!kernel.spills());
}

void TestKernelCompiler::mistakesSample()
{
    if (!nvccInstallation().found())
        QSKIP("the toolkit has no nvcc");
    KernelCompiler compiler;
    const std::string source = sample("vector_add_mistakes");
    const CompileResult result =
        compiler.compile(source, "vector_add_mistakes.cu", CompileOptions());
    QVERIFY(!result.success);
    QVERIFY(result.failureMessage.empty()); // it compiled and failed: that is data
    QCOMPARE(result.compiledBy.name, std::string("nvcc"));
    const DiagnosticCounts counts = result.counts();
    // nvcc reports the call of the host function only once the other errors are fixed.
    QCOMPARE(counts.errors, 2);
    QCOMPARE(counts.warnings, 1);
    const auto find = [&](int line, Severity severity, const std::string &text) {
        return std::find_if(result.diagnostics.begin(), result.diagnostics.end(),
                            [&](const Diagnostic &d) {
                                return d.line == line && d.severity == severity &&
                                       d.message.find(text) != std::string::npos &&
                                       d.file == "vector_add_mistakes.cu";
                            });
    };
    const auto count = find(lineContaining(source, "i < count"), Severity::Error, "\"count\"");
    QVERIFY(count != result.diagnostics.end());
    // The front end under nvcc copies the line without its comment, which also says "count":
    // the column is the code's.
    QCOMPARE(count->column, 13);
    QVERIFY(find(lineContaining(source, "int unused"), Severity::Warning, "\"unused\"") !=
            result.diagnostics.end());
    const auto instantiated = std::find_if(result.diagnostics.begin(), result.diagnostics.end(),
                                           [](const Diagnostic &d) { return !d.notes.empty(); });
    QVERIFY(instantiated != result.diagnostics.end());
    QCOMPARE(instantiated->line, lineContaining(source, "return item.value"));
    QCOMPARE(instantiated->notes[0].line, lineContaining(source, "valueOf(a[i])"));
}

void TestKernelCompiler::mistakesSampleWithNvrtc()
{
    KernelCompiler compiler;
    const std::string source = sample("vector_add_mistakes");
    const CompileResult result = compiler.compile(source, "vector_add_mistakes.cu", withNvrtc());
    QVERIFY(!result.success);
    QVERIFY(result.failureMessage.empty());
    QCOMPARE(result.compiledBy.name, std::string("nvrtc"));
    const DiagnosticCounts counts = result.counts();
    QCOMPARE(counts.errors, 3);
    QCOMPARE(counts.warnings, 1);

    const auto has = [&](int line, Severity severity, const std::string &text) {
        return std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                           [&](const Diagnostic &d) {
                               return d.line == line && d.severity == severity &&
                                      d.message.find(text) != std::string::npos &&
                                      d.file == "vector_add_mistakes.cu";
                           });
    };
    QVERIFY(has(lineContaining(source, "float twice("), Severity::Error, "host function"));
    QVERIFY(has(lineContaining(source, "i < count"), Severity::Error, "\"count\""));
    QVERIFY(has(lineContaining(source, "int unused"), Severity::Warning, "\"unused\""));
    // The note names the host code and the remedy.
    QVERIFY(std::any_of(result.notes.begin(), result.notes.end(), [](const std::string &note) {
        return note.find("twice()") != std::string::npos && note.find("nvcc") != std::string::npos;
    }));
}

void TestKernelCompiler::compilerIsNamed()
{
    KernelCompiler compiler;
    const CompileResult rtc = compiler.compile(sample("vector_add"), "vector_add.cu", withNvrtc());
    QVERIFY2(rtc.success, rtc.log.c_str());
    QCOMPARE(rtc.compiledBy.name, std::string("nvrtc"));
    QVERIFY(!rtc.compiledBy.version.empty());
    QVERIFY(rtc.compiledBy.command.find("--gpu-architecture=sm_90") != std::string::npos);
    QCOMPARE(rtc.compiledBy.label().rfind("NVRTC ", 0), std::size_t(0));
    if (!nvccInstallation().found())
        QSKIP("the toolkit has no nvcc");
    QCOMPARE(resolvedCompiler(CompileOptions()), std::string("nvcc"));
    const CompileResult nvcc =
        compiler.compile(sample("vector_add"), "vector_add.cu", CompileOptions());
    QVERIFY2(nvcc.success, nvcc.log.c_str());
    QCOMPARE(nvcc.compiledBy.name, std::string("nvcc"));
    QCOMPARE(nvcc.compiledBy.version, nvccInstallation().version);
    // The command a user types for the same build, the workbench's scratch folder left out.
    QCOMPARE(nvcc.compiledBy.command,
             std::string("nvcc -cubin -arch=sm_90 -lineinfo -std=c++17 -Xptxas=-v vector_add.cu"));
    QVERIFY(nvcc.ptx.find(".entry vector_add") != std::string::npos);
    QVERIFY(!nvcc.cubin.empty());
    QVERIFY(!nvcc.lineMap.ptxLinesForSource(lineContaining(sample("vector_add"), "        c[i] = "))
                 .empty());
    // Each compiler's result is cached as its own.
    const CompileResult again =
        compiler.compile(sample("vector_add"), "vector_add.cu", withNvrtc());
    QVERIFY(again.fromCache);
    QCOMPARE(again.compiledBy.name, std::string("nvrtc"));
}

// A whole .cu as people write it: host headers, cuBLAS, glibc's uint, M_PI, INFINITY, a host
// main() with cudaMalloc and printf. nvcc builds its kernels unchanged and names the host code.
void TestKernelCompiler::wholeFileWithHostCode()
{
    if (!nvccInstallation().found())
        QSKIP("the toolkit has no nvcc");
    const std::string source = readData("whole_program.cu");
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(source, "whole_program.cu", CompileOptions());
    QVERIFY2(result.success, result.log.c_str());
    QCOMPARE(result.kernels.size(), std::size_t(2));
    QVERIFY(std::any_of(result.notes.begin(), result.notes.end(), [](const std::string &note) {
        return note.find("host code set aside: checkCuda(), main()") != std::string::npos;
    }));
    // NVRTC cannot compile it, and says what would.
    const CompileResult rtc = compiler.compile(source, "whole_program.cu", withNvrtc());
    QVERIFY(!rtc.success);
    QVERIFY(std::any_of(rtc.notes.begin(), rtc.notes.end(), [](const std::string &note) {
        return note.find("host code (checkCuda(), main())") != std::string::npos;
    }));
}

// Without nvcc, a kernel file's host headers and glibc names still compile: stand-ins.
void TestKernelCompiler::nvrtcStandIns()
{
    const std::string source = "#include <cstdio>\n#include <cassert>\n#include <cmath>\n"
                               "#include <vector>\n#include <algorithm>\n"
                               "__global__ void k(uint *p, float *f)\n"
                               "{\n"
                               "    assert(p != nullptr);\n"
                               "    f[0] = float(M_PI) * f[1] + (f[2] > 0.0f ? INFINITY : NAN);\n"
                               "    printf(\"%u\\n\", p[0]);\n"
                               "}\n";
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(source, "standins.cu", withNvrtc());
    QVERIFY2(result.success, result.log.c_str());
    QCOMPARE(result.kernels.size(), std::size_t(1));
    const std::string notes =
        result.notes.empty() ? std::string() : result.notes[0] + "|" + result.notes.back();
    QVERIFY2(notes.find("set aside") != std::string::npos &&
                 notes.find("<cstdio>") != std::string::npos &&
                 notes.find("<vector>") != std::string::npos,
             notes.c_str());
    QVERIFY2(notes.find("<cuda/std/...>") != std::string::npos &&
                 notes.find("<cassert>") != std::string::npos,
             notes.c_str());
}

void TestKernelCompiler::allMissingHeadersAtOnce()
{
    const std::string source = "#include <cstdio>\n"
                               "#include \"first_missing.h\"\n"
                               "#include <second_missing.h>\n"
                               "#include \"sub/third_missing.cuh\"\n"
                               "__global__ void k(int *p) { p[0] = 1; }\n";
    KernelCompiler compiler;
    for (const CompileOptions &options : {CompileOptions(), withNvrtc()}) {
        if (resolvedCompiler(options) == "nvcc" && !nvccInstallation().found())
            continue;
        const CompileResult result = compiler.compile(source, "missing.cu", options);
        QVERIFY(!result.success);
        QCOMPARE(result.diagnostics.size(), std::size_t(3));
        const int lines[] = {2, 3, 4};
        const char *names[] = {"first_missing.h", "second_missing.h", "sub/third_missing.cuh"};
        for (std::size_t i = 0; i < 3; ++i) {
            const Diagnostic &d = result.diagnostics[i];
            QCOMPARE(d.severity, Severity::Error);
            QCOMPARE(d.file, std::string("missing.cu"));
            QCOMPARE(d.line, lines[i]);
            // The name's quote or bracket, after "#include " (NVRTC's own message for the first
            // points after the name).
            if (i > 0 || resolvedCompiler(options) == "nvcc")
                QCOMPARE(d.column, 10);
            QVERIFY2(d.message.find(std::string("cannot open source file \"") + names[i] + "\"") !=
                         std::string::npos,
                     d.message.c_str());
        }
    }
}

void TestKernelCompiler::flags()
{
    KernelCompiler compiler;
    CompileOptions options;
    options.flags = {"-ftz=true", "-Xptxas=-dlcm=cg"};
    const CompileResult result = compiler.compile(sample("vector_add"), "vector_add.cu", options);
    QVERIFY2(result.success, result.log.c_str());
    QVERIFY(result.compiledBy.command.find("-ftz=true -Xptxas=-dlcm=cg") != std::string::npos);

    // Options that name files or run programs are refused before anything runs.
    for (const char *refused : {"-Xcompiler=-fplugin=x.so", "-o", "--keep-dir=/tmp", "-ccbin=sh",
                                "-include=/etc/passwd", "-Xptxas=-o,/tmp/x", "--no-such"}) {
        options.flags = {refused};
        const CompileResult bad = compiler.compile(sample("vector_add"), "vector_add.cu", options);
        QVERIFY2(!bad.success && !bad.failureMessage.empty(), refused);
        QVERIFY2(bad.failureMessage.find(refused) != std::string::npos, bad.failureMessage.c_str());
    }
    // Fields have their own place: the message says which.
    options.flags = {"-arch=sm_80"};
    QVERIFY(compiler.compile(sample("vector_add"), "vector_add.cu", options)
                .failureMessage.find("\"arch\"") != std::string::npos);
    // An option of the other compiler is refused for this one.
    options = withNvrtc();
    options.flags = {"--expt-relaxed-constexpr"};
    QVERIFY(compiler.compile(sample("vector_add"), "vector_add.cu", options)
                .failureMessage.find("not an option of NVRTC") != std::string::npos);
}

// nvcc's front end copies the preprocessed line (`__global__` expanded), so the caret's offset
// is not the user's column; the column is found again on the user's line.
void TestKernelCompiler::columnUnderExpandedMacros()
{
    if (!nvccInstallation().found())
        QSKIP("the toolkit has no nvcc");
    const std::string source =
        "#define SCALE(x) ((x) * 2.0f)\n"
        "__global__ void k(float *q) { q[0] = SCALE(q[1]) + undefined_v; }\n";
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(source, "macro.cu", CompileOptions());
    QVERIFY(!result.success);
    QVERIFY(!result.diagnostics.empty());
    const Diagnostic &d = result.diagnostics[0];
    QCOMPARE(d.line, 2);
    QVERIFY2(d.message.find("undefined_v") != std::string::npos, d.message.c_str());
    QCOMPARE(d.column,
             int(std::string("__global__ void k(float *q) { q[0] = SCALE(q[1]) + ").size()) + 1);
}

// Kernel Launcher's convention: the template arguments are macros a launch define gives.
void TestKernelCompiler::nameExpressionOfDefines()
{
    const std::string source = "template <int BX, unsigned BY, typename T>\n"
                               "__global__ void mul(T *p) { p[threadIdx.x] *= BX * BY; }\n";
    for (const CompileOptions &base : {CompileOptions(), withNvrtc()}) {
        CompileOptions options = base;
        options.defines = {"BLOCK_X=32", "BLOCK_Y=BLOCK_X", "REAL=float"};
        options.nameExpressions = {"mul<BLOCK_X, BLOCK_Y, REAL>"};
        KernelCompiler compiler;
        const CompileResult result = compiler.compile(source, "mul.cu", options);
        QVERIFY2(result.success, result.log.c_str());
        QCOMPARE(result.kernels.size(), std::size_t(1));
        QCOMPARE(result.kernels[0].nameExpression, std::string("mul<BLOCK_X, BLOCK_Y, REAL>"));
        QCOMPARE(result.kernels[0].loweredName, std::string("_Z3mulILi32ELj32EfEvPT1_"));
    }
}

void TestKernelCompiler::nameExpressionErrorWithNvcc()
{
    if (!nvccInstallation().found())
        QSKIP("the toolkit has no nvcc");
    CompileOptions options;
    options.nameExpressions = {"scale<float>"};
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(
        "template <typename T> __global__ void scal(T *p) { p[0] = T(1); }\n", "t.cu", options);
    QVERIFY(!result.success);
    QVERIFY(!result.diagnostics.empty());
    QVERIFY2(result.diagnostics[0].message.find("does not name an instantiation") !=
                 std::string::npos,
             result.diagnostics[0].message.c_str());
    QCOMPARE(result.diagnostics[0].line, 0);
}

void TestKernelCompiler::templateKernelsByNameExpression()
{
    const std::string source = "namespace demo {\n"                                   // 1
                               "template <typename T>\n"                              // 2
                               "__global__ void scale(T *data, T factor, int n)\n"    // 3
                               "{\n"                                                  // 4
                               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" // 5
                               "    if (i < n) data[i] *= factor;\n"                  // 6
                               "}\n"                                                  // 7
                               "}\n"                                                  // 8
                               "// __global__ void plain(int *p) in a comment\n"      // 9
                               "__global__ void plain(int *p) { p[0] = 1; }\n";       // 10
    CompileOptions options;
    options.nameExpressions = {"demo::scale<float>", "demo::scale<double>"};
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(source, "templates.cu", options);
    QVERIFY2(result.success, result.log.c_str());
    QCOMPARE(result.kernels.size(), std::size_t(3));

    const KernelInfo *floats = findKernel(result, "_ZN4demo5scaleIfEEvPT_S1_i");
    QVERIFY(floats);
    QCOMPARE(floats->nameExpression, std::string("demo::scale<float>"));
    QCOMPARE(floats->readableName, std::string("void demo::scale<float>(float*, float, int)"));
    QVERIFY(!floats->externC);
    QCOMPARE(floats->sourceLine, 3);
    QVERIFY(floats->resources.registers > 0);

    const KernelInfo *doubles = findKernel(result, "_ZN4demo5scaleIdEEvPT_S1_i");
    QVERIFY(doubles);
    QCOMPARE(doubles->nameExpression, std::string("demo::scale<double>"));
    QCOMPARE(doubles->sourceLine, 3);

    const KernelInfo *plain = findKernel(result, "_Z5plainPi");
    QVERIFY(plain);
    QCOMPARE(plain->readableName, std::string("plain(int*)"));
    QVERIFY(plain->nameExpression.empty());
    QCOMPARE(plain->sourceLine, 10); // not the mention in the comment on line 9

    // Without name expressions nothing instantiates the template.
    const CompileResult bare = compiler.compile(source, "templates.cu", CompileOptions());
    QCOMPARE(bare.kernels.size(), std::size_t(1));
}

void TestKernelCompiler::toolkitHeaders_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<QString>("use");
    QTest::newRow("cuda_fp16") << QStringLiteral("cuda_fp16.h")
                               << QStringLiteral("p[0] = __float2half(1.0f) + p[1];");
    QTest::newRow("cuda_bf16") << QStringLiteral("cuda_bf16.h")
                               << QStringLiteral(
                                      "float f = __bfloat162float(__float2bfloat16(2.0f)); "
                                      "p[0] = __float2half(f);");
    QTest::newRow("curand_kernel")
        << QStringLiteral("curand_kernel.h")
        << QStringLiteral("curandState s; curand_init(1, threadIdx.x, 0, &s); "
                          "p[0] = __float2half(curand_uniform(&s));");
    QTest::newRow("cooperative_groups")
        << QStringLiteral("cooperative_groups.h")
        << QStringLiteral("auto block = cooperative_groups::this_thread_block(); block.sync(); "
                          "p[0] = __float2half(float(block.size()));");
    QTest::newRow("cuda/std/limits")
        << QStringLiteral("cuda/std/limits")
        << QStringLiteral("p[0] = __float2half(cuda::std::numeric_limits<float>::epsilon());");
}

void TestKernelCompiler::toolkitHeaders()
{
    QFETCH(QString, header);
    QFETCH(QString, use);
    const std::string source = "#include <" + header.toStdString() +
                               ">\n#include <cuda_fp16.h>\n"
                               "__global__ void k(__half *p)\n{\n    " +
                               use.toStdString() + "\n}\n";
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(source, "headers.cu", CompileOptions());
    QVERIFY2(result.success, result.log.c_str());
    QCOMPARE(result.counts().errors, 0);
    QCOMPARE(result.kernels.size(), std::size_t(1));
}

void TestKernelCompiler::hostLibraryHeader()
{
    // A host header a kernel file includes (for its host code, or out of habit) is what nvcc
    // has; NVRTC reads libcu++'s form of it.
    KernelCompiler compiler;
    const std::string source =
        "#include <cstdlib>\n__global__ void k(int *p) { p[0] = abs(p[1]); }\n";
    for (const CompileOptions &options : {CompileOptions(), withNvrtc()}) {
        const CompileResult result = compiler.compile(source, "host.cu", options);
        QVERIFY2(result.success, result.log.c_str());
        QCOMPARE(result.kernels.size(), std::size_t(1));
    }
}

void TestKernelCompiler::missingInclude()
{
    KernelCompiler compiler;
    const CompileResult result =
        compiler.compile("// comment\n#include \"not_there.cuh\"\n__global__ void k() {}\n",
                         "inc.cu", CompileOptions());
    QVERIFY(!result.success);
    QCOMPARE(result.diagnostics.size(), std::size_t(1));
    QVERIFY(result.diagnostics[0].catastrophic);
    QCOMPARE(result.diagnostics[0].line, 2);
    QCOMPARE(result.diagnostics[0].message,
             std::string("cannot open source file \"not_there.cuh\""));
    QVERIFY(result.kernels.empty());
    QVERIFY(result.ptx.empty());
}

void TestKernelCompiler::errorAtLineAndColumn()
{
    const std::string source = "__global__ void k(float *out, int n)\n"
                               "{\n"
                               "\tfloat acc = 0.0f;\n"
                               "\tfor (int j = 0; j < n; ++j)\n"
                               "\t\tacc += weigth[j];\n"
                               "\tout[0] = acc;\n"
                               "}\n";
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(source, "typo.cu", CompileOptions());
    QVERIFY(!result.success);
    QCOMPARE(result.diagnostics.size(), std::size_t(1));
    const Diagnostic &d = result.diagnostics[0];
    QCOMPARE(d.file, std::string("typo.cu"));
    QCOMPARE(d.line, 5);
    QCOMPARE(d.column, 10); // two tabs, "acc += ", then the misspelt name
    QCOMPARE(d.message, std::string("identifier \"weigth\" is undefined"));
    QCOMPARE(d.severity, Severity::Error);
}

void TestKernelCompiler::spillingKernel()
{
    const std::string source = readData("resources.cu");
    CompileOptions options;
    options.maxRegisters = 32;
    options.nameExpressions = {"withShared<double>"};
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(source, "resources.cu", options);
    QVERIFY2(result.success, result.log.c_str());
    QCOMPARE(result.kernels.size(), std::size_t(5));

    const KernelInfo *heavy = findKernel(result, "_Z5heavyPKfPfi");
    QVERIFY(heavy);
    QVERIFY(heavy->spills());
    QVERIFY(heavy->resources.spillStoreBytes > 0);
    QVERIFY(heavy->resources.spillLoadBytes > 0);
    QVERIFY(heavy->resources.registers <= 32);
    QCOMPARE(heavy->sourceLine, lineContaining(source, "__global__ void heavy("));

    const KernelInfo *shared = findKernel(result, "_Z10withSharedIdEvPT_");
    QVERIFY(shared);
    QCOMPARE(shared->resources.staticSharedBytes, 2048);
    QCOMPARE(shared->resources.barriers, 1);
    QCOMPARE(shared->nameExpression, std::string("withShared<double>"));

    // Without the limit the same kernel keeps everything in registers.
    options.maxRegisters = 0;
    const CompileResult unlimited = compiler.compile(source, "resources.cu", options);
    QVERIFY(unlimited.success);
    QVERIFY(!findKernel(unlimited, "_Z5heavyPKfPfi")->spills());
    QVERIFY(findKernel(unlimited, "_Z5heavyPKfPfi")->resources.registers > 32);
}

void TestKernelCompiler::emptySource()
{
    KernelCompiler compiler;
    const CompileResult result = compiler.compile("", "empty.cu", CompileOptions());
    QVERIFY2(result.success, result.log.c_str());
    QVERIFY(result.diagnostics.empty());
    QVERIFY(result.kernels.empty());
    QVERIFY(result.failureMessage.empty());
}

void TestKernelCompiler::invalidOptionsAreAMessage()
{
    CompileOptions options;
    options.arch = "sm_12";
    options.maxRegisters = 3;
    KernelCompiler compiler;
    const CompileResult result = compiler.compile(sample("vector_add"), "vector_add.cu", options);
    QVERIFY(!result.success);
    QVERIFY(result.failureMessage.find("sm_12 is not supported") != std::string::npos);
    QVERIFY(result.failureMessage.find("maximum registers 3") != std::string::npos);
    QVERIFY(result.kernels.empty());
    QCOMPARE(compiler.cacheSize(), std::size_t(0)); // not what the source compiles to

    // A define that validate() accepts but whose value is broken C++ fails where it is used,
    // as a diagnostic rather than a failure to run.
    options = CompileOptions();
    options.defines = {"X=\"unterminated"};
    options.compiler = "nvrtc";
    const CompileResult broken =
        compiler.compile("__global__ void k(int *p) { p[0] = X; }\n", "d.cu", options);
    QVERIFY(!broken.success);
    QVERIFY(broken.failureMessage.empty());
    QCOMPARE(broken.diagnostics.size(), std::size_t(1));
    QCOMPARE(broken.diagnostics[0].line, 1);
    QCOMPARE(broken.diagnostics[0].message, std::string("missing closing quote"));
    // nvcc refuses such a define on its command line, also as a diagnostic.
    if (nvccInstallation().found()) {
        options.compiler = "nvcc";
        const CompileResult refused =
            compiler.compile("__global__ void k(int *p) { p[0] = X; }\n", "d.cu", options);
        QVERIFY(!refused.success);
        QVERIFY(refused.failureMessage.empty());
        QCOMPARE(refused.diagnostics.size(), std::size_t(1));
        QVERIFY2(refused.diagnostics[0].message.find("nvcc: Stray") != std::string::npos,
                 refused.diagnostics[0].message.c_str());
    }
}

void TestKernelCompiler::hostFunctionWithoutDevice()
{
    const std::string source = "float helper(float x) { return x + 1.0f; }\n"
                               "__global__ void k(float *p) { p[0] = helper(p[1]); }\n";
    KernelCompiler compiler;
    // NVRTC rejects the host function itself.
    const CompileResult result = compiler.compile(source, "host_fn.cu", withNvrtc());
    QVERIFY(!result.success);
    QVERIFY(result.counts().errors >= 1);
    QCOMPARE(result.diagnostics[0].line, 1);
    QCOMPARE(result.diagnostics[0].column, 7);
    QVERIFY(result.diagnostics[0].message.find("host function") != std::string::npos);
    // nvcc accepts it, as host code, and rejects the kernel's call of it.
    if (!nvccInstallation().found())
        return;
    const CompileResult nvcc = compiler.compile(source, "host_fn.cu", CompileOptions());
    QVERIFY(!nvcc.success);
    QCOMPARE(nvcc.diagnostics[0].line, 2);
    QVERIFY(nvcc.diagnostics[0].message.find("calling a __host__ function(\"helper(float)\")") !=
            std::string::npos);
}

void TestKernelCompiler::largeAndOddSources()
{
    KernelCompiler compiler;
    // 50,000 lines, with the mistake on the last one.
    std::string large;
    for (int i = 0; i < 50000; ++i)
        large += "// filler line " + std::to_string(i) + "\n";
    large += "__global__ void k(int *p) { p[0] = nothing; }\n";
    const CompileResult result = compiler.compile(large, "large.cu", CompileOptions());
    QCOMPARE(result.diagnostics.size(), std::size_t(1));
    QCOMPARE(result.diagnostics[0].line, 50001);
    QCOMPARE(result.diagnostics[0].column, 36);

    // Latin-1 in a comment does not disturb the compile.
    const std::string latin1 = "// caf\xe9\n__global__ void k(int *p) { p[0] = 1; }\n";
    const CompileResult odd = compiler.compile(latin1, "latin1.cu", CompileOptions());
    QVERIFY2(odd.success, odd.log.c_str());
    QCOMPARE(odd.kernels.size(), std::size_t(1));

    // NVRTC takes a 0xFF byte for end-of-file and would silently drop the kernel after it
    // (and a NUL ends its C string); both are reported where they stand.
    for (const std::string &bad :
         {std::string("// ok\n// \xff\xfe\n__global__ void k(int *p) {}\n"),
          std::string("// ok\n// ") + '\0' + "\n__global__ void k(int *p) {}\n"}) {
        const CompileResult dropped = compiler.compile(bad, "bad_bytes.cu", withNvrtc());
        QVERIFY(!dropped.success);
        QCOMPARE(dropped.diagnostics.size(), std::size_t(1));
        QCOMPARE(dropped.diagnostics[0].line, 2);
        QCOMPARE(dropped.diagnostics[0].column, 4);
        QVERIFY(dropped.diagnostics[0].message.find("UTF-8") != std::string::npos);
        // nvcc reads such a file to its end: the kernel after the byte is there.
        if (nvccInstallation().found()) {
            const CompileResult kept = compiler.compile(bad, "bad_bytes.cu", CompileOptions());
            QVERIFY2(kept.success, kept.log.c_str());
            QCOMPARE(kept.kernels.size(), std::size_t(1));
        }
    }

    // A missing closing brace: NVRTC says "At end of source"; it lands on the last line.
    const CompileResult open = compiler.compile("__global__ void k(int *p)\n{\n    p[0] = 1;\n",
                                                "open.cu", CompileOptions());
    QVERIFY(!open.success);
    QCOMPARE(open.diagnostics.size(), std::size_t(1));
    QCOMPARE(open.diagnostics[0].file, std::string("open.cu"));
    QCOMPARE(open.diagnostics[0].line, 3);
    QCOMPARE(open.diagnostics[0].notes.size(), std::size_t(1));
    QCOMPARE(open.diagnostics[0].notes[0].line, 2);
}

void TestKernelCompiler::cacheHit()
{
    KernelCompiler compiler;
    const std::string source = sample("vector_add");
    const CompileResult first = compiler.compile(source, "vector_add.cu", CompileOptions());
    QVERIFY(!first.fromCache);
    QCOMPARE(compiler.cacheHits(), std::size_t(0));
    QCOMPARE(compiler.cacheSize(), std::size_t(1));

    const CompileResult second = compiler.compile(source, "vector_add.cu", CompileOptions());
    QVERIFY(second.fromCache);
    QCOMPARE(compiler.cacheHits(), std::size_t(1));
    QCOMPARE(second.ptx, first.ptx);
    QCOMPARE(second.cubin, first.cubin);
    QCOMPARE(second.kernels.size(), first.kernels.size());
    QCOMPARE(second.compileTimeMs, first.compileTimeMs);

    // Results that failed to compile are cached too: the same input fails the same way.
    compiler.compile("bad code", "bad.cu", CompileOptions());
    const CompileResult again = compiler.compile("bad code", "bad.cu", CompileOptions());
    QVERIFY(again.fromCache);
    QVERIFY(!again.success);
    QVERIFY(!again.diagnostics.empty());
    QCOMPARE(compiler.cacheHits(), std::size_t(2));

    compiler.clearCache();
    QCOMPARE(compiler.cacheSize(), std::size_t(0));
    QVERIFY(!compiler.compile(source, "vector_add.cu", CompileOptions()).fromCache);
}

void TestKernelCompiler::cacheMissOnDifferentInput()
{
    KernelCompiler compiler;
    const std::string source = sample("vector_add");
    compiler.compile(source, "vector_add.cu", CompileOptions());

    CompileOptions other;
    other.arch = "sm_80";
    const CompileResult otherArch = compiler.compile(source, "vector_add.cu", other);
    QVERIFY(!otherArch.fromCache);
    QVERIFY(otherArch.ptx.find(".target sm_80") != std::string::npos);

    CompileOptions defined;
    defined.defines = {"UNUSED=1"};
    QVERIFY(!compiler.compile(source, "vector_add.cu", defined).fromCache);
    QVERIFY(!compiler.compile(source, "other_name.cu", CompileOptions()).fromCache);
    QVERIFY(!compiler.compile(source + "\n", "vector_add.cu", CompileOptions()).fromCache);
    QCOMPARE(compiler.cacheHits(), std::size_t(0));
    QCOMPARE(compiler.cacheSize(), std::size_t(5));
}

void TestKernelCompiler::cacheEvictsLeastRecentlyUsed()
{
    KernelCompiler compiler(2);
    const std::string a = "__global__ void a(int *p) { p[0] = 1; }\n";
    const std::string b = "__global__ void b(int *p) { p[0] = 2; }\n";
    const std::string c = "__global__ void c(int *p) { p[0] = 3; }\n";
    compiler.compile(a, "x.cu", CompileOptions());
    compiler.compile(b, "x.cu", CompileOptions());
    QVERIFY(compiler.compile(a, "x.cu", CompileOptions()).fromCache); // a is now the newest
    compiler.compile(c, "x.cu", CompileOptions());                    // evicts b
    QCOMPARE(compiler.cacheSize(), std::size_t(2));
    QVERIFY(compiler.compile(a, "x.cu", CompileOptions()).fromCache);
    QVERIFY(!compiler.compile(b, "x.cu", CompileOptions()).fromCache);
}

void TestKernelCompiler::concurrentCompiles()
{
    KernelCompiler compiler(4);
    const std::string source = sample("vector_add");
    std::vector<CompileResult> results(8);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t) {
        threads.emplace_back([&, t] {
            CompileOptions options;
            options.arch = t % 2 ? "sm_80" : "sm_90";
            results[t] = compiler.compile(source, "vector_add.cu", options);
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    for (const CompileResult &result : results) {
        QVERIFY(result.success);
        QCOMPARE(result.kernels.size(), std::size_t(1));
    }
    QCOMPARE(compiler.cacheSize(), std::size_t(2));
    const auto cached = std::count_if(results.begin(), results.end(),
                                      [](const CompileResult &r) { return r.fromCache; });
    QCOMPARE(std::size_t(cached), compiler.cacheHits());
}

void TestKernelCompiler::json()
{
    KernelCompiler compiler;
    const CompileResult result =
        compiler.compile(sample("vector_add_mistakes"), "mistakes.cu", withNvrtc());
    const nlohmann::json json = result;
    QCOMPARE(json.at("success").get<bool>(), false);
    QCOMPARE(json.at("compiledBy").at("name").get<std::string>(), std::string("nvrtc"));
    QCOMPARE(json.at("counts").at("errors").get<int>(), 3);
    QCOMPARE(json.at("counts").at("warnings").get<int>(), 1);
    QCOMPARE(json.at("diagnostics").size(), result.diagnostics.size());
    const auto &warning =
        *std::find_if(json.at("diagnostics").begin(), json.at("diagnostics").end(),
                      [](const nlohmann::json &d) { return d.at("severity") == "warning"; });
    QCOMPARE(warning.at("code").get<std::string>(), std::string("177-D"));
    QVERIFY(warning.at("line").get<int>() > 0);
    QVERIFY(warning.at("column").get<int>() > 0);
    const auto noted = std::find_if(json.at("diagnostics").begin(), json.at("diagnostics").end(),
                                    [](const nlohmann::json &d) { return !d.at("notes").empty(); });
    QVERIFY(noted != json.at("diagnostics").end());
    QCOMPARE(noted->at("notes")[0].at("severity").get<std::string>(), std::string("note"));
    QVERIFY(!json.contains("cubin"));
    QVERIFY(!json.contains("ptx"));

    const CompileResult good =
        compiler.compile(sample("vector_add"), "vector_add.cu", CompileOptions());
    const nlohmann::json withPtx = compileResultToJson(good, true);
    QCOMPARE(withPtx.at("ptx").get<std::string>(), good.ptx);
    QVERIFY(!withPtx.contains("cubin"));
    const nlohmann::json &kernel = withPtx.at("kernels")[0];
    QCOMPARE(kernel.at("loweredName").get<std::string>(), std::string("vector_add"));
    QCOMPARE(kernel.at("externC").get<bool>(), true);
    QVERIFY(kernel.at("resources").at("registers").get<int>() > 0);
    QCOMPARE(withPtx.at("options").get<CompileOptions>(), CompileOptions());
    QCOMPARE(withPtx.at("fromCache").get<bool>(), false);
    QVERIFY(withPtx.at("compileTimeMs").get<double>() > 0.0);
}

CUWB_TEST_GUILESS_MAIN(TestKernelCompiler)
} // namespace tst_kernelcompiler
} // namespace

#include "tst_kernelcompiler.moc"
