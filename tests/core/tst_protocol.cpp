// The worker protocol's encoding: every message built by the helpers survives a trip through
// one line of text, doubles that are not finite included, and malformed messages are rejected
// with an exception rather than read as something else.
#include "measure/measurejson.h"
#include "run/runresult.h"
#include "worker/protocol.h"

#include <QtTest>

#include <cmath>
#include <limits>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_protocol {
using nlohmann::json;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// What the other side reads: the message as one line of text, parsed again.
json throughLine(const json &message)
{
    const std::string line = encodeLine(message);
    if (line.empty() || line.back() != '\n' || line.find('\n') != line.size() - 1) {
        qFatal("encodeLine did not produce exactly one line");
    }
    return json::parse(line);
}

RunRequest sampleRequest()
{
    RunRequest request;
    request.source =
        "__global__ void add(const float *a, float *c, int n)\n{\n    // \xc3\xa9t\xc3\xa9\n}\n";
    request.fileName = "add.cu";
    request.options.defines = {"BLOCK=256"};
    request.options.fastMath = true;
    request.launch.kernel = "_Z3addPKfPfi";
    request.launch.variables = {{"N", "1 << 20"}, {"M", "N / 2"}};
    ArgumentSpec a;
    a.parameter = "a";
    a.elementType = ElementType{ScalarKind::Float32, 1};
    a.count = "N";
    a.role = BufferRole::In;
    a.init.kind = InitKind::Uniform;
    a.init.low = "-1";
    a.init.high = "1";
    a.init.seed = 42;
    ArgumentSpec c;
    c.parameter = "c";
    c.elementType = ElementType{ScalarKind::Float32, 1};
    c.role = BufferRole::Out;
    ArgumentSpec n;
    n.parameter = "n";
    n.isBuffer = false;
    n.elementType = ElementType{ScalarKind::Int32, 1};
    n.value = "N";
    request.launch.arguments = {a, c, n};
    request.launch.block = {"128", "1", "1"};
    request.launch.deadlineSeconds = 2.5;
    request.verification.checks.assign(1, VerificationSpec{});
    request.verification.checks[0].kind = ReferenceKind::Expression;
    request.verification.checks[0].output = "c";
    request.verification.checks[0].expression = "a[i] * 2";
    request.verification.checks[0].tolerance = ToleranceKind::Ulp;
    request.verification.checks[0].toleranceValue = 4;
    return request;
}

RunResult sampleResult()
{
    RunResult result;
    result.status = RunStatus::Succeeded;
    result.message = "ok";
    result.kernelTimeMs = 0.0123;
    result.wallTimeMs = 512.25;
    result.device = "NVIDIA H200 (sm_90)";
    BufferReport d;
    d.parameter = "d";
    d.count = 16777216;
    d.bytes = 67108864;
    d.handle = "run3/d";
    GuardViolation after;
    after.before = false;
    after.elements = 24;
    after.firstIndex = 16777216;
    after.message = "wrote 24 elements past the end of `d`, first at index 16777216";
    GuardViolation before;
    before.before = true;
    before.elements = 1;
    before.firstIndex = -1;
    before.message = "wrote 1 element before the start of `d`, at index -1";
    d.guardViolations = {after, before};
    d.unwritten = 3;
    d.firstUnwritten = 17;
    d.stats.valid = true;
    d.stats.min = -kInf;
    d.stats.max = kInf;
    d.stats.mean = kNan;
    d.stats.nanCount = 5;
    d.stats.infCount = 2;
    result.buffers.push_back(d);
    BufferReport filter;
    filter.parameter = "d_filter";
    filter.count = 9;
    filter.bytes = 36;
    filter.stats = {true, -1.0, 1.0, 0.25, 0, 0};
    result.globals.push_back(filter);
    result.verification.ran = true;
    result.verification.passed = false;
    result.verification.message = "2 of 16777216 elements differ (rel > 1e-05)";
    result.verification.checked = 16777216;
    result.verification.mismatches = 2;
    result.verification.maxError = kInf;
    result.verification.maxErrorIndex = 300;
    Mismatch m1;
    m1.index = 300;
    m1.actual = kNan;
    m1.expected = 1.25;
    m1.error = kInf;
    m1.block[0] = 1;
    m1.thread[0] = 44;
    Mismatch m2;
    m2.index = 1ULL << 33;
    m2.actual = -0.5;
    m2.expected = 0.5;
    m2.error = 2.0;
    m2.block[0] = 33554432;
    m2.block[1] = 2;
    m2.block[2] = 3;
    m2.thread[2] = 7;
    result.verification.firstMismatches = {m1, m2};
    return result;
}

