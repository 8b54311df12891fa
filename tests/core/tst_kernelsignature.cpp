// Kernel signatures read from real NVRTC compiles: qualifiers behind macros, comments and line
// breaks inside the list, default arguments, several kernels, templates, unsupported kinds,
// and the check against the PTX .entry parameter sizes.
#include "compilertesthelpers.h"

#include "compiler/kernelcompiler.h"
#include "kernel/kernelsignature.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_kernelsignature {

namespace {

struct Compiled
{
    std::string source;
    CompileResult result;
};

Compiled compile(const std::string &source, std::vector<std::string> nameExpressions = {})
{
    static KernelCompiler compiler;
    CompileOptions options;
    options.nameExpressions = std::move(nameExpressions);
    Compiled compiled{source, compiler.compile(source, "signature.cu", options)};
    if (!compiled.result.success) {
        for (const Diagnostic &diagnostic : compiled.result.diagnostics)
            qWarning("%s", diagnostic.message.c_str());
    }
    return compiled;
}

KernelSignature signatureOf(const Compiled &compiled, const std::string &plainName)
{
    for (const KernelInfo &kernel : compiled.result.kernels) {
        const std::string readable =
            kernel.readableName.empty() ? kernel.loweredName : kernel.readableName;
        if (kernel.loweredName == plainName ||
            readable.find(" " + plainName) != std::string::npos ||
            readable.starts_with(plainName + "(") || readable.starts_with(plainName + "<"))
            return parseKernelSignature(compiled.source, compiled.result.ptx, kernel);
    }
    qFatal("kernel %s not compiled", plainName.c_str());
}

} // namespace

class TestKernelSignature : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kernelDeclaredInAnIncludedHeader();
    void readsQualifiersAndTypes();
    void macrosAroundQualifiers();
    void commentsAndDefaults();
    void severalKernels();
    void templates();
    void unsupportedKinds();
    void ptxSizes();
    void ptxSizeMismatch();
    void missingDeclaration();
    void emptyNameIsNotFound();
};

void TestKernelSignature::readsQualifiersAndTypes()
{
    const Compiled compiled = compile(R"(#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void k(const float *__restrict__ a, float const *b, float *const c,
    int n, const double alpha, bool flag, __half h, __nv_bfloat16 *bf, float4 v, uchar4 *pixels,
    size_t count, unsigned long long big, signed char s, float data[])
{
}
)");
    QVERIFY(compiled.result.success);
    const KernelSignature signature = signatureOf(compiled, "k");
    QCOMPARE(signature.error, std::string());
    QVERIFY(signature.drivable());
    const auto &p = signature.parameters;
    QCOMPARE(p.size(), std::size_t(14));
    QCOMPARE(p[0].name, std::string("a"));
    QVERIFY(p[0].isPointer && p[0].isConst && p[0].isRestrict);
    QCOMPARE(p[0].elementType, (ElementType{ScalarKind::Float32, 1}));
    QCOMPARE(p[0].sizeBytes, std::size_t(8));
    QVERIFY(p[1].isPointer && p[1].isConst && !p[1].isRestrict);
    QVERIFY(p[2].isPointer && !p[2].isConst); // a const pointer to mutable floats
    QVERIFY(!p[3].isPointer);
    QCOMPARE(p[3].elementType, (ElementType{ScalarKind::Int32, 1}));
    QCOMPARE(p[3].sizeBytes, std::size_t(4));
    QVERIFY(p[4].isConst);
    QCOMPARE(p[4].elementType, (ElementType{ScalarKind::Float64, 1}));
    QCOMPARE(p[5].elementType, (ElementType{ScalarKind::Bool, 1}));
    QCOMPARE(p[5].sizeBytes, std::size_t(1));
    QCOMPARE(p[6].elementType, (ElementType{ScalarKind::Float16, 1}));
    QCOMPARE(p[7].elementType, (ElementType{ScalarKind::BFloat16, 1}));
    QCOMPARE(p[8].elementType, (ElementType{ScalarKind::Float32, 4}));
    QCOMPARE(p[8].sizeBytes, std::size_t(16));
    QCOMPARE(p[9].elementType, (ElementType{ScalarKind::UInt8, 4}));
    QCOMPARE(p[10].elementType, (ElementType{ScalarKind::UInt64, 1}));
    QCOMPARE(p[11].elementType, (ElementType{ScalarKind::UInt64, 1}));
    QCOMPARE(p[12].elementType, (ElementType{ScalarKind::Int8, 1}));
    QCOMPARE(p[13].name, std::string("data"));
    QVERIFY(p[13].isPointer);
    for (const KernelParameter &parameter : p)
        QCOMPARE(parameter.ptxSizeBytes, parameter.sizeBytes);
}

