// The source scan: a file's host functions (for the note that names what a compile set aside)
// and its #include lines (to place every missing header on its line).
#include "compiler/sourcescan.h"

#include <QObject>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_sourcescan {

class TestSourceScan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void hostFunctions();
    void kernelsAndDeviceFunctionsAreNotHost();
    void includeLines();
    void kernelTemplates();
};

void TestSourceScan::hostFunctions()
{
    const std::string source = R"(#include <cstdio>
#define CHECK(x) do { if (!(x)) { fail(); } } while (0)
static void fail() { std::puts("failed"); }
namespace util {
inline int ceilDiv(int a, int b) { return (a + b - 1) / b; }
struct Timer { void start() {} };
}
extern "C" {
void c_entry(int n) { (void)n; }
}
template <typename T>
T largest(const T *v, int n) { T m = v[0]; for (int i = 1; i < n; ++i) if (v[i] > m) m = v[i]; return m; }
// int commented(void) { }
int main(int argc, char **argv)
{
    auto lambda = [](int x) { return x; };
    if (argc > 1) { return lambda(1); }
    return 0;
}
)";
    const std::vector<std::string> expected{"fail", "util::ceilDiv", "c_entry", "largest", "main"};
    QCOMPARE(hostFunctionNames(source), expected);
}

void TestSourceScan::kernelsAndDeviceFunctionsAreNotHost()
{
    const std::string source = R"(__device__ float twice(float x) { return 2 * x; }
__host__ __device__ inline float half(float x) { return x / 2; }
template <int B> __global__ void k(float *p) { if (threadIdx.x < B) { p[0] = twice(p[1]); } }
extern "C" __global__ void c(float *p) { for (int i = 0; i < 4; ++i) { p[i] = 0; } }
__global__ void __launch_bounds__(256) bounded(float *p) { p[0] = half(p[1]); }
)";
    QVERIFY(hostFunctionNames(source).empty());
}

void TestSourceScan::includeLines()
{
    const std::string source = "// #include \"commented.h\" is not read... \n"
                               "#include <cstdio>\n"
                               "  #  include \"local/util.cuh\" // spaced\n"
                               "#ifdef _WIN32\n"
                               "#include <windows.h>\n"
                               "#endif\n"
                               "#include MACRO_HEADER\n";
    const std::vector<IncludeLine> includes = cuwb::includeLines(source);
    QCOMPARE(includes.size(), std::size_t(3));
    QCOMPARE(includes[0].line, 2);
    QCOMPARE(includes[0].name, std::string("cstdio"));
    QVERIFY(includes[0].angled);
    QCOMPARE(includes[1].line, 3);
    QCOMPARE(includes[1].name, std::string("local/util.cuh"));
    QVERIFY(!includes[1].angled);
    QCOMPARE(includes[2].name, std::string("windows.h")); // the text, not the preprocessor
}

void TestSourceScan::kernelTemplates()
{
    const std::string source = R"(template <typename T>
__device__ T twice(T x) { return x + x; }
namespace demo {
template <int block_size, int elements_per_thread = 4, typename T = float>
__global__ void __launch_bounds__(block_size)
vector_add(int n, T *c, // the output
           const T *a, const T *b)
{
}
}
template <unsigned N> __global__ void tile(unsigned *x) {}
template __global__ void tile<32>(unsigned *);
template <typename> __global__ void unnamed(int *p) {}
)";
    const std::vector<KernelTemplate> templates = cuwb::kernelTemplates(source);
    QCOMPARE(templates.size(), std::size_t(3));
    QCOMPARE(templates[0].name, std::string("demo::vector_add"));
    QCOMPARE(templates[0].templateParameters,
             (std::vector<std::string>{"int block_size", "int elements_per_thread = 4",
                                       "typename T = float"}));
    QCOMPARE(templates[0].parameters, std::string("int n, T *c, const T *a, const T *b"));
    QCOMPARE(templates[0].line, 6);
    QCOMPARE(templates[0].placeholder(),
             std::string("demo::vector_add<block_size, elements_per_thread, T>"));
    // A template of an unsigned is offered with its parameter's name, not a type.
    QCOMPARE(templates[1].placeholder(), std::string("tile<N>"));
    QCOMPARE(templates[2].placeholder(), std::string("unnamed<?>"));
}

CUWB_TEST_GUILESS_MAIN(TestSourceScan)
} // namespace tst_sourcescan
} // namespace

#include "tst_sourcescan.moc"