// Equal, with NaN equal to NaN.
bool same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

} // namespace

class TestProtocol : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runRequestRoundTrip();
    void runResultRoundTrip();
    void measureRequestRoundTrip();
    void metricsRoundTrip();
    void inspectRoundTrip();
    void measurementReplyRoundTrip();
    void nonFiniteDoublesAreStrings();
    void everyStatusRoundTrips();
    void helloRoundTrip();
    void helloWithoutDevice();
    void pageRoundTrip();
    void exportRoundTrip();
    void simpleMessages();
    void errorReply();
    void rejectsMalformedRequests_data();
    void rejectsMalformedRequests();
    void rejectsMalformedReplies_data();
    void rejectsMalformedReplies();
    void encodesInvalidUtf8();
    void passedNeedsSuccessGuardsAndVerification();
    void checksSequencesAndKernelsTravel();
};

void TestProtocol::checksSequencesAndKernelsTravel()
{
    // A request with several checks (one allclose) and a sequence of kernels.
    RunRequest original = sampleRequest();
    VerificationSpec second = original.verification.checks[0];
    second.output = "d_count";
    second.expression = "n";
    second.tolerance = ToleranceKind::AllClose;
    second.toleranceValue = VerificationSpec{}.toleranceValue; // allclose does not carry it
    second.atol = 1e-6;
    second.rtol = 1e-3;
    original.verification.checks.push_back(second);
    KernelStep step;
    step.kernel = "finish";
    ArgumentSpec bound;
    bound.parameter = "values";
    bound.buffer = "c";
    step.arguments = {bound};
    step.grid = {"1", "1", "1"};
    original.launch.then = {step};
    const json message = throughLine([&] {
        json m = makeRunRequest(original);
        m["id"] = 3;
        return m;
    }());
    QVERIFY(message.at("request").at("verification").is_array());
    const WorkerRequest request = parseRequest(message);
    QVERIFY(request.run.verification == original.verification);
    QCOMPARE(request.run.verification.checks[1].rtol, 1e-3);
    QVERIFY(request.run.launch == original.launch);
    // One check travels as an object, as to a worker of an earlier version.
    RunRequest single = sampleRequest();
    QVERIFY(json(single).at("verification").is_object());

    // Each check's verdict with its largest errors, and each kernel's time.
    RunResult result = sampleResult();
    VerificationResult check;
    check.ran = check.passed = true;
    check.output = "c";
    check.label = "`c` (expression)";
    check.maxAbsError = kInf;
    check.maxAbsErrorIndex = 7;
    check.maxRelError = 0.125;
    check.maxRelErrorIndex = 9;
    result.checks = {check, result.verification};
    result.kernelTimes = {{"scale", 0.5}, {"finish", 0.125}};
    const RunResult back = parseRunResultReply(throughLine(makeRunResultReply(4, result)));
    QCOMPARE(back.checks.size(), std::size_t(2));
    QCOMPARE(back.checks[0].output, std::string("c"));
    QCOMPARE(back.checks[0].label, check.label);
    QVERIFY(back.checks[0].maxAbsError && std::isinf(*back.checks[0].maxAbsError));
    QCOMPARE(back.checks[0].maxAbsErrorIndex, 7ULL);
    QCOMPARE(*back.checks[0].maxRelError, 0.125);
    QCOMPARE(back.checks[0].maxRelErrorIndex, 9ULL);
    QVERIFY(!back.checks[1].maxAbsError);
    QCOMPARE(back.kernelTimes.size(), std::size_t(2));
    QCOMPARE(back.kernelTimes[1].kernel, std::string("finish"));
    QCOMPARE(back.kernelTimes[1].timeMs, 0.125);
    // Written only when there are any.
    const json plain = sampleResult();
    QVERIFY(!plain.contains("checks"));
    QVERIFY(!plain.contains("kernelTimes"));

    // A measurement of a sequence: each kernel's samples.
    Measurement measured;
    measured.samplesNs = {3.0, 4.0};
    measured.kernels = {{"scale", {2.0, 3.0}, {}}, {"finish", {1.0, 1.0}, {}}};
    measured.kernels[0].statistics.count = 2;
    const Measurement again = parseMeasurementReply(throughLine(makeMeasurementReply(6, measured)));
    QVERIFY(again == measured);
    QVERIFY(!json(Measurement{}).contains("kernels"));
}

