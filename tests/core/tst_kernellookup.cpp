// Kernel lookup against modules NVRTC really compiled (no GPU needed): the names users write
// for C++ kernels — plain, namespaced, overloaded, template instantiations — resolve to the
// right lowered name, per compiled variant, and a wrong or ambiguous name lists the candidates
// in the user's spelling. Also the module's __constant__ and __device__ variables.
#include "compiler/kernelcompiler.h"
#include "compiler/kernellookup.h"
#include "kernel/kernelsignature.h"
#include "launch/launchenvironment.h"

#include <QObject>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_kernellookup {

class TestKernelLookup : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resolvesWrittenNames_data();
    void resolvesWrittenNames();
    void overloadNeedsSignature();
    void missingNameListsKernels();
    void onlyKernelWhenUnnamed();
    void templateInstantiationIsCompiled();
    void defineChangesLoweredNameNotLookup();
    void overloadSignatureReadsItsOwnDeclaration();
    void preferredNameIsShortestUnique();
    void moduleVariablesFromPtx();
    void launchBoundsFromPtx();
    void declaredTypesOfVariables_data();
    void declaredTypesOfVariables();
    void templateNamedWithItsSignature();
    void plainNameOfATemplateSaysHow();
    void wrongTemplateArgumentsNameTheKernel();
};

namespace {

const char *const kSource = R"(
namespace demo {
__global__ void scale(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2.0f; }
__global__ void scale(double *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2.0; }
}
template <typename T, int F>
__global__ void mul(T *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= F; }
template __global__ void mul<float, 2>(float *, int);
template <unsigned N>
__global__ void tile(unsigned *x, unsigned int n) { if (threadIdx.x < n) x[threadIdx.x] = N; }
template __global__ void tile<32>(unsigned *, unsigned int);
extern "C" __global__ void plain_c(int *x) { x[0] = 1; }
__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
)";

CompileResult compile(const std::string &source, std::vector<std::string> expressions = {},
                      std::vector<std::string> defines = {})
{
    static KernelCompiler compiler;
    CompileOptions options;
    options.nameExpressions = std::move(expressions);
    options.defines = std::move(defines);
    return compiler.compile(source, "lookup.cu", options);
}

} // namespace

void TestKernelLookup::resolvesWrittenNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("lowered");
    QTest::newRow("plain C++") << QStringLiteral("vector_add")
                               << QStringLiteral("_Z10vector_addPKfS0_Pfi");
    QTest::newRow("lowered") << QStringLiteral("_Z10vector_addPKfS0_Pfi")
                             << QStringLiteral("_Z10vector_addPKfS0_Pfi");
    QTest::newRow("with signature as the source spells it")
        << QStringLiteral("vector_add(const float*, const float*, float*, int)")
        << QStringLiteral("_Z10vector_addPKfS0_Pfi");
    QTest::newRow("with parameter names and top-level const")
        << QStringLiteral("vector_add(const float *__restrict__ a, const float *b, float *const c, "
                          "const int n)")
        << QStringLiteral("_Z10vector_addPKfS0_Pfi");
    QTest::newRow("unsigned template argument written plainly")
        << QStringLiteral("tile<32>") << QStringLiteral("_Z4tileILj32EEvPjj");
    QTest::newRow("unsigned template argument with its suffix")
        << QStringLiteral("tile<32u>(unsigned *, unsigned int)")
        << QStringLiteral("_Z4tileILj32EEvPjj");
    QTest::newRow("unsigned template argument as a cast")
        << QStringLiteral("tile<(unsigned int)32>") << QStringLiteral("_Z4tileILj32EEvPjj");
    QTest::newRow("no such kernel") << QStringLiteral("vector_ad(const float *)") << QString();
    QTest::newRow("demangled signature")
        << QStringLiteral("vector_add(float const*, float const*, float*, int)")
        << QStringLiteral("_Z10vector_addPKfS0_Pfi");
    QTest::newRow("extern C") << QStringLiteral("plain_c") << QStringLiteral("plain_c");
    QTest::newRow("overload by signature, spaces free")
        << QStringLiteral("scale(double *, int)") << QStringLiteral("_ZN4demo5scaleEPdi");
    QTest::newRow("namespaced overload")
        << QStringLiteral("demo::scale(float*, int)") << QStringLiteral("_ZN4demo5scaleEPfi");
    QTest::newRow("explicit instantiation")
        << QStringLiteral("mul<float, 2>") << QStringLiteral("_Z3mulIfLi2EEvPT_i");
    QTest::newRow("template by plain name, one instantiation")
        << QStringLiteral("mul") << QStringLiteral("_Z3mulIfLi2EEvPT_i");
}

