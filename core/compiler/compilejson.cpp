#include "compiler/compilejson.h"

#include "util/jsonread.h"

namespace cuwb {

void to_json(nlohmann::json &json, const Diagnostic &diagnostic)
{
    json = nlohmann::json{
        {"file", diagnostic.file},
        {"line", diagnostic.line},
        {"column", diagnostic.column},
        {"severity", severityName(diagnostic.severity)},
        {"catastrophic", diagnostic.catastrophic},
        {"code", diagnostic.code},
        {"message", diagnostic.message},
        {"notes", diagnostic.notes},
    };
}

void from_json(const nlohmann::json &json, Diagnostic &diagnostic)
{
    diagnostic = Diagnostic{};
    diagnostic.file = json.value("file", std::string());
    diagnostic.line = json.value("line", 0);
    diagnostic.column = json.value("column", 0);
    const std::string severity = json.value("severity", std::string("error"));
    for (const Severity candidate :
         {Severity::Error, Severity::Warning, Severity::Remark, Severity::Note}) {
        if (severity == severityName(candidate))
            diagnostic.severity = candidate;
    }
    diagnostic.catastrophic = json.value("catastrophic", false);
    diagnostic.code = json.value("code", std::string());
    diagnostic.message = json.value("message", std::string());
    if (const auto notes = json.find("notes"); notes != json.end() && notes->is_array()) {
        for (const nlohmann::json &note : *notes)
            diagnostic.notes.push_back(note.get<Diagnostic>());
    }
}

void to_json(nlohmann::json &json, const CompilerIdentity &identity)
{
    json = nlohmann::json{
        {"name", identity.name}, {"version", identity.version}, {"command", identity.command}};
}

void from_json(const nlohmann::json &json, CompilerIdentity &identity)
{
    identity = CompilerIdentity{};
    identity.name = json.value("name", std::string());
    identity.version = json.value("version", std::string());
    identity.command = json.value("command", std::string());
}

void to_json(nlohmann::json &json, const KernelTemplate &kernel)
{
    json = nlohmann::json{{"name", kernel.name},
                          {"templateParameters", kernel.templateParameters},
                          {"parameterNames", kernel.parameterNames},
                          {"parameters", kernel.parameters},
                          {"line", kernel.line},
                          {"placeholder", kernel.placeholder()}};
}

void from_json(const nlohmann::json &json, KernelTemplate &kernel)
{
    kernel = KernelTemplate{};
    kernel.name = json.value("name", std::string());
    kernel.templateParameters = json.value("templateParameters", std::vector<std::string>{});
    kernel.parameterNames = json.value("parameterNames", std::vector<std::string>{});
    kernel.parameters = json.value("parameters", std::string());
    kernel.line = json.value("line", 0);
}

void to_json(nlohmann::json &json, const DiagnosticCounts &counts)
{
    json = nlohmann::json{
        {"errors", counts.errors}, {"warnings", counts.warnings}, {"remarks", counts.remarks}};
}

void to_json(nlohmann::json &json, const KernelResources &resources)
{
    json = nlohmann::json{
        {"reported", resources.reported},
        {"registers", resources.registers},
        {"staticSharedBytes", resources.staticSharedBytes},
        {"constantBytes", resources.constantBytes},
        {"stackFrameBytes", resources.stackFrameBytes},
        {"spillStoreBytes", resources.spillStoreBytes},
        {"spillLoadBytes", resources.spillLoadBytes},
        {"barriers", resources.barriers},
        {"maxThreadsPerBlock", resources.maxThreadsPerBlock},
    };
}

void to_json(nlohmann::json &json, const KernelInfo &kernel)
{
    json = nlohmann::json{
        {"loweredName", kernel.loweredName},       {"readableName", kernel.readableName},
        {"nameExpression", kernel.nameExpression}, {"externC", kernel.externC},
        {"sourceLine", kernel.sourceLine},         {"spills", kernel.spills()},
        {"resources", kernel.resources},
    };
    if (!kernel.declaringFile.empty()) {
        json["declaringFile"] = kernel.declaringFile;
        json["declaringLine"] = kernel.declaringLine;
        json["declaration"] = kernel.declaration;
    }
}

namespace {

// An integer that does not fit its field is refused as written (jsonread::integerFrom), never
// wrapped: an optLevel of 99999999999 must not read as 1215752191.
template <typename T> void readIfPresent(const nlohmann::json &json, const char *key, T &value)
{
    const auto it = json.find(key);
    if (it == json.end() || it->is_null())
        return;
    try {
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
            value = jsonread::integerFrom<T>(*it);
        else
            it->get_to(value);
    } catch (const nlohmann::json::exception &error) {
        // Named by its field, without nlohmann's "[json.exception.type_error.302] ".
        std::string message = error.what();
        if (message.starts_with("[json.exception.")) {
            if (const std::size_t end = message.find("] "); end != std::string::npos)
                message.erase(0, end + 2);
        }
        jsonread::malformed(*it, std::string(key) + ": " + message);
    }
}

} // namespace

void from_json(const nlohmann::json &json, KernelResources &resources)
{
    resources = KernelResources{};
    readIfPresent(json, "reported", resources.reported);
    readIfPresent(json, "registers", resources.registers);
    readIfPresent(json, "staticSharedBytes", resources.staticSharedBytes);
    readIfPresent(json, "constantBytes", resources.constantBytes);
    readIfPresent(json, "stackFrameBytes", resources.stackFrameBytes);
    readIfPresent(json, "spillStoreBytes", resources.spillStoreBytes);
    readIfPresent(json, "spillLoadBytes", resources.spillLoadBytes);
    readIfPresent(json, "barriers", resources.barriers);
    readIfPresent(json, "maxThreadsPerBlock", resources.maxThreadsPerBlock);
}

void from_json(const nlohmann::json &json, KernelInfo &kernel)
{
    kernel = KernelInfo{};
    json.at("loweredName").get_to(kernel.loweredName);
    readIfPresent(json, "readableName", kernel.readableName);
    readIfPresent(json, "nameExpression", kernel.nameExpression);
    readIfPresent(json, "externC", kernel.externC);
    readIfPresent(json, "sourceLine", kernel.sourceLine);
    readIfPresent(json, "resources", kernel.resources);
    readIfPresent(json, "declaringFile", kernel.declaringFile);
    readIfPresent(json, "declaringLine", kernel.declaringLine);
    readIfPresent(json, "declaration", kernel.declaration);
}

void to_json(nlohmann::json &json, const CompileResult &result)
{
    json = compileResultToJson(result, false);
}

nlohmann::json compileResultToJson(const CompileResult &result, bool includePtx)
{
    nlohmann::json json{
        {"success", result.success},
        {"fileName", result.fileName},
        {"options", result.options},
        {"diagnostics", result.diagnostics},
        {"counts", result.counts()},
        {"kernels", result.kernels},
        {"compileTimeMs", result.compileTimeMs},
        {"fromCache", result.fromCache},
        {"failureMessage", result.failureMessage},
        {"compiledBy", result.compiledBy},
        {"notes", result.notes},
        {"templates", result.templates},
    };
    if (includePtx)
        json["ptx"] = result.ptx;
    return json;
}

void to_json(nlohmann::json &json, const CompileOptions &options)
{
    json = nlohmann::json{
        {"arch", options.arch},
        {"optLevel", options.optLevel},
        {"deviceDebug", options.deviceDebug},
        {"lineInfo", options.lineInfo},
        {"fastMath", options.fastMath},
        {"cppStandard", options.cppStandard},
        {"maxRegisters", options.maxRegisters},
        {"defines", options.defines},
        {"includeDirs", options.includeDirs},
        {"nameExpressions", options.nameExpressions},
    };
    // Written only when set, so that a project saved again stays as it was.
    if (options.compiler != "auto")
        json["compiler"] = options.compiler;
    if (!options.flags.empty())
        json["flags"] = options.flags;
}

void from_json(const nlohmann::json &json, CompileOptions &options)
{
    // A wrongly typed field still throws (nlohmann::json::type_error): that file is damaged,
    // not old, and the loader reports it.
    readIfPresent(json, "arch", options.arch);
    readIfPresent(json, "optLevel", options.optLevel);
    readIfPresent(json, "deviceDebug", options.deviceDebug);
    readIfPresent(json, "lineInfo", options.lineInfo);
    readIfPresent(json, "fastMath", options.fastMath);
    readIfPresent(json, "cppStandard", options.cppStandard);
    readIfPresent(json, "maxRegisters", options.maxRegisters);
    readIfPresent(json, "defines", options.defines);
    readIfPresent(json, "includeDirs", options.includeDirs);
    readIfPresent(json, "nameExpressions", options.nameExpressions);
    readIfPresent(json, "compiler", options.compiler);
    readIfPresent(json, "flags", options.flags);
}

} // namespace cuwb
