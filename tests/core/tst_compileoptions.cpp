// CompileOptions: validation messages a student can act on, the NVRTC argument list, the
// cache key text and the JSON form used by project files.
#include "compilertesthelpers.h"

#include "compiler/compilejson.h"
#include "compiler/compileoptions.h"
#include "cuda/nvrtcinfo.h"

#include <QDir>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_compileoptions {

class TestCompileOptions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nvrtcInfo();
    void defaultsAreValid();
    void unsupportedArchitecture();
    void archSpecificTargets();
    void ranges();
    void cppStandard();
    void defines();
    void includeDirs();
    void severalProblemsAtOnce();
    void argumentList();
    void debugArgumentsDropOptimisationAndLineInfo();
    void canonicalText();
    void jsonRoundTrip();
    void jsonToleratesMissingFields();
    void nvccArgumentList();
    void compilerAndFlags_data();
    void compilerAndFlags();
    void jsonWritesCompilerAndFlagsOnlyWhenSet();
};

namespace {
bool contains(const std::vector<std::string> &list, const std::string &item)
{
    return std::find(list.begin(), list.end(), item) != list.end();
}
} // namespace

void TestCompileOptions::nvrtcInfo()
{
    QVERIFY(nvrtcVersion().starts_with("13."));
    const auto &archs = nvrtcSupportedArchs();
    QVERIFY(archs.size() >= 5);
    QVERIFY(contains(archs, "sm_80"));
    QVERIFY(contains(archs, "sm_90"));
    QVERIFY(!contains(archs, "sm_70")); // dropped in CUDA 13
    for (const std::string &arch : archs)
        QVERIFY(arch.starts_with("sm_"));
    QVERIFY(QDir(QString::fromStdString(cudaIncludeDir())).exists(QStringLiteral("cuda_fp16.h")));
}

void TestCompileOptions::defaultsAreValid()
{
    const CompileOptions options;
    QCOMPARE(options.arch, std::string("sm_90"));
    QVERIFY(options.lineInfo);
    QVERIFY(options.validate().empty());
}

void TestCompileOptions::unsupportedArchitecture()
{
    CompileOptions options;
    options.arch = "sm_12";
    const auto problems = options.validate();
    QCOMPARE(problems.size(), std::size_t(1));
    const std::string expected = "sm_12 is not supported by NVRTC " + nvrtcVersion() +
                                 "; supported: " + nvrtcSupportedArchs().front() + " … " +
                                 nvrtcSupportedArchs().back();
    QCOMPARE(problems[0], expected);
    QVERIFY(problems[0].find("sm_75") != std::string::npos);

    for (const char *bad : {"", "sm_", "sm_70", "compute_90", "banana", "sm_90x", "sm_75a"}) {
        options.arch = bad;
        QVERIFY2(options.validate().size() == 1, bad);
    }
}

void TestCompileOptions::archSpecificTargets()
{
    CompileOptions options;
    for (const char *good : {"sm_75", "sm_80", "sm_90a", "sm_100a", "sm_100f", "sm_120"}) {
        options.arch = good;
        QVERIFY2(options.validate().empty(), good);
    }
    options.arch = "sm_80f"; // family targets start with Blackwell
    QCOMPARE(options.validate().size(), std::size_t(1));
}

void TestCompileOptions::ranges()
{
    CompileOptions options;
    for (int level : {0, 1, 2, 3}) {
        options.optLevel = level;
        QVERIFY(options.validate().empty());
    }
    options.optLevel = 4;
    QCOMPARE(options.validate(),
             std::vector<std::string>{"optimisation level 4 is out of range; use 0 to 3"});
    options.optLevel = -1;
    QCOMPARE(options.validate().size(), std::size_t(1));
    options.optLevel = 3;

    for (int registers : {0, 16, 64, 255}) {
        options.maxRegisters = registers;
        QVERIFY(options.validate().empty());
    }
    options.maxRegisters = 8;
    QCOMPARE(options.validate(),
             std::vector<std::string>{
                 "maximum registers 8 is out of range; use 0 (no limit) or 16 to 255"});
    options.maxRegisters = 256;
    QCOMPARE(options.validate().size(), std::size_t(1));
    options.maxRegisters = -5;
    QCOMPARE(options.validate().size(), std::size_t(1));
}