void TestKernelLookup::resolvesWrittenNames()
{
    QFETCH(QString, name);
    QFETCH(QString, lowered);
    const CompileResult result = compile(kSource);
    QVERIFY2(result.success, result.log.c_str());
    const KernelLookup lookup = findKernel(result, name.toStdString());
    if (lowered.isEmpty()) {
        QVERIFY(!lookup.found());
        QVERIFY(lookup.error.find("vector_add(float const*, float const*, float*, int)") !=
                std::string::npos);
        return;
    }
    QVERIFY2(lookup.found(), lookup.error.c_str());
    QCOMPARE(QString::fromStdString(lookup.kernel->loweredName), lowered);
}

void TestKernelLookup::overloadNeedsSignature()
{
    const CompileResult result = compile(kSource);
    for (const char *name : {"scale", "demo::scale"}) {
        const KernelLookup lookup = findKernel(result, name);
        QVERIFY(!lookup.found());
        QCOMPARE(QString::fromStdString(lookup.error),
                 QStringLiteral("`%1` names 2 kernels; name one by its signature or template "
                                "arguments: demo::scale(float*, int), demo::scale(double*, int)")
                     .arg(QString::fromUtf8(name)));
    }
}

void TestKernelLookup::missingNameListsKernels()
{
    const CompileResult result = compile(kSource);
    const KernelLookup lookup = findKernel(result, "vectoradd");
    QVERIFY(!lookup.found());
    QVERIFY(lookup.error.starts_with("the source has no kernel `vectoradd` (it has: "));
    QVERIFY(lookup.error.find("vector_add(float const*, float const*, float*, int)") !=
            std::string::npos);
    QVERIFY(lookup.error.find("plain_c") != std::string::npos);
}

void TestKernelLookup::onlyKernelWhenUnnamed()
{
    const CompileResult one = compile("__global__ void k(int *x) { x[0] = 1; }");
    QVERIFY(findKernel(one, "").found());
    const KernelLookup several = findKernel(compile(kSource), "");
    QVERIFY(!several.found());
    QVERIFY(several.error.starts_with("the source has 6 kernels; name the one to run: "));
}

void TestKernelLookup::templateInstantiationIsCompiled()
{
    // The project names `mul<double, 3>`, which nothing in the source instantiates: the name
    // becomes an NVRTC name expression, so the module has it.
    LaunchSpec launch;
    launch.kernel = "mul<double, 3>";
    CompileOptions options;
    QVERIFY(bindLaunchDefines(launch, options, {launch.kernel}).empty());
    QCOMPARE(options.nameExpressions, std::vector<std::string>{"mul<double, 3>"});
    // Binding twice adds nothing more.
    QVERIFY(bindLaunchDefines(launch, options, {"mul<double,3>"}).empty());
    QCOMPARE(options.nameExpressions.size(), std::size_t(1));
    const CompileResult result = compile(kSource, options.nameExpressions);
    QVERIFY2(result.success, result.log.c_str());
    const KernelLookup lookup = findKernel(result, launch.kernel);
    QVERIFY2(lookup.found(), lookup.error.c_str());
    QCOMPARE(lookup.kernel->loweredName, std::string("_Z3mulIdLi3EEvPT_i"));
    // Now two instantiations: the plain name is ambiguous and says which exist.
    const KernelLookup plain = findKernel(result, "mul");
    QVERIFY(!plain.found());
    QVERIFY(plain.error.find("mul<float, 2>(float*, int)") != std::string::npos);
    QVERIFY(plain.error.find("mul<double, 3>(double*, int)") != std::string::npos);

    // Template arguments that are launch defines (Kernel Launcher's convention) resolve too.
    const CompileResult defined =
        compile(kSource, {"mul<REAL, FACTOR>"}, {"REAL=double", "FACTOR=3"});
    QVERIFY2(defined.success, defined.log.c_str());
    const KernelLookup byDefines = findKernel(defined, "mul<REAL, FACTOR>");
    QVERIFY2(byDefines.found(), byDefines.error.c_str());
    QCOMPARE(byDefines.kernel->loweredName, std::string("_Z3mulIdLi3EEvPT_i"));
}

