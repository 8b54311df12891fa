// LaunchSpec: defaults from a signature, resolution of every expression, scalar encoding and
// its range errors, copies, JSON round trips.
#include "compilertesthelpers.h"

#include "kernel/kernelsignature.h"
#include "launch/launchjson.h"
#include "launch/launchspec.h"

#include <QtTest>

#include <cstring>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_launchspec {

namespace {

KernelParameter pointer(const char *name, ScalarKind kind, bool isConst)
{
    KernelParameter p;
    p.name = name;
    p.typeText = std::string(isConst ? "const " : "") + ElementType{kind, 1}.name() + " *";
    p.isPointer = true;
    p.isConst = isConst;
    p.elementType = {kind, 1};
    p.sizeBytes = 8;
    return p;
}

KernelParameter scalar(const char *name, const char *typeText, ScalarKind kind, int lanes = 1)
{
    KernelParameter p;
    p.name = name;
    p.typeText = typeText;
    p.elementType = {kind, lanes};
    p.sizeBytes = p.elementType.sizeBytes();
    return p;
}

KernelSignature vectorAdd()
{
    KernelSignature signature;
    signature.kernelName = "vector_add";
    signature.parameters = {
        pointer("a", ScalarKind::Float32, true), pointer("b", ScalarKind::Float32, true),
        pointer("c", ScalarKind::Float32, false), scalar("n", "int", ScalarKind::Int32)};
    return signature;
}

std::vector<std::string> messages(const ResolvedLaunch &resolved)
{
    std::vector<std::string> result;
    for (const LaunchIssue &issue : resolved.issues)
        result.push_back(issue.field + ": " + issue.message);
    return result;
}

} // namespace

class TestLaunchSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void names();
    void defaults();
    void resolvesDefaults();
    void blockBeforeGrid();
    void countsMustBePositiveWholeNumbers();
    void scalarEncoding();
    void scalarRangeErrors_data();
    void scalarRangeErrors();
    void errorsKeepPositions();
    void initsAndCopies();
    void mismatchedArguments();
    void totalBytes();
    void jsonRoundTrip();
    void jsonErrors();
};

void TestLaunchSpec::names()
{
    QCOMPARE(std::string(roleName(BufferRole::InOut)), std::string("inout"));
    QCOMPARE(std::string(initKindName(InitKind::CopyOf)), std::string("copy"));
    QCOMPARE(std::string(referenceKindName(ReferenceKind::Expression)), std::string("expression"));
    QCOMPARE(std::string(toleranceKindName(ToleranceKind::Ulp)), std::string("ulp"));
}

void TestLaunchSpec::defaults()
{
    KernelSignature signature = vectorAdd();
    signature.parameters.push_back(scalar("alpha", "float", ScalarKind::Float32));
    signature.parameters.push_back(pointer("idx", ScalarKind::Int32, true));
    const LaunchSpec spec = defaultLaunchSpec(signature);
    QCOMPARE(spec.kernel, std::string("vector_add"));
    QCOMPARE(spec.variables.size(), std::size_t(1));
    QCOMPARE(spec.variables[0].first, std::string("N"));
    QCOMPARE(spec.variables[0].second, std::string("1 << 20"));
    QCOMPARE(spec.arguments.size(), std::size_t(6));
    QCOMPARE(spec.arguments[0].role, BufferRole::In);
    QCOMPARE(spec.arguments[0].init.kind, InitKind::Uniform);
    QVERIFY(spec.arguments[0].init.seed != spec.arguments[1].init.seed);
    QCOMPARE(spec.arguments[2].role, BufferRole::Out);
    QVERIFY(!spec.arguments[3].isBuffer);
    QCOMPARE(spec.arguments[3].value, std::string("N"));
    QCOMPARE(spec.arguments[4].value, std::string("1"));
    QCOMPARE(spec.arguments[5].init.kind, InitKind::Range);
    QCOMPARE(spec.grid[0], std::string("ceil(N / block.x)"));
    QCOMPARE(spec.block[0], std::string("256"));
}