void TestCompileOptions::cppStandard()
{
    CompileOptions options;
    for (const std::string &standard : supportedCppStandards()) {
        options.cppStandard = standard;
        QVERIFY(options.validate().empty());
    }
    QVERIFY(contains(supportedCppStandards(), "c++20"));
    options.cppStandard = "c++23";
    const auto problems = options.validate();
    QCOMPARE(problems.size(), std::size_t(1));
    QVERIFY(problems[0].starts_with("C++ standard \"c++23\" is not supported"));
    QVERIFY(problems[0].find("c++17") != std::string::npos);
}

void TestCompileOptions::defines()
{
    CompileOptions options;
    options.defines = {"N", "BLOCK=256", "_private=1", "EMPTY=", "EXPR=(1+2)"};
    QVERIFY(options.validate().empty());
    for (const char *bad : {"", "=1", "1N", "A B", "A-B=1", "f(x)=x"}) {
        options.defines = {bad};
        const auto problems = options.validate();
        QVERIFY2(problems.size() == 1, bad);
        QVERIFY(problems[0].find("NAME or NAME=VALUE") != std::string::npos);
    }
}

void TestCompileOptions::includeDirs()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    CompileOptions options;
    options.includeDirs = {dir.path().toStdString()};
    QVERIFY(options.validate().empty());
    options.includeDirs = {dir.filePath(QStringLiteral("nope")).toStdString()};
    const auto problems = options.validate();
    QCOMPARE(problems.size(), std::size_t(1));
    QCOMPARE(problems[0], "include folder \"" + options.includeDirs[0] + "\" does not exist");
}

void TestCompileOptions::severalProblemsAtOnce()
{
    CompileOptions options;
    options.arch = "sm_12";
    options.optLevel = 9;
    options.maxRegisters = 1;
    options.cppStandard = "gnu++17";
    options.defines = {"9X"};
    options.includeDirs = {"/definitely/not/here"};
    options.nameExpressions = {" "};
    QCOMPARE(options.validate().size(), std::size_t(7));
}

void TestCompileOptions::argumentList()
{
    QTemporaryDir dir;
    CompileOptions options;
    options.arch = "sm_80";
    options.optLevel = 2;
    options.fastMath = true;
    options.cppStandard = "c++20";
    options.maxRegisters = 64;
    options.defines = {"N=4", "FAST"};
    options.includeDirs = {dir.path().toStdString()};
    const std::vector<std::string> arguments = options.toNvrtcArguments();
    const std::string include = cudaIncludeDir();
    const std::vector<std::string> expected{
        "--gpu-architecture=sm_80",
        "-lineinfo",
        "--use_fast_math",
        "-std=c++20",
        "--maxrregcount=64",
        "-DN=4",
        "-DFAST",
        "-I" + dir.path().toStdString(),
        "-I" + include,
        "-I" + include + "/cccl",
        "--ptxas-options=-v",
        "--no-cache",
        "--ptxas-options=-O2",
    };
    QCOMPARE(arguments, expected);

    const std::vector<std::string> defaults = CompileOptions().toNvrtcArguments();
    QVERIFY(contains(defaults, "--gpu-architecture=sm_90"));
    QVERIFY(contains(defaults, "--ptxas-options=-O3"));
    QVERIFY(!contains(defaults, "--use_fast_math"));
    QVERIFY(std::none_of(defaults.begin(), defaults.end(),
                         [](const std::string &a) { return a.starts_with("--maxrregcount"); }));
}

void TestCompileOptions::debugArgumentsDropOptimisationAndLineInfo()
{
    // ptxas refuses "-G" with "-O3" ("Optimized debugging not supported") and warns about
    // -lineinfo beside -G.
    CompileOptions options;
    options.deviceDebug = true;
    const auto arguments = options.toNvrtcArguments();
    QVERIFY(contains(arguments, "-G"));
    QVERIFY(!contains(arguments, "-lineinfo"));
    QVERIFY(std::none_of(arguments.begin(), arguments.end(),
                         [](const std::string &a) { return a.starts_with("--ptxas-options=-O"); }));
    options.deviceDebug = false;
    options.lineInfo = false;
    QVERIFY(!contains(options.toNvrtcArguments(), "-lineinfo"));
}