void TestKernelLookup::defineChangesLoweredNameNotLookup()
{
    // The failure users met: a -D define that changes a parameter type renames the kernel.
    const std::string source = "__global__ void sum_floats(float *out, VEC *in, int n)\n"
                               "{ if (n > 0) out[0] = 0.0f; (void)in; }\n";
    const CompileResult scalar = compile(source, {}, {"VEC=float"});
    const CompileResult vector = compile(source, {}, {"VEC=float4"});
    const KernelLookup a = findKernel(scalar, "sum_floats");
    const KernelLookup b = findKernel(vector, "sum_floats");
    QVERIFY(a.found() && b.found());
    QCOMPARE(a.kernel->loweredName, std::string("_Z10sum_floatsPfS_i"));
    QCOMPARE(b.kernel->loweredName, std::string("_Z10sum_floatsPfP6float4i"));
}

void TestKernelLookup::overloadSignatureReadsItsOwnDeclaration()
{
    const CompileResult result = compile(kSource);
    const KernelLookup lookup = findKernel(result, "scale(double*, int)");
    QVERIFY(lookup.found());
    const KernelSignature signature = parseKernelSignature(kSource, result.ptx, *lookup.kernel);
    QVERIFY2(signature.error.empty(), signature.error.c_str());
    QCOMPARE(signature.parameters.size(), std::size_t(2));
    QCOMPARE(signature.parameters[0].typeText, std::string("double *"));
}

void TestKernelLookup::preferredNameIsShortestUnique()
{
    const CompileResult result = compile(kSource);
    std::vector<std::string> names;
    for (const KernelInfo &kernel : result.kernels) {
        const std::string name = preferredName(result.kernels, kernel);
        QCOMPARE(findKernel(result, name).kernel, &kernel);
        names.push_back(name);
    }
    QVERIFY(std::find(names.begin(), names.end(), "vector_add") != names.end());
    QVERIFY(std::find(names.begin(), names.end(), "plain_c") != names.end());
    QVERIFY(std::find(names.begin(), names.end(), "mul") != names.end());
    QVERIFY(std::find(names.begin(), names.end(), "demo::scale(double*, int)") != names.end());
}

void TestKernelLookup::moduleVariablesFromPtx()
{
    const char *const kVariables = R"(
__constant__ float c_Kernel[17];
__device__ unsigned int d_count;
__device__ double d_table[4][8];
__global__ void use(float *out) { out[0] = c_Kernel[3] + d_count + d_table[1][2]; }
)";
    const CompileResult result = compile(kVariables);
    QVERIFY2(result.success, result.log.c_str());
    const std::vector<ModuleVariable> variables = moduleVariables(result.ptx, kVariables);
    QCOMPARE(variables.size(), std::size_t(3));
    QCOMPARE(variables[0].name, std::string("c_Kernel"));
    QVERIFY(variables[0].constant);
    QCOMPARE(variables[0].bytes, std::uint64_t(68));
    QCOMPARE(variables[1].name, std::string("d_count"));
    QVERIFY(!variables[1].constant);
    QCOMPARE(variables[1].bytes, std::uint64_t(4));
    QCOMPARE(variables[2].bytes, std::uint64_t(256));
    QCOMPARE(variables[0].type, std::string("float"));
    QCOMPARE(variables[1].type, std::string("unsigned int"));
    QCOMPARE(variables[2].type, std::string("double"));
    QCOMPARE(moduleVariableList(result.ptx),
             std::string("c_Kernel (__constant__, 68 bytes), d_count (__device__, 4 bytes), "
                         "d_table (__device__, 256 bytes)"));
}