void TestProtocol::runRequestRoundTrip()
{
    const RunRequest original = sampleRequest();
    const json message = throughLine([&] {
        json m = makeRunRequest(original);
        m["id"] = 7;
        return m;
    }());
    QCOMPARE(message.at("type").get<std::string>(), std::string("run"));
    const WorkerRequest request = parseRequest(message);
    QCOMPARE(request.type, WorkerRequest::Type::Run);
    QCOMPARE(request.id.get<long long>(), 7LL);
    QCOMPARE(request.run.source, original.source);
    QCOMPARE(request.run.fileName, original.fileName);
    QVERIFY(request.run.options == original.options);
    QVERIFY(request.run.launch == original.launch);
    QVERIFY(request.run.verification == original.verification);
}

void TestProtocol::metricsRoundTrip()
{
    const RunRequest original = sampleRequest();
    MetricsRequest metrics;
    metrics.metrics = {"dram__bytes_read.sum"};
    const json message = throughLine([&] {
        json m = makeMetricsRequest(original, metrics);
        m["id"] = 13;
        return m;
    }());
    QCOMPARE(message.at("type").get<std::string>(), std::string("metrics"));
    const WorkerRequest request = parseRequest(message);
    QCOMPARE(request.type, WorkerRequest::Type::Metrics);
    QCOMPARE(request.run.source, original.source);
    QVERIFY(request.metrics.metrics == metrics.metrics);
    json bare = message;
    bare.erase("metrics");
    QVERIFY(parseRequest(bare).metrics.metrics == defaultMetrics());

    MetricsResult result;
    result.chip = "GH100";
    result.values = {{"dram__bytes_read.sum", 1.073741824e9}};
    result.passes = 1;
    result.registersPerThread = 16;
    result.blockThreads = 256;
    result.gridBlocks = 1048576;
    result.theoreticalOccupancy = 1.0;
    result.activeBlocksPerSm = 8;
    result.occupancyLimiter = "warps";
    result.waves = 992.97;
    const MetricsResult back = parseMetricsReply(throughLine(makeMetricsReply(13, result)));
    QCOMPARE(back.chip, result.chip);
    QVERIFY(back.values == result.values);
    QCOMPARE(back.passes, result.passes);
    QCOMPARE(back.gridBlocks, result.gridBlocks);
    QCOMPARE(back.occupancyLimiter, result.occupancyLimiter);
    QCOMPARE(back.waves, result.waves);
    QVERIFY(back.ok());

    QCOMPARE(chipForArch("sm_90"), std::string("GH100"));
    QVERIFY(isCancelRequest(throughLine(makeCancelRequest())));
    QVERIFY(!isCancelRequest(message));
    QVERIFY(!isCancelRequest(json::array()));
    QVERIFY(chipForArch("sm_12").empty());
}