void TestLaunchSpec::resolvesDefaults()
{
    const KernelSignature signature = vectorAdd();
    const ResolvedLaunch resolved = resolveLaunch(defaultLaunchSpec(signature), signature);
    QVERIFY2(resolved.ok(), resolved.issues.empty() ? "" : resolved.issues[0].message.c_str());
    QCOMPARE(resolved.grid, (std::array<std::uint64_t, 3>{4096, 1, 1}));
    QCOMPARE(resolved.block, (std::array<std::uint64_t, 3>{256, 1, 1}));
    QCOMPARE(resolved.buffers.size(), std::size_t(3));
    QCOMPARE(resolved.buffers[0].count, std::uint64_t(1) << 20);
    QCOMPARE(resolved.buffers[0].bytes, std::uint64_t(4) << 20);
    QCOMPARE(resolved.scalars.size(), std::size_t(1));
    QCOMPARE(resolved.parameterSlots, (std::vector<int>{0, 1, 2, -1}));
    std::int32_t n = 0;
    QCOMPARE(resolved.scalars[0].bytes.size(), std::size_t(4));
    std::memcpy(&n, resolved.scalars[0].bytes.data(), 4);
    QCOMPARE(n, 1 << 20);
    QCOMPARE(resolved.variables.at("grid.x"), 4096.0);
    QCOMPARE(resolved.variables.at("block.x"), 256.0);
    QCOMPARE(resolved.buffers[0].initA, 0.0);
    QCOMPARE(resolved.buffers[0].initB, 1.0);
}

void TestLaunchSpec::blockBeforeGrid()
{
    const KernelSignature signature = vectorAdd();
    LaunchSpec spec = defaultLaunchSpec(signature);
    spec.variables = {{"N", "1000"}};
    spec.block = {"128", "2", "1"};
    spec.grid = {"ceil(N / (block.x * block.y))", "1", "1"};
    spec.dynamicSharedBytes = "block.x * 4";
    const ResolvedLaunch resolved = resolveLaunch(spec, signature);
    QVERIFY(resolved.ok());
    QCOMPARE(resolved.grid[0], std::uint64_t(4));
    QCOMPARE(resolved.dynamicSharedBytes, std::uint64_t(512));
}

void TestLaunchSpec::countsMustBePositiveWholeNumbers()
{
    const KernelSignature signature = vectorAdd();
    LaunchSpec spec = defaultLaunchSpec(signature);
    spec.variables = {{"N", "0"}};
    spec.block = {"2.5", "1", "-1"};
    spec.dynamicSharedBytes = "-4";
    spec.arguments[1].count = "N + 1";
    const ResolvedLaunch resolved = resolveLaunch(spec, signature);
    const std::vector<std::string> expected{
        "block.x: is 2.5; it must be a whole number",
        "block.z: is -1; it must be at least 1",
        "dynamic shared memory: is -4; it must be a whole number of bytes, 0 or more",
        "argument a: count: is N = 0; it must be at least 1",
        "argument c: count: is N = 0; it must be at least 1",
    };
    QCOMPARE(messages(resolved), expected);
}

void TestLaunchSpec::scalarEncoding()
{
    std::vector<unsigned char> bytes;
    QVERIFY(!encodeScalar({ScalarKind::Float16, 1}, 1.0, bytes));
    QCOMPARE(bytes, (std::vector<unsigned char>{0x00, 0x3c}));
    QVERIFY(!encodeScalar({ScalarKind::Float16, 1}, -2.0, bytes));
    QCOMPARE(bytes, (std::vector<unsigned char>{0x00, 0xc0}));
    QVERIFY(!encodeScalar({ScalarKind::Float16, 1}, 65504.0, bytes));
    QCOMPARE(bytes, (std::vector<unsigned char>{0xff, 0x7b}));
    QVERIFY(!encodeScalar({ScalarKind::Float16, 1}, 5.960464477539063e-08,
                          bytes)); // smallest subnormal
    QCOMPARE(bytes, (std::vector<unsigned char>{0x01, 0x00}));
    QVERIFY(!encodeScalar({ScalarKind::BFloat16, 1}, 1.0, bytes));
    QCOMPARE(bytes, (std::vector<unsigned char>{0x80, 0x3f}));
    QVERIFY(!encodeScalar({ScalarKind::BFloat16, 1}, 3.140625, bytes));
    QCOMPARE(bytes, (std::vector<unsigned char>{0x49, 0x40}));
    QVERIFY(!encodeScalar({ScalarKind::Bool, 1}, 1.0, bytes));
    QCOMPARE(bytes, (std::vector<unsigned char>{1}));
    QVERIFY(!encodeScalar({ScalarKind::Int16, 1}, -2.0, bytes));
    QCOMPARE(bytes, (std::vector<unsigned char>{0xfe, 0xff}));
    QVERIFY(!encodeScalar({ScalarKind::UInt64, 1}, 4294967296.0, bytes));
    QCOMPARE(bytes, (std::vector<unsigned char>{0, 0, 0, 0, 1, 0, 0, 0}));
    QVERIFY(!encodeScalar({ScalarKind::Float32, 2}, 0.5, bytes)); // every component
    float pair[2] = {0, 0};
    QCOMPARE(bytes.size(), sizeof pair);
    std::memcpy(pair, bytes.data(), sizeof pair);
    QCOMPARE(pair[0], 0.5f);
    QCOMPARE(pair[1], 0.5f);
    QVERIFY(!encodeScalar({ScalarKind::Float64, 1}, 0.1, bytes));
    double d = 0;
    std::memcpy(&d, bytes.data(), 8);
    QCOMPARE(d, 0.1);
}