void TestKernelLookup::declaredTypesOfVariables_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("type");
    QTest::newRow("constant array")
        << QStringLiteral("#define N 17\n__constant__ float c_k[N];\n") << QStringLiteral("float");
    QTest::newRow("qualifiers") << QStringLiteral("static __device__ volatile unsigned int c_k;")
                                << QStringLiteral("unsigned int");
    QTest::newRow("after a kernel")
        << QStringLiteral("__global__ void c_k2(int *x) { x[0] = 1; }\n__device__ double c_k[4];")
        << QStringLiteral("double");
    QTest::newRow("a function of that name is not it")
        << QStringLiteral("__device__ int c_k(int a) { return a; }") << QString();
    QTest::newRow("a host variable is not it") << QStringLiteral("float c_k[3];") << QString();
}

void TestKernelLookup::declaredTypesOfVariables()
{
    QFETCH(QString, source);
    QFETCH(QString, type);
    QCOMPARE(QString::fromStdString(declaredVariableType(source.toStdString(), "c_k")), type);
}

void TestKernelLookup::launchBoundsFromPtx()
{
    const CompileResult result =
        compile("__global__ void __launch_bounds__(128, 4) bounded(float *x) { x[0] = 1; }\n"
                "__global__ void free_kernel(float *x) { x[0] = 2; }\n");
    QVERIFY2(result.success, result.log.c_str());
    QCOMPARE(findKernel(result, "bounded").kernel->resources.maxThreadsPerBlock, 128);
    QCOMPARE(findKernel(result, "free_kernel").kernel->resources.maxThreadsPerBlock, 0);
}

void TestKernelLookup::templateNamedWithItsSignature()
{
    // What `cuwb check` prints for a template instantiation can be pasted back as the name.
    LaunchSpec launch;
    launch.kernel = "mul<double, 5>(double*, int)";
    CompileOptions options;
    QVERIFY(bindLaunchDefines(launch, options, {launch.kernel}).empty());
    QCOMPARE(options.nameExpressions, std::vector<std::string>{"mul<double, 5>"});
    const CompileResult result = compile(kSource, options.nameExpressions);
    const KernelLookup lookup = findKernel(result, launch.kernel);
    QVERIFY2(lookup.found(), lookup.error.c_str());
    QCOMPARE(lookup.kernel->loweredName, std::string("_Z3mulIdLi5EEvPT_i"));
}

void TestKernelLookup::plainNameOfATemplateSaysHow()
{
    const CompileResult result =
        compile("template <typename T> __global__ void fill(T *x) { x[0] = T(1); }\n");
    const KernelLookup lookup = findKernel(result, "fill");
    QVERIFY(!lookup.found());
    QCOMPARE(lookup.error, std::string("the source has no kernel `fill` (it has no __global__ "
                                       "kernel); if `fill` is a template, name an "
                                       "instantiation, such as fill<float>"));
}

void TestKernelLookup::wrongTemplateArgumentsNameTheKernel()
{
    const CompileResult result = compile(kSource, {"mul<float>"});
    QVERIFY(!result.success);
    QVERIFY(!result.diagnostics.empty());
    const Diagnostic &first = result.diagnostics.front();
    QVERIFY2(first.file.empty(), first.file.c_str());
    QVERIFY2(first.message.starts_with("the kernel name or name expression does not name an "
                                       "instantiation of a __global__ template (mul<float>): "),
             first.message.c_str());
}

CUWB_TEST_GUILESS_MAIN(TestKernelLookup)
} // namespace tst_kernellookup
} // namespace

#include "tst_kernellookup.moc"