void TestProtocol::measureRequestRoundTrip()
{
    const RunRequest original = sampleRequest();
    SampleSettings settings;
    settings.mode = SampleMode::Hot;
    settings.fixedSamples = 25;
    settings.minGpuTimeSeconds = 0.125;
    settings.timeCapSeconds = 3.0;
    const json message = throughLine([&] {
        json m = makeMeasureRequest(original, settings);
        m["id"] = 11;
        return m;
    }());
    QCOMPARE(message.at("type").get<std::string>(), std::string("measure"));
    const WorkerRequest request = parseRequest(message);
    QCOMPARE(request.type, WorkerRequest::Type::Measure);
    QCOMPARE(request.id.get<long long>(), 11LL);
    QCOMPARE(request.run.source, original.source);
    QVERIFY(request.run.launch == original.launch);
    QVERIFY(request.settings == settings);

    // Without settings the worker uses the defaults.
    json bare = message;
    bare.erase("settings");
    QVERIFY(parseRequest(bare).settings == SampleSettings{});
    // Without expressions no "throughput" is sent and the defaults apply.
    QVERIFY(!message.contains("throughput"));
    QVERIFY(request.throughput == ThroughputExpressions{});
    const ThroughputExpressions expressions{"2 * 4 * N", "N"};
    const json withThroughput = throughLine([&] {
        json m = makeMeasureRequest(original, settings, expressions);
        m["id"] = 12;
        return m;
    }());
    QCOMPARE(withThroughput.at("throughput").at("bytes").get<std::string>(),
             std::string("2 * 4 * N"));
    QVERIFY(parseRequest(withThroughput).throughput == expressions);
}

void TestProtocol::inspectRoundTrip()
{
    const RunRequest original = sampleRequest();
    InspectRequest inspect;
    inspect.metrics = {"smsp__sass_inst_executed"};
    inspect.sampleStalls = false;
    const json message = throughLine([&] {
        json m = makeInspectRequest(original, inspect);
        m["id"] = 14;
        return m;
    }());
    QCOMPARE(message.at("type").get<std::string>(), std::string("inspect"));
    const WorkerRequest request = parseRequest(message);
    QCOMPARE(request.type, WorkerRequest::Type::Inspect);
    QVERIFY(request.inspect.metrics == inspect.metrics);
    QVERIFY(!request.inspect.sampleStalls);
    // An older host's request, without the field, samples the stalls.
    json bare = message;
    bare.erase("stalls");
    bare.erase("metrics");
    QVERIFY(parseRequest(bare).inspect.sampleStalls);
    QVERIFY(parseRequest(bare).inspect.metrics == defaultInspectMetrics());

    InspectResult result;
    result.kernel = "transpose_naive";
    result.chip = "GH100";
    result.lineInfo = true;
    PcStallSamples sampled;
    sampled.function = "transpose_naive";
    sampled.pcOffset = 0x1b0;
    sampled.reasons = {{"drain", 60}, {"branch_resolving", 2}};
    sampled.samples = 62;
    sampled.file = "transpose.cu";
    sampled.line = 20;
    result.stalls = {sampled};
    result.stallSamples = 125996;
    result.droppedStallSamples = 3;
    const InspectResult back = parseInspectReply(throughLine(makeInspectReply(14, result)));
    QCOMPARE(back.stalls.size(), std::size_t(1));
    QCOMPARE(back.stalls.front().pcOffset, 0x1b0u);
    QVERIFY(back.stalls.front().reasons == sampled.reasons);
    QCOMPARE(back.stalls.front().samples, std::uint64_t(62));
    QCOMPARE(back.stalls.front().line, 20u);
    QCOMPARE(back.stalls.front().file, std::string("transpose.cu"));
    QCOMPARE(back.stallSamples, std::uint64_t(125996));
    QCOMPARE(back.droppedStallSamples, std::uint64_t(3));
}

void TestProtocol::measurementReplyRoundTrip()
{
    Measurement original;
    original.settings.minSamples = 12;
    original.samplesNs = {790000.5, 1.0 / 3.0, 792000.25};
    original.eventSamplesNs = {801000.0, 2.0 / 3.0, 803000.75};
    original.statistics.count = 3;
    original.statistics.medianNs = 790000.5;
    original.timingSource = TimingSource::Events;
    original.notes = {"CUPTI unavailable"};
    original.throughput.effectiveGBps = 2718.28;
    original.faultStatus = "fault";
    original.faultMessage = "illegal address at sample 4";
    const json message = throughLine(makeMeasurementReply(5, original, true));
    QCOMPARE(message.at("id").get<int>(), 5);
    QCOMPARE(message.at("type").get<std::string>(), std::string("measurement"));
    QVERIFY(replyIsExiting(message));
    QVERIFY(parseMeasurementReply(message) == original);
    QVERIFY(!replyIsExiting(makeMeasurementReply(5, original)));
    QVERIFY_THROWS_EXCEPTION(json::exception, parseMeasurementReply(makeByeReply(5)));
}

