#include "run/runjson.h"

#include "compiler/compilejson.h"
#include "launch/launchjson.h"
#include "util/base64.h"
#include "util/jsonread.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace cuwb {

namespace {

using jsonread::malformed;
using jsonread::readIfPresent;
using nlohmann::json;

void readDoubleIfPresent(const json &j, const char *key, double &value)
{
    if (const auto it = j.find(key); it != j.end()) {
        value = readFiniteSafe(*it);
    }
}

} // namespace

json finiteSafe(double value)
{
    if (std::isnan(value)) {
        return "nan";
    }
    if (std::isinf(value)) {
        return value > 0 ? "inf" : "-inf";
    }
    return value;
}

double readFiniteSafe(const json &value)
{
    if (value.is_number()) {
        return value.get<double>();
    }
    if (value.is_null()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (value.is_string()) {
        const std::string &text = value.get_ref<const std::string &>();
        if (text == "nan") {
            return std::numeric_limits<double>::quiet_NaN();
        }
        if (text == "inf") {
            return std::numeric_limits<double>::infinity();
        }
        if (text == "-inf") {
            return -std::numeric_limits<double>::infinity();
        }
    }
    malformed(value, "expected a number, \"nan\", \"inf\" or \"-inf\", got " + value.dump());
}

const char *exportFormatName(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Npy:
        return "npy";
    case ExportFormat::Bin:
        return "bin";
    case ExportFormat::Csv:
        return "csv";
    }
    return "npy";
}

std::optional<ExportFormat> parseExportFormat(std::string_view name)
{
    for (ExportFormat format : {ExportFormat::Npy, ExportFormat::Bin, ExportFormat::Csv}) {
        if (name == exportFormatName(format)) {
            return format;
        }
    }
    return std::nullopt;
}

std::optional<RunStatus> parseRunStatus(std::string_view name)
{
    for (RunStatus status : {RunStatus::Succeeded, RunStatus::InvalidLaunch,
                             RunStatus::CompileFailed, RunStatus::Fault, RunStatus::OutOfMemory,
                             RunStatus::Timeout, RunStatus::WorkerCrashed, RunStatus::NoDevice}) {
        if (name == runStatusName(status)) {
            return status;
        }
    }
    return std::nullopt;
}

void to_json(json &j, const CompiledImage &image)
{
    j = json{{"options", image.options},
             {"cubin", toBase64(image.cubin)},
             {"ptx", image.ptx},
             {"kernels", image.kernels},
             {"compileTimeMs", image.compileTimeMs},
             {"compiledBy", image.compiledBy}};
}

void from_json(const json &j, CompiledImage &image)
{
    image = CompiledImage{};
    j.at("options").get_to(image.options);
    if (!fromBase64(j.at("cubin").get<std::string>(), image.cubin))
        throw std::invalid_argument("image.cubin: not base64");
    j.at("ptx").get_to(image.ptx);
    readIfPresent(j, "compileTimeMs", image.compileTimeMs);
    readIfPresent(j, "compiledBy", image.compiledBy);
    j.at("kernels").get_to(image.kernels);
}

void to_json(json &j, const RunRequest &r)
{
    j = json{
        {"source", r.source}, {"fileName", r.fileName},         {"options", r.options},
        {"launch", r.launch}, {"verification", r.verification},
    };
    if (r.image)
        j["image"] = *r.image;
}

void from_json(const json &j, RunRequest &r)
{
    r = RunRequest{};
    j.at("source").get_to(r.source);
    readIfPresent(j, "fileName", r.fileName);
    readIfPresent(j, "options", r.options);
    j.at("launch").get_to(r.launch);
    readIfPresent(j, "verification", r.verification);
    if (const auto image = j.find("image"); image != j.end() && !image->is_null())
        r.image = image->get<CompiledImage>();
}

void to_json(json &j, const BufferStats &s)
{
    j = json{
        {"valid", s.valid},           {"min", finiteSafe(s.min)}, {"max", finiteSafe(s.max)},
        {"mean", finiteSafe(s.mean)}, {"nanCount", s.nanCount},   {"infCount", s.infCount},
    };
}

void from_json(const json &j, BufferStats &s)
{
    s = BufferStats{};
    readIfPresent(j, "valid", s.valid);
    readDoubleIfPresent(j, "min", s.min);
    readDoubleIfPresent(j, "max", s.max);
    readDoubleIfPresent(j, "mean", s.mean);
    readIfPresent(j, "nanCount", s.nanCount);
    readIfPresent(j, "infCount", s.infCount);
}

void to_json(json &j, const GuardViolation &g)
{
    j = json{
        {"before", g.before},
        {"elements", g.elements},
        {"firstIndex", g.firstIndex},
        {"message", g.message},
    };
}

void from_json(const json &j, GuardViolation &g)
{
    g = GuardViolation{};
    readIfPresent(j, "before", g.before);
    readIfPresent(j, "elements", g.elements);
    readIfPresent(j, "firstIndex", g.firstIndex);
    readIfPresent(j, "message", g.message);
}

void to_json(json &j, const BufferReport &b)
{
    j = json{
        {"parameter", b.parameter},
        {"count", b.count},
        {"bytes", b.bytes},
        {"handle", b.handle},
        {"guardViolations", b.guardViolations},
        {"unwritten", b.unwritten},
        {"firstUnwritten", b.firstUnwritten},
        {"stats", b.stats},
    };
}

void from_json(const json &j, BufferReport &b)
{
    b = BufferReport{};
    j.at("parameter").get_to(b.parameter);
    readIfPresent(j, "count", b.count);
    readIfPresent(j, "bytes", b.bytes);
    readIfPresent(j, "handle", b.handle);
    readIfPresent(j, "guardViolations", b.guardViolations);
    readIfPresent(j, "unwritten", b.unwritten);
    readIfPresent(j, "firstUnwritten", b.firstUnwritten);
    readIfPresent(j, "stats", b.stats);
}