void TestCompileOptions::canonicalText()
{
    CompileOptions a;
    CompileOptions b;
    QCOMPARE(a.canonicalText(), b.canonicalText());
    b.defines = {"X=1"};
    QVERIFY(a.canonicalText() != b.canonicalText());
    // Fields cannot imitate each other: one define with a newline is not two defines.
    CompileOptions one;
    one.defines = {"A\nD=1:B"};
    CompileOptions two;
    two.defines = {"A", "B"};
    QVERIFY(one.canonicalText() != two.canonicalText());
    b = a;
    b.nameExpressions = {"scale<float>"};
    QVERIFY(a.canonicalText() != b.canonicalText());
    b = a;
    b.optLevel = 1;
    QVERIFY(a.canonicalText() != b.canonicalText());
}

void TestCompileOptions::jsonRoundTrip()
{
    CompileOptions options;
    options.arch = "sm_80";
    options.optLevel = 1;
    options.deviceDebug = true;
    options.lineInfo = false;
    options.fastMath = true;
    options.cppStandard = "c++14";
    options.maxRegisters = 32;
    options.defines = {"A=1"};
    options.includeDirs = {"/tmp"};
    options.nameExpressions = {"scale<float>"};
    const nlohmann::json json = options;
    QCOMPARE(json.at("arch").get<std::string>(), std::string("sm_80"));
    QCOMPARE(json.at("maxRegisters").get<int>(), 32);
    QCOMPARE(json.get<CompileOptions>(), options);
    QCOMPARE(nlohmann::json::parse(json.dump()).get<CompileOptions>(), options);
}

void TestCompileOptions::jsonToleratesMissingFields()
{
    const auto options =
        nlohmann::json::parse(R"({"arch": "sm_75", "defines": ["N=3"]})").get<CompileOptions>();
    QCOMPARE(options.arch, std::string("sm_75"));
    QCOMPARE(options.defines, std::vector<std::string>{"N=3"});
    QCOMPARE(options.optLevel, 3);
    QVERIFY(options.lineInfo);
    QCOMPARE(options.cppStandard, std::string("c++17"));
    QCOMPARE(nlohmann::json::object().get<CompileOptions>(), CompileOptions());
    bool threw = false;
    try {
        (void)nlohmann::json::parse(R"({"optLevel": "high"})").get<CompileOptions>();
    } catch (const nlohmann::json::exception &) {
        threw = true;
    }
    QVERIFY(threw);
}

// What a user's `nvcc -cubin` of the same source runs; -O3 is nvcc's device default.
void TestCompileOptions::nvccArgumentList()
{
    CompileOptions options;
    options.arch = "sm_80";
    options.optLevel = 2;
    options.fastMath = true;
    options.maxRegisters = 64;
    options.defines = {"N=4"};
    options.includeDirs = {"/tmp"};
    options.flags = {"-ftz=true"};
    const std::vector<std::string> expected{
        "-cubin", "-arch=sm_80", "-lineinfo",   "--use_fast_math", "-std=c++17", "-maxrregcount=64",
        "-DN=4",  "-I/tmp",      "-Xptxas=-O2", "-Xptxas=-v",      "-ftz=true"};
    QCOMPARE(options.toNvccArguments(), expected);
    const std::vector<std::string> defaults = CompileOptions().toNvccArguments();
    QCOMPARE(defaults, (std::vector<std::string>{"-cubin", "-arch=sm_90", "-lineinfo", "-std=c++17",
                                                 "-Xptxas=-v"}));
    options = CompileOptions();
    options.deviceDebug = true;
    options.optLevel = 1;
    const std::vector<std::string> debug = options.toNvccArguments();
    QVERIFY(contains(debug, "-G"));
    QVERIFY(!contains(debug, "-lineinfo"));
    QVERIFY(!contains(debug, "-Xptxas=-O1"));
}