void TestProtocol::runResultRoundTrip()
{
    const RunResult original = sampleResult();
    const json message = throughLine(makeRunResultReply(9, original));
    QCOMPARE(message.at("id").get<int>(), 9);
    QVERIFY(!replyIsExiting(message));
    const RunResult result = parseRunResultReply(message);
    QCOMPARE(result.status, original.status);
    QCOMPARE(result.message, original.message);
    QCOMPARE(result.kernelTimeMs, original.kernelTimeMs);
    QCOMPARE(result.wallTimeMs, original.wallTimeMs);
    QCOMPARE(result.device, original.device);
    QCOMPARE(result.buffers.size(), std::size_t(1));
    const BufferReport &d = result.buffers.front();
    const BufferReport &o = original.buffers.front();
    QCOMPARE(d.parameter, o.parameter);
    QCOMPARE(d.count, o.count);
    QCOMPARE(d.bytes, o.bytes);
    QCOMPARE(d.handle, o.handle);
    QCOMPARE(d.unwritten, o.unwritten);
    QCOMPARE(d.firstUnwritten, o.firstUnwritten);
    QCOMPARE(d.guardViolations.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
        QCOMPARE(d.guardViolations[i].before, o.guardViolations[i].before);
        QCOMPARE(d.guardViolations[i].elements, o.guardViolations[i].elements);
        QCOMPARE(d.guardViolations[i].firstIndex, o.guardViolations[i].firstIndex);
        QCOMPARE(d.guardViolations[i].message, o.guardViolations[i].message);
    }
    QVERIFY(d.stats.valid);
    QVERIFY(std::isinf(d.stats.min) && d.stats.min < 0);
    QVERIFY(std::isinf(d.stats.max) && d.stats.max > 0);
    QVERIFY(std::isnan(d.stats.mean));
    QCOMPARE(d.stats.nanCount, 5ULL);
    QCOMPARE(d.stats.infCount, 2ULL);
    QCOMPARE(result.globals.size(), std::size_t(1));
    QCOMPARE(result.globals[0].parameter, std::string("d_filter"));
    QCOMPARE(result.globals[0].bytes, 36ULL);
    QCOMPARE(result.globals[0].stats.mean, 0.25);

    const VerificationResult &v = result.verification;
    const VerificationResult &ov = original.verification;
    QCOMPARE(v.ran, true);
    QCOMPARE(v.passed, false);
    QCOMPARE(v.message, ov.message);
    QCOMPARE(v.checked, ov.checked);
    QCOMPARE(v.mismatches, ov.mismatches);
    QVERIFY(std::isinf(v.maxError));
    QCOMPARE(v.maxErrorIndex, ov.maxErrorIndex);
    QCOMPARE(v.firstMismatches.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
        const Mismatch &m = v.firstMismatches[i];
        const Mismatch &om = ov.firstMismatches[i];
        QCOMPARE(m.index, om.index);
        QVERIFY(same(m.actual, om.actual));
        QVERIFY(same(m.expected, om.expected));
        QVERIFY(same(m.error, om.error));
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(m.block[k], om.block[k]);
            QCOMPARE(m.thread[k], om.thread[k]);
        }
    }
    QCOMPARE(result.passed(), false);
    QCOMPARE(message.at("result").at("passed").get<bool>(), false);

    const json exiting = throughLine(makeRunResultReply(10, original, true));
    QVERIFY(replyIsExiting(exiting));
}