void TestKernelSignature::macrosAroundQualifiers()
{
    const Compiled compiled = compile(R"(#define RESTRICT __restrict__
#define CONST_IN const
#define REAL float
extern "C" __global__ void __launch_bounds__(256, 2)
k(CONST_IN REAL *RESTRICT in, REAL *RESTRICT out, __grid_constant__ const int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
)");
    QVERIFY(compiled.result.success);
    const KernelSignature signature = signatureOf(compiled, "k");
    QCOMPARE(signature.error, std::string());
    QCOMPARE(signature.parameters.size(), std::size_t(3));
    QCOMPARE(signature.parameters[0].name, std::string("in"));
    QVERIFY(signature.parameters[0].isConst && signature.parameters[0].isRestrict);
    QCOMPARE(signature.parameters[0].elementType, (ElementType{ScalarKind::Float32, 1}));
    QCOMPARE(signature.parameters[1].name, std::string("out"));
    QVERIFY(!signature.parameters[1].isConst && signature.parameters[1].isRestrict);
    QCOMPARE(signature.parameters[2].name, std::string("n"));
    QVERIFY(!signature.parameters[2].isPointer && signature.parameters[2].isConst);
    QVERIFY(signature.drivable());
}

void TestKernelSignature::commentsAndDefaults()
{
    const Compiled compiled = compile(R"(
__global__ void
scale(float *x, // the data, scaled in place
      /* a comment, with a comma ( and a parenthesis */ float factor,
      int n = 1024 /* , int fake */)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= factor;
}
)");
    QVERIFY(compiled.result.success);
    const KernelSignature signature = signatureOf(compiled, "scale");
    QCOMPARE(signature.error, std::string());
    QCOMPARE(signature.parameters.size(), std::size_t(3));
    QCOMPARE(signature.parameters[0].name, std::string("x"));
    QCOMPARE(signature.parameters[1].name, std::string("factor"));
    QCOMPARE(signature.parameters[2].name, std::string("n"));
    QCOMPARE(signature.parameters[2].typeText, std::string("int"));
}

void TestKernelSignature::severalKernels()
{
    const Compiled compiled = compile(R"(
__global__ void first(int *a) { a[0] = 1; }
__device__ float helper(float v) { return v * 2; }
__global__ void second(double *b, unsigned n) { if (n) b[0] = helper(1.0f); }
extern "C" __global__ void third(void) {}
)");
    QVERIFY(compiled.result.success);
    QCOMPARE(compiled.result.kernels.size(), std::size_t(3));
    const KernelSignature first = signatureOf(compiled, "first");
    QCOMPARE(first.parameters.size(), std::size_t(1));
    QCOMPARE(first.parameters[0].elementType, (ElementType{ScalarKind::Int32, 1}));
    const KernelSignature second = signatureOf(compiled, "second");
    QCOMPARE(second.parameters.size(), std::size_t(2));
    QCOMPARE(second.parameters[0].name, std::string("b"));
    QCOMPARE(second.parameters[1].elementType, (ElementType{ScalarKind::UInt32, 1}));
    const KernelSignature third = signatureOf(compiled, "third");
    QCOMPARE(third.error, std::string());
    QVERIFY(third.parameters.empty());
}