void TestLaunchSpec::scalarRangeErrors_data()
{
    QTest::addColumn<QString>("typeText");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    auto row = [](const char *name, const char *type, ScalarKind kind, const char *value,
                  const char *message) {
        QTest::newRow(name) << QString::fromUtf8(type) << int(kind) << QString::fromUtf8(value)
                            << QString::fromUtf8(message);
    };
    row("int too large", "int", ScalarKind::Int32, "5e9",
        "argument x: x = 5e9 does not fit in int (max 2147483647)");
    row("int expression", "int", ScalarKind::Int32, "N * 4096",
        "argument x: x = N * 4096 = 4294967296 does not fit in int (max 2147483647)");
    row("unsigned negative", "unsigned int", ScalarKind::UInt32, "-1",
        "argument x: x = -1 does not fit in unsigned int (min 0)");
    row("char", "char", ScalarKind::Int8, "200",
        "argument x: x = 200 does not fit in char (max 127)");
    row("int64", "long long", ScalarKind::Int64, "2^63",
        "argument x: x = 2^63 = 9223372036854775808 does not fit in long long (max "
        "9223372036854775807)");
    row("fraction", "int", ScalarKind::Int32, "2.5",
        "argument x: x = 2.5 is not a whole number, which int needs");
    row("bool", "bool", ScalarKind::Bool, "2", "argument x: x = 2 is not a bool (use 0 or 1)");
    row("half", "half", ScalarKind::Float16, "70000",
        "argument x: x = 70000 does not fit in half (max 65504)");
    row("float", "float", ScalarKind::Float32, "1e39",
        "argument x: x = 1e39 does not fit in float (max 3.40282347e+38)");
}

void TestLaunchSpec::scalarRangeErrors()
{
    QFETCH(QString, typeText);
    QFETCH(int, kind);
    QFETCH(QString, value);
    QFETCH(QString, message);
    KernelSignature signature;
    signature.parameters = {scalar("x", typeText.toUtf8().constData(), ScalarKind(kind))};
    LaunchSpec spec = defaultLaunchSpec(signature);
    spec.variables = {{"N", "1 << 20"}};
    spec.arguments[0].value = value.toStdString();
    const ResolvedLaunch resolved = resolveLaunch(spec, signature);
    QCOMPARE(messages(resolved), std::vector<std::string>{message.toStdString()});
}

void TestLaunchSpec::errorsKeepPositions()
{
    const KernelSignature signature = vectorAdd();
    LaunchSpec spec = defaultLaunchSpec(signature);
    spec.grid = {"ceil(M / block.x)", "1", "1"};
    spec.arguments[0].count = "N * 2 +";
    ResolvedLaunch resolved = resolveLaunch(spec, signature);
    QCOMPARE(resolved.issues.size(), std::size_t(2));
    QCOMPARE(resolved.issues[0].field, std::string("grid.x"));
    QCOMPARE(resolved.issues[0].message, std::string("unknown variable 'M'"));
    QCOMPARE(resolved.issues[0].position, 5);
    QCOMPARE(resolved.issues[1].field, std::string("argument a: count"));
    QCOMPARE(resolved.issues[1].position, 7);

    spec = defaultLaunchSpec(signature);
    spec.variables = {{"N", "1 << 20"}, {"M", "N * K"}};
    resolved = resolveLaunch(spec, signature);
    QCOMPARE(resolved.issues.size(), std::size_t(1));
    QCOMPARE(resolved.issues[0].field, std::string("variables: M"));
    QCOMPARE(resolved.issues[0].message, std::string("unknown variable 'K'"));
    QCOMPARE(resolved.issues[0].position, 4);
}