void TestProtocol::nonFiniteDoublesAreStrings()
{
    QCOMPARE(finiteSafe(kNan), json("nan"));
    QCOMPARE(finiteSafe(kInf), json("inf"));
    QCOMPARE(finiteSafe(-kInf), json("-inf"));
    QCOMPARE(finiteSafe(1.5), json(1.5));
    QVERIFY(std::isnan(readFiniteSafe(json("nan"))));
    QVERIFY(std::isnan(readFiniteSafe(json(nullptr))));
    QCOMPARE(readFiniteSafe(json("inf")), kInf);
    QCOMPARE(readFiniteSafe(json("-inf")), -kInf);
    QCOMPARE(readFiniteSafe(json(3)), 3.0);
    QVERIFY_THROWS_EXCEPTION(json::exception, readFiniteSafe(json("infinity")));
    QVERIFY_THROWS_EXCEPTION(json::exception, readFiniteSafe(json::array()));

    // No NaN reaches the text as a bare token or as null.
    const std::string line = encodeLine(makeRunResultReply(1, sampleResult()));
    QVERIFY(line.find("null") == std::string::npos);
    QVERIFY(line.find("\"mean\":\"nan\"") != std::string::npos);
    QVERIFY(line.find("\"min\":\"-inf\"") != std::string::npos);
}

void TestProtocol::everyStatusRoundTrips()
{
    for (RunStatus status : {RunStatus::Succeeded, RunStatus::InvalidLaunch,
                             RunStatus::CompileFailed, RunStatus::Fault, RunStatus::OutOfMemory,
                             RunStatus::Timeout, RunStatus::WorkerCrashed, RunStatus::NoDevice}) {
        RunResult result;
        result.status = status;
        const json message = throughLine(makeRunResultReply(1, result));
        QCOMPARE(message.at("result").at("status").get<std::string>(),
                 std::string(runStatusName(status)));
        QCOMPARE(parseRunResultReply(message).status, status);
    }
    QCOMPARE(std::string(runStatusName(RunStatus::InvalidLaunch)), std::string("invalid-launch"));
    QCOMPARE(std::string(runStatusName(RunStatus::NoDevice)), std::string("no-device"));
}

void TestProtocol::helloRoundTrip()
{
    const json request = throughLine([] {
        json m = makeHelloRequest();
        m["id"] = 1;
        return m;
    }());
    const WorkerRequest parsed = parseRequest(request);
    QCOMPARE(parsed.type, WorkerRequest::Type::Hello);
    QCOMPARE(parsed.protocol, kWorkerProtocolVersion);

    HelloReply hello;
    hello.worker = "0.1.0";
    DeviceInfo device;
    device.name = "NVIDIA H200";
    device.major = 9;
    device.smCount = 132;
    device.totalMemoryBytes = 150ULL << 30;
    device.maxBlockDim[0] = 1024;
    hello.device = device;
    hello.freeMemoryBytes = 140ULL << 30;
    hello.driverVersion = 13000;
    hello.nvrtcVersion = "13.0";
    const json reply = throughLine(makeHelloReply(parsed.id, hello));
    QCOMPARE(reply.at("id").get<int>(), 1);
    const HelloReply back = parseHelloReply(reply);
    QCOMPARE(back.protocol, kWorkerProtocolVersion);
    QCOMPARE(back.worker, hello.worker);
    QVERIFY(back.device.has_value());
    QVERIFY(*back.device == device);
    QCOMPARE(back.freeMemoryBytes, hello.freeMemoryBytes);
    QCOMPARE(back.driverVersion, 13000);
    QCOMPARE(back.nvrtcVersion, std::string("13.0"));
    QVERIFY(back.message.empty());
}

void TestProtocol::helloWithoutDevice()
{
    HelloReply hello;
    hello.message = "No CUDA driver (libcuda.so.1 not found) — compile-only mode";
    const json reply = throughLine(makeHelloReply(3, hello));
    QVERIFY(reply.at("device").is_null());
    const HelloReply back = parseHelloReply(reply);
    QVERIFY(!back.device.has_value());
    QCOMPARE(back.message, hello.message);
}