void TestKernelSignature::templates()
{
    const Compiled compiled = compile(R"(
template <typename T, int Block = 256>
__global__ void saxpy(T alpha, const T *x, T *y, int n)
{
    const int i = blockIdx.x * Block + threadIdx.x;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
}
template __global__ void saxpy<double, 128>(double, const double *, double *, int);
)",
                                      {"saxpy<float>"});
    QVERIFY(compiled.result.success);
    QCOMPARE(compiled.result.kernels.size(), std::size_t(2));
    for (const KernelInfo &kernel : compiled.result.kernels) {
        const KernelSignature signature =
            parseKernelSignature(compiled.source, compiled.result.ptx, kernel);
        QCOMPARE(signature.error, std::string());
        QCOMPARE(signature.parameters.size(), std::size_t(4));
        const bool isDouble = kernel.readableName.find("double") != std::string::npos;
        const ElementType type{isDouble ? ScalarKind::Float64 : ScalarKind::Float32, 1};
        QCOMPARE(signature.parameters[0].name, std::string("alpha"));
        QCOMPARE(signature.parameters[0].elementType, type);
        QCOMPARE(signature.parameters[0].sizeBytes, type.sizeBytes());
        QCOMPARE(signature.parameters[0].typeText, std::string(isDouble ? "double" : "float"));
        QCOMPARE(signature.parameters[1].name, std::string("x"));
        QVERIFY(signature.parameters[1].isPointer && signature.parameters[1].isConst);
        QCOMPARE(signature.parameters[1].elementType, type);
        QCOMPARE(signature.parameters[1].typeText,
                 std::string(isDouble ? "const double *" : "const float *"));
        QVERIFY(signature.drivable());
    }
}

void TestKernelSignature::unsupportedKinds()
{
    const Compiled compiled = compile(R"(
struct Params { float scale; int n; };
typedef void (*Callback)(int);
extern "C" __global__ void k(Params p, float **rows, int &ref, void (*fn)(int), void *raw,
                             Params *many, float ok)
{
}
)");
    QVERIFY(compiled.result.success);
    const KernelSignature signature = signatureOf(compiled, "k");
    QCOMPARE(signature.error, std::string());
    QVERIFY(!signature.drivable());
    const auto &p = signature.parameters;
    QCOMPARE(p.size(), std::size_t(7));
    QCOMPARE(p[0].unsupportedReason,
             std::string("'Params' is not a number type CUDA Workbench knows (structs passed by "
                         "value cannot be driven from the launch panel)"));
    QVERIFY(!p[0].elementTypeKnown);
    QCOMPARE(p[0].sizeBytes, std::size_t(8)); // from the PTX
    QCOMPARE(p[1].unsupportedReason,
             std::string("pointers to pointers (float **) cannot be driven from the launch panel; "
                         "it allocates flat buffers only"));
    QCOMPARE(p[2].unsupportedReason,
             std::string("reference parameters cannot be driven from the launch panel; pass a "
                         "pointer"));
    QCOMPARE(p[3].name, std::string("fn"));
    QCOMPARE(p[3].unsupportedReason,
             std::string("function pointers cannot be driven from the launch panel"));
    QVERIFY(p[4].unsupportedReason.starts_with("a void pointer has no element type"));
    QVERIFY(p[5].unsupportedReason.starts_with("'Params' is not a number type"));
    QVERIFY(p[6].supported);
    for (std::size_t i = 0; i + 1 < p.size(); ++i)
        QVERIFY(!p[i].supported);
}

void TestKernelSignature::ptxSizes()
{
    const std::string ptx = R"(
.visible .entry other(
	.param .u32 other_param_0
)
.visible .entry k(
	.param .u64 .ptr .align 1 k_param_0,
	.param .u32 k_param_1,
	.param .align 16 .b8 k_param_2[16],
	.param .u8 k_param_3,
	.param .f64 k_param_4,
	.param .align 4 .b8 k_param_5[12]
)
{
}
)";
    QCOMPARE(ptxEntryParameterSizes(ptx, "k"), (std::vector<std::size_t>{8, 4, 16, 1, 8, 12}));
    QCOMPARE(ptxEntryParameterSizes(ptx, "other"), (std::vector<std::size_t>{4}));
    QVERIFY(ptxEntryParameterSizes(ptx, "missing").empty());
    QVERIFY(ptxEntryParameterSizes(ptx, "oth").empty());
}