void TestCompileOptions::compilerAndFlags_data()
{
    QTest::addColumn<QString>("compiler");
    QTest::addColumn<QString>("flag");
    QTest::addColumn<QString>("problem"); // a part of the message; empty: accepted
    QTest::newRow("ftz") << "auto"
                         << "-ftz=true"
                         << "";
    QTest::newRow("ftz, two dashes") << "nvcc"
                                     << "--ftz=false"
                                     << "";
    QTest::newRow("ftz without value") << "auto"
                                       << "-ftz"
                                       << "needs a value";
    QTest::newRow("ftz, bad value") << "auto"
                                    << "-ftz=yes"
                                    << "true or false";
    QTest::newRow("ptxas list") << "nvrtc"
                                << "--ptxas-options=-O1,-dlcm=cg"
                                << "";
    QTest::newRow("Xptxas") << "nvcc"
                            << "-Xptxas=--warn-on-spills"
                            << "";
    QTest::newRow("ptxas output file") << "nvcc"
                                       << "-Xptxas=-o,/tmp/x"
                                       << "names a file";
    QTest::newRow("ptxas not an option") << "nvcc"
                                         << "-Xptxas=O3"
                                         << "not a ptxas option";
    QTest::newRow("diag-suppress") << "auto"
                                   << "--diag-suppress=177,550"
                                   << "";
    QTest::newRow("diag list injection") << "auto"
                                         << "--diag-suppress=1;rm"
                                         << "comma-separated";
    QTest::newRow("undefine") << "auto"
                              << "-UNDEBUG"
                              << "";
    QTest::newRow("undefine without name") << "auto"
                                           << "-U"
                                           << "";
    QTest::newRow("relaxed constexpr, nvcc") << "nvcc"
                                             << "--expt-relaxed-constexpr"
                                             << "";
    QTest::newRow("relaxed constexpr, NVRTC") << "nvrtc"
                                              << "--expt-relaxed-constexpr"
                                              << "not an option of NVRTC";
    QTest::newRow("default-device, nvcc") << "nvcc"
                                          << "-default-device"
                                          << "not an option of nvcc";
    QTest::newRow("define") << "auto"
                            << "-DX=1"
                            << "\"defines\"";
    QTest::newRow("include folder") << "auto"
                                    << "-I/usr/include"
                                    << "\"includeDirs\"";
    QTest::newRow("architecture") << "auto"
                                  << "-arch=sm_80"
                                  << "\"arch\"";
    QTest::newRow("debug") << "auto"
                           << "-G"
                           << "\"deviceDebug\"";
    QTest::newRow("host compiler") << "nvcc"
                                   << "-Xcompiler=-fplugin=evil.so"
                                   << "runs another";
    QTest::newRow("ccbin") << "nvcc"
                           << "-ccbin=/bin/sh"
                           << "runs another";
    QTest::newRow("pre-include") << "auto"
                                 << "-include=/etc/passwd"
                                 << "names files";
    QTest::newRow("output") << "auto"
                            << "-o"
                            << "names files";
    QTest::newRow("space") << "auto"
                           << "-ftz true"
                           << "holds a space";
    QTest::newRow("not an option") << "auto"
                                   << "ftz=true"
                                   << "not an option";
    QTest::newRow("unknown") << "auto"
                             << "--make-it-fast"
                             << "not an option the workbench knows";
}

void TestCompileOptions::compilerAndFlags()
{
    QFETCH(QString, compiler);
    QFETCH(QString, flag);
    QFETCH(QString, problem);
    CompileOptions options;
    options.compiler = compiler.toStdString();
    options.flags = {flag.toStdString()};
    const std::vector<std::string> problems = options.validate();
    if (problem.isEmpty() && flag != QLatin1String("-U")) {
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems[0].c_str());
        return;
    }
    QCOMPARE(problems.size(), std::size_t(1));
    QVERIFY2(problems[0].find(problem.isEmpty() ? std::string("-U") : problem.toStdString()) !=
                 std::string::npos,
             problems[0].c_str());
}

void TestCompileOptions::jsonWritesCompilerAndFlagsOnlyWhenSet()
{
    // A project saved again stays as it was: the defaults are not written.
    const nlohmann::json plain = CompileOptions();
    QVERIFY(!plain.contains("compiler"));
    QVERIFY(!plain.contains("flags"));
    CompileOptions options;
    options.compiler = "nvrtc";
    options.flags = {"-ftz=true"};
    const nlohmann::json json = options;
    QCOMPARE(json.at("compiler").get<std::string>(), std::string("nvrtc"));
    QCOMPARE(json.get<CompileOptions>(), options);
    QVERIFY(options.canonicalText() != CompileOptions().canonicalText());
    options.compiler = "gcc";
    QVERIFY(options.validate().front().find("not one of auto, nvcc, nvrtc") != std::string::npos);
}

CUWB_TEST_GUILESS_MAIN(TestCompileOptions)
} // namespace tst_compileoptions
} // namespace

#include "tst_compileoptions.moc"