void TestProtocol::pageRoundTrip()
{
    PageRequest request{"run2/c", 1ULL << 32, 512};
    json message = makePageRequest(request);
    message["id"] = 4;
    const WorkerRequest parsed = parseRequest(throughLine(message));
    QCOMPARE(parsed.type, WorkerRequest::Type::Page);
    QCOMPARE(parsed.page.handle, request.handle);
    QCOMPARE(parsed.page.first, request.first);
    QCOMPARE(parsed.page.count, request.count);

    Page page{"run2/c", 1ULL << 32, {"1.5", "nan", "(1, 2, 3, 4)"}};
    const Page back = parsePageReply(throughLine(makePageReply(4, page)));
    QCOMPARE(back.handle, page.handle);
    QCOMPARE(back.first, page.first);
    QVERIFY(back.values == page.values);
}

void TestProtocol::exportRoundTrip()
{
    for (ExportFormat format : {ExportFormat::Npy, ExportFormat::Bin, ExportFormat::Csv}) {
        json message = makeExportRequest("run2/c", "/tmp/c.out", format);
        message["id"] = 5;
        const WorkerRequest parsed = parseRequest(throughLine(message));
        QCOMPARE(parsed.type, WorkerRequest::Type::Export);
        QCOMPARE(parsed.handle, std::string("run2/c"));
        QCOMPARE(parsed.path, std::string("/tmp/c.out"));
        QCOMPARE(parsed.format, format);
        QCOMPARE(parseExportFormat(exportFormatName(format)), std::optional(format));
    }
    const ExportReply back = parseExportedReply(
        throughLine(makeExportedReply(5, ExportReply{"/tmp/c.npy", 4224, std::nullopt})));
    QCOMPARE(back.path, std::string("/tmp/c.npy"));
    QCOMPARE(back.bytes, 4224ULL);
}

void TestProtocol::simpleMessages()
{
    json release = makeReleaseRequest();
    release["id"] = 6;
    QCOMPARE(parseRequest(throughLine(release)).type, WorkerRequest::Type::Release);
    json shutdown = makeShutdownRequest();
    shutdown["id"] = 7;
    QCOMPARE(parseRequest(throughLine(shutdown)).type, WorkerRequest::Type::Shutdown);
    QCOMPARE(throughLine(makeReleasedReply(6)).at("type").get<std::string>(),
             std::string("released"));
    const json bye = throughLine(makeByeReply(7));
    QCOMPARE(bye.at("type").get<std::string>(), std::string("bye"));
    QCOMPARE(bye.at("id").get<int>(), 7);
}

void TestProtocol::errorReply()
{
    const json reply = throughLine(makeErrorReply(8, "unknown handle 'run9/x'"));
    QCOMPARE(reply.at("id").get<int>(), 8);
    QCOMPARE(parseErrorReply(reply), std::string("unknown handle 'run9/x'"));
    QVERIFY(!replyIsExiting(reply));
    QVERIFY(replyIsExiting(makeErrorReply(8, "context lost", true)));
    // An error for a line whose id could not be read carries a null id.
    QVERIFY(throughLine(makeErrorReply(nullptr, "malformed")).at("id").is_null());
}

void TestProtocol::rejectsMalformedRequests_data()
{
    QTest::addColumn<QString>("line");
    QTest::newRow("array") << QStringLiteral(R"([1, 2])");
    QTest::newRow("no id") << QStringLiteral(R"({"type":"hello","protocol":1})");
    QTest::newRow("string id") << QStringLiteral(R"({"id":"1","type":"hello","protocol":1})");
    QTest::newRow("no type") << QStringLiteral(R"({"id":1})");
    QTest::newRow("unknown type") << QStringLiteral(R"({"id":1,"type":"launch"})");
    QTest::newRow("hello without protocol") << QStringLiteral(R"({"id":1,"type":"hello"})");
    QTest::newRow("run without request") << QStringLiteral(R"({"id":1,"type":"run"})");
    QTest::newRow("run without source")
        << QStringLiteral(R"({"id":1,"type":"run","request":{"launch":{}}})");
    QTest::newRow("page first as text")
        << QStringLiteral(R"({"id":1,"type":"page","handle":"h","first":"0"})");
    QTest::newRow("page without handle") << QStringLiteral(R"({"id":1,"type":"page"})");
    QTest::newRow("export bad format")
        << QStringLiteral(R"({"id":1,"type":"export","handle":"h","path":"p","format":"xlsx"})");
}