void TestKernelSignature::ptxSizeMismatch()
{
    // The source says float4 (16 bytes); a hand-edited PTX says 8.
    const Compiled compiled = compile(R"(
extern "C" __global__ void k(float4 v, int n) {}
)");
    QVERIFY(compiled.result.success);
    std::string ptx = compiled.result.ptx;
    const auto at = ptx.find(".b8 k_param_0[16]");
    QVERIFY(at != std::string::npos);
    ptx.replace(at, std::strlen(".b8 k_param_0[16]"), ".b8 k_param_0[8]");
    const KernelSignature signature =
        parseKernelSignature(compiled.source, ptx, compiled.result.kernels.front());
    QVERIFY(!signature.parameters[0].supported);
    QCOMPARE(signature.parameters[0].unsupportedReason,
             std::string("PTX says 8 bytes, the declaration 16"));
    QCOMPARE(signature.parameters[0].ptxSizeBytes, std::size_t(8));
    QVERIFY(signature.parameters[1].supported);
}

void TestKernelSignature::missingDeclaration()
{
    KernelInfo kernel;
    kernel.loweredName = "gone";
    kernel.readableName = "gone";
    kernel.externC = true;
    const KernelSignature signature =
        parseKernelSignature("__global__ void here(int *a) {}", "", kernel);
    QCOMPARE(signature.error,
             std::string("the declaration of kernel 'gone' was not found in the source"));
    QVERIFY(!signature.drivable());
}

// Found by fuzz/fuzz_signature: a kernel whose name reads as empty made the search for its
// declaration find "" at the same place forever.
void TestKernelSignature::emptyNameIsNotFound()
{
    for (const char *readable : {"", "<int>", "ns::"}) {
        KernelInfo kernel;
        kernel.readableName = readable;
        kernel.externC = true;
        kernel.sourceLine = 1;
        const KernelSignature signature =
            parseKernelSignature("__global__ void k(int *a) {}", "", kernel);
        QVERIFY(!signature.error.empty());
        QVERIFY(!signature.drivable());
    }
}

// A whole program whose kernels live in a header it includes (runner.cu including
// kernels.cuh): the compile keeps the lines around the declaration, so the parameters are read
// from the header, by name, as for a kernel of the main file.
void TestKernelSignature::kernelDeclaredInAnIncludedHeader()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    {
        QFile header(dir.filePath(QStringLiteral("kernels.cuh")));
        QVERIFY(header.open(QIODevice::WriteOnly));
        header.write("#pragma once\n"
                     "template <const int BM, const int BN>\n"
                     "__global__ void tiled(int M, int N, float alpha, const float *A,\n"
                     "                      float *C)\n"
                     "{\n"
                     "    C[threadIdx.x] = alpha * A[threadIdx.x] * BM * BN + M + N;\n"
                     "}\n");
    }
    const std::string source = "#include \"kernels.cuh\"\n"
                               "int main() { tiled<64, 32><<<1, 1>>>(1, 1, 1.0f, nullptr, "
                               "nullptr); }\n";
    CompileOptions options;
    options.includeDirs = {dir.path().toStdString()};
    KernelCompiler compiler;
    for (const char *which : {"auto", "nvrtc"}) {
        options.compiler = which;
        // NVRTC cannot compile the host code: it instantiates the kernel by name instead.
        options.nameExpressions = options.compiler == "nvrtc"
                                      ? std::vector<std::string>{"tiled<64, 32>"}
                                      : std::vector<std::string>{};
        const std::string text =
            options.compiler == "nvrtc" ? std::string("#include \"kernels.cuh\"\n") : source;
        const CompileResult result = compiler.compile(text, "runner.cu", options);
        QVERIFY2(result.success, result.log.c_str());
        QCOMPARE(result.kernels.size(), std::size_t(1));
        const KernelInfo &kernel = result.kernels[0];
        QCOMPARE(kernel.sourceLine, 0);
        QVERIFY2(kernel.declaringFile.ends_with("kernels.cuh"), kernel.declaringFile.c_str());
        QCOMPARE(kernel.declaringLine, 3);
        const KernelSignature signature = parseKernelSignature(text, result.ptx, kernel);
        QVERIFY2(signature.error.empty(), signature.error.c_str());
        QCOMPARE(signature.parameters.size(), std::size_t(5));
        QCOMPARE(signature.parameters[3].name, std::string("A"));
        QCOMPARE(signature.parameters[4].name, std::string("C"));
    }
}

CUWB_TEST_GUILESS_MAIN(TestKernelSignature)
} // namespace tst_kernelsignature
} // namespace

#include "tst_kernelsignature.moc"