void TestLaunchSpec::initsAndCopies()
{
    const KernelSignature signature = vectorAdd();
    LaunchSpec spec = defaultLaunchSpec(signature);
    spec.arguments[0].init.kind = InitKind::Constant;
    spec.arguments[0].init.value = "N / 2";
    spec.arguments[1].init.kind = InitKind::CopyOf;
    spec.arguments[1].init.copyOf = "a";
    spec.arguments[2].init.kind = InitKind::Normal;
    spec.arguments[2].init.mean = "1";
    spec.arguments[2].init.stddev = "0.5";
    ResolvedLaunch resolved = resolveLaunch(spec, signature);
    QVERIFY(resolved.ok());
    QCOMPARE(resolved.buffers[0].initA, double(1 << 19));
    QCOMPARE(resolved.buffers[1].copyOfIndex, 0);
    QCOMPARE(resolved.buffers[2].initA, 1.0);
    QCOMPARE(resolved.buffers[2].initB, 0.5);

    spec.arguments[1].init.copyOf = "zz";
    spec.arguments[2].init.kind = InitKind::Uniform;
    spec.arguments[2].init.low = "1";
    spec.arguments[2].init.high = "1";
    spec.arguments[0].init.kind = InitKind::File;
    spec.arguments[0].init.file = "";
    resolved = resolveLaunch(spec, signature);
    const std::vector<std::string> expected{
        "argument a: init: no file is named to read the initial contents from",
        "argument c: init: uniform random needs low < high (low is 1, high 1)",
        "argument b: init: there is no buffer named 'zz' to copy",
    };
    QCOMPARE(messages(resolved), expected);

    spec = defaultLaunchSpec(signature);
    spec.arguments[1].init.kind = InitKind::CopyOf;
    spec.arguments[1].init.copyOf = "a";
    spec.arguments[1].count = "N / 2";
    resolved = resolveLaunch(spec, signature);
    QCOMPARE(messages(resolved),
             std::vector<std::string>{"argument b: init: 'a' has 4194304 bytes and this buffer "
                                      "2097152; a copy needs the same size"});
}

void TestLaunchSpec::mismatchedArguments()
{
    KernelSignature signature = vectorAdd();
    LaunchSpec spec = defaultLaunchSpec(signature);
    spec.arguments.erase(spec.arguments.begin()); // no a
    spec.arguments[2].isBuffer = true;            // n as a buffer
    ArgumentSpec extra;
    extra.parameter = "zz";
    spec.arguments.push_back(extra);
    signature.parameters[1].supported = false;
    signature.parameters[1].unsupportedReason = "PTX says 4 bytes, the declaration 8";
    const ResolvedLaunch resolved = resolveLaunch(spec, signature);
    const std::vector<std::string> expected{
        "argument a: no argument is given for this pointer parameter",
        "argument b: PTX says 4 bytes, the declaration 8",
        "argument n: the parameter is a int32_t value, not a pointer; it needs a value, not a "
        "buffer",
        "argument zz: the kernel has no parameter named 'zz'",
    };
    QCOMPARE(messages(resolved), expected);

    KernelSignature broken;
    broken.error = "the declaration of kernel 'k' was not found in the source";
    QCOMPARE(messages(resolveLaunch(spec, broken)),
             std::vector<std::string>{"kernel: " + broken.error});
}

void TestLaunchSpec::totalBytes()
{
    ResolvedLaunch resolved;
    resolved.buffers.resize(2);
    resolved.buffers[0].bytes = 100;
    resolved.buffers[1].bytes = 28;
    QCOMPARE(resolved.totalBufferBytes(), std::uint64_t(128));
    resolved.buffers[1].bytes = std::numeric_limits<std::uint64_t>::max();
    QCOMPARE(resolved.totalBufferBytes(), std::numeric_limits<std::uint64_t>::max());

    const KernelSignature signature = vectorAdd();
    LaunchSpec spec = defaultLaunchSpec(signature);
    spec.arguments[0].count = "2^62";
    const ResolvedLaunch overflow = resolveLaunch(spec, signature);
    QCOMPARE(messages(overflow),
             std::vector<std::string>{"argument a: count: 4611686018427387904 elements of 4 bytes "
                                      "overflow a 64-bit byte count"});
}