void TestProtocol::rejectsMalformedRequests()
{
    QFETCH(QString, line);
    const json message = json::parse(line.toStdString());
    QVERIFY_THROWS_EXCEPTION(json::exception, parseRequest(message));
}

void TestProtocol::rejectsMalformedReplies_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("parser");
    QTest::newRow("unknown status")
        << QStringLiteral(R"({"id":1,"type":"runResult","result":{"status":"fine"}})")
        << QStringLiteral("run");
    QTest::newRow("no status") << QStringLiteral(R"({"id":1,"type":"runResult","result":{}})")
                               << QStringLiteral("run");
    QTest::newRow("nan as word")
        << QStringLiteral(
               R"({"id":1,"type":"runResult","result":{"status":"fault","kernelTimeMs":"NaN?"}})")
        << QStringLiteral("run");
    QTest::newRow("page is not a run result")
        << QStringLiteral(R"({"id":1,"type":"page","handle":"h","values":[]})")
        << QStringLiteral("run");
    QTest::newRow("bad mismatch block")
        << QStringLiteral(R"({"id":1,"type":"runResult","result":{"status":"succeeded",)"
                          R"("verification":{"firstMismatches":[{"index":1,"block":[1,2]}]}}})")
        << QStringLiteral("run");
    QTest::newRow("hello without protocol")
        << QStringLiteral(R"({"id":1,"type":"hello"})") << QStringLiteral("hello");
    QTest::newRow("page values not a list")
        << QStringLiteral(R"({"id":1,"type":"page","handle":"h","values":"1"})")
        << QStringLiteral("page");
    QTest::newRow("error without message")
        << QStringLiteral(R"({"id":1,"type":"error"})") << QStringLiteral("error");
}

void TestProtocol::rejectsMalformedReplies()
{
    QFETCH(QString, line);
    QFETCH(QString, parser);
    const json message = json::parse(line.toStdString());
    if (parser == QLatin1String("run")) {
        QVERIFY_THROWS_EXCEPTION(json::exception, parseRunResultReply(message));
    } else if (parser == QLatin1String("hello")) {
        QVERIFY_THROWS_EXCEPTION(json::exception, parseHelloReply(message));
    } else if (parser == QLatin1String("page")) {
        QVERIFY_THROWS_EXCEPTION(json::exception, parsePageReply(message));
    } else {
        QVERIFY_THROWS_EXCEPTION(json::exception, parseErrorReply(message));
    }
}

void TestProtocol::encodesInvalidUtf8()
{
    RunRequest request = sampleRequest();
    request.source = "int x; // \xff\xfe broken\n";
    json message = makeRunRequest(request);
    message["id"] = 1;
    std::string line;
    QVERIFY_THROWS_NO_EXCEPTION(line = encodeLine(message));
    const WorkerRequest parsed = parseRequest(json::parse(line));
    QVERIFY(parsed.run.source.starts_with("int x; // "));
    QVERIFY(parsed.run.source.ends_with(" broken\n"));
}

void TestProtocol::passedNeedsSuccessGuardsAndVerification()
{
    RunResult result;
    QVERIFY(result.passed()); // succeeded, nothing to verify
    result.verification.ran = true;
    result.verification.passed = true;
    QVERIFY(result.passed());
    result.verification.passed = false;
    QVERIFY(!result.passed());
    result.verification.passed = true;
    result.buffers.push_back(BufferReport{});
    result.buffers.back().guardViolations.push_back(GuardViolation{});
    QVERIFY(!result.passed());
    result.buffers.clear();
    result.status = RunStatus::Fault;
    QVERIFY(!result.passed());
}

CUWB_TEST_GUILESS_MAIN(TestProtocol)
} // namespace tst_protocol
} // namespace

#include "tst_protocol.moc"