void to_json(json &j, const Mismatch &m)
{
    j = json{
        {"index", m.index},
        {"actual", finiteSafe(m.actual)},
        {"expected", finiteSafe(m.expected)},
        {"error", finiteSafe(m.error)},
        {"block", {m.block[0], m.block[1], m.block[2]}},
        {"thread", {m.thread[0], m.thread[1], m.thread[2]}},
    };
}

void from_json(const json &j, Mismatch &m)
{
    m = Mismatch{};
    j.at("index").get_to(m.index);
    readDoubleIfPresent(j, "actual", m.actual);
    readDoubleIfPresent(j, "expected", m.expected);
    readDoubleIfPresent(j, "error", m.error);
    const auto readTriple = [&j](const char *key, std::uint64_t(&out)[3]) {
        if (const auto it = j.find(key); it != j.end()) {
            if (!it->is_array() || it->size() != 3) {
                malformed(*it, std::string("'") + key + "' must be an array of three numbers");
            }
            for (std::size_t i = 0; i < 3; ++i) {
                (*it)[i].get_to(out[i]);
            }
        }
    };
    readTriple("block", m.block);
    readTriple("thread", m.thread);
}

void to_json(json &j, const VerificationResult &v)
{
    j = json{
        {"ran", v.ran},
        {"passed", v.passed},
        {"message", v.message},
        {"checked", v.checked},
        {"mismatches", v.mismatches},
        {"maxError", finiteSafe(v.maxError)},
        {"maxErrorIndex", v.maxErrorIndex},
        {"firstMismatches", v.firstMismatches},
    };
    if (v.aggregateActual)
        j["aggregateActual"] = finiteSafe(*v.aggregateActual);
    if (v.aggregateExpected)
        j["aggregateExpected"] = finiteSafe(*v.aggregateExpected);
}

void from_json(const json &j, VerificationResult &v)
{
    v = VerificationResult{};
    readIfPresent(j, "ran", v.ran);
    readIfPresent(j, "passed", v.passed);
    readIfPresent(j, "message", v.message);
    readIfPresent(j, "checked", v.checked);
    readIfPresent(j, "mismatches", v.mismatches);
    readDoubleIfPresent(j, "maxError", v.maxError);
    readIfPresent(j, "maxErrorIndex", v.maxErrorIndex);
    readIfPresent(j, "firstMismatches", v.firstMismatches);
    for (const char *key : {"aggregateActual", "aggregateExpected"}) {
        if (const auto it = j.find(key); it != j.end() && it->is_number())
            (std::string_view(key) == "aggregateActual" ? v.aggregateActual : v.aggregateExpected) =
                it->get<double>();
    }
}

void to_json(json &j, const RunResult &r)
{
    j = json{
        {"status", runStatusName(r.status)},
        {"passed", r.passed()},
        {"message", r.message},
        {"deviceError", r.deviceError},
        {"compileMs", finiteSafe(r.compileMs)},
        {"kernelTimeMs", finiteSafe(r.kernelTimeMs)},
        {"wallTimeMs", finiteSafe(r.wallTimeMs)},
        {"buffers", r.buffers},
        {"globals", r.globals},
        {"verification", r.verification},
        {"device", r.device},
    };
    // What the result means, in the words `cuwb run` and the Results dock use; derived like
    // "passed", and not read back.
    j["outcome"] = describeRun(r);
}

void to_json(json &j, const RunOutcome &o)
{
    j = json{
        {"summary", o.headline()},
        {"kernel", kernelOutcomeName(o.kernel)},
        {"verification", verificationOutcomeName(o.verification)},
        {"outOfBoundsElements", o.outOfBoundsElements},
        {"outOfBoundsBuffers", o.outOfBoundsBuffers},
        {"unwrittenElements", o.unwrittenElements},
        {"reasons", o.reasons},
    };
}

void from_json(const json &j, RunResult &r)
{
    r = RunResult{};
    const std::string statusText = j.at("status").get<std::string>();
    const std::optional<RunStatus> status = parseRunStatus(statusText);
    if (!status) {
        malformed(j, "unknown run status '" + statusText + "'");
    }
    r.status = *status;
    // "passed" is derived and written for readers; passed() recomputes it.
    readIfPresent(j, "message", r.message);
    readIfPresent(j, "deviceError", r.deviceError);
    readDoubleIfPresent(j, "kernelTimeMs", r.kernelTimeMs);
    readDoubleIfPresent(j, "wallTimeMs", r.wallTimeMs);
    readIfPresent(j, "buffers", r.buffers);
    readIfPresent(j, "globals", r.globals);
    readIfPresent(j, "verification", r.verification);
    readIfPresent(j, "device", r.device);
    readDoubleIfPresent(j, "compileMs", r.compileMs);
}

void to_json(json &j, const PageRequest &p)
{
    j = json{{"handle", p.handle}, {"first", p.first}, {"count", p.count}};
}

void from_json(const json &j, PageRequest &p)
{
    p = PageRequest{};
    j.at("handle").get_to(p.handle);
    readIfPresent(j, "first", p.first);
    readIfPresent(j, "count", p.count);
}

void to_json(json &j, const Page &p)
{
    j = json{{"handle", p.handle}, {"first", p.first}, {"values", p.values}};
}

void from_json(const json &j, Page &p)
{
    p = Page{};
    j.at("handle").get_to(p.handle);
    readIfPresent(j, "first", p.first);
    j.at("values").get_to(p.values);
}

// ---- Requests ----

} // namespace cuwb