void TestLaunchSpec::jsonRoundTrip()
{
    KernelSignature signature = vectorAdd();
    LaunchSpec spec = defaultLaunchSpec(signature);
    spec.variables.emplace_back("M", "N / 4");
    spec.arguments[2].role = BufferRole::InOut;
    spec.arguments[2].init.kind = InitKind::File;
    spec.arguments[2].init.file = "c.npy";
    spec.arguments[1].elementType = {ScalarKind::Float32, 4};
    spec.dynamicSharedBytes = "1024";
    spec.deadlineSeconds = 2.5;
    const nlohmann::json json = spec;
    QCOMPARE(json["arguments"][1]["elementType"], nlohmann::json("float4"));
    QCOMPARE(json["variables"][1]["value"], nlohmann::json("N / 4"));
    QCOMPARE(json.get<LaunchSpec>(), spec);

    VerificationSpec verification;
    verification.kind = ReferenceKind::Expression;
    verification.output = "c";
    verification.expression = "a[i] + b[i]";
    verification.tolerance = ToleranceKind::Ulp;
    verification.toleranceValue = 4;
    verification.mask = "i % 32 == 0";
    const nlohmann::json verificationJson = verification;
    QCOMPARE(verificationJson["mask"], nlohmann::json("i % 32 == 0"));
    QCOMPARE(verificationJson.get<VerificationSpec>(), verification);
    // A mask selects elements to compare; a reduction sums the first `count` of them.
    try {
        nlohmann::json::parse(R"({"kind": "aggregate", "output": "p", "reduce": "sum",
                                  "expected": "1", "mask": "i < 4"})")
            .get<VerificationSpec>();
        QFAIL("a mask on a reduction was accepted");
    } catch (const std::exception &error) {
        QVERIFY2(std::string(error.what()).find("mask: applies to element-wise checks") !=
                     std::string::npos,
                 error.what());
    }

    // Missing fields keep defaults; numbers are accepted for expressions.
    const LaunchSpec sparse =
        nlohmann::json::parse(R"({"kernel": "k", "block": [128, 2]})").get<LaunchSpec>();
    QCOMPARE(sparse.kernel, std::string("k"));
    QCOMPARE(sparse.block, (std::array<std::string, 3>{"128", "2", "1"}));
    QCOMPARE(sparse.grid, LaunchSpec().grid);
    QCOMPARE(sparse.deadlineSeconds, 10.0);
}

void TestLaunchSpec::jsonErrors()
{
    const std::pair<const char *, const char *> cases[] = {
        {R"({"block": "256"})",
         "block: expected an array of 1 to 3 expressions (x, y, z), found string"},
        {R"({"block": [256, 1, 1, 1]})",
         "block: expected an array of 1 to 3 expressions (x, y, z), found 4 elements"},
        {R"({"arguments": [{"parameter": "a", "role": "output"}]})",
         "arguments[0].role: expected one of in, out, inout, found 'output'"},
        {R"({"arguments": [{"parameter": "a", "elementType": "float5"}]})",
         "arguments[0].elementType: unknown element type 'float5'"},
        {R"({"arguments": [{"parameter": "a", "init": {"kind": "random"}}]})",
         "arguments[0].init.kind: expected one of zeros, constant, range, uniform, normal, file, "
         "copy, found 'random'"},
        {R"({"variables": [{"name": "N", "value": true}]})",
         "variables[0].value: expected an expression (a string or a number), found boolean"},
        {R"({"kernel": 3})", "kernel: expected a string, found number"},
        {R"({"deadlineSeconds": -1})", "deadlineSeconds: must be more than 0, found -1"},
    };
    for (const auto &[text, message] : cases) {
        try {
            (void)nlohmann::json::parse(text).get<LaunchSpec>();
            QFAIL(text);
        } catch (const nlohmann::json::exception &error) {
            QCOMPARE(plainJsonError(error), std::string(message));
        }
    }
}

CUWB_TEST_GUILESS_MAIN(TestLaunchSpec)
} // namespace tst_launchspec
} // namespace

#include "tst_launchspec.moc"
