#include "worker/compileprotocol.h"

#include "compiler/compilejson.h"
#include "util/base64.h"
#include "util/jsonread.h"

namespace cuwb {

namespace {

using json = nlohmann::json;

void requireCompileType(const json &message, const char *type)
{
    if (!message.is_object() || message.value("type", std::string()) != type)
        jsonread::malformed(message, std::string("not a '") + type + "' message");
}

} // namespace

json makeCompileRequest(std::string_view source, std::string_view fileName,
                        const CompileOptions &options)
{
    return json{{"type", message::kCompile},
                {"source", source},
                {"fileName", fileName},
                {"options", options}};
}

CompileJob parseCompileRequest(const json &message)
{
    requireCompileType(message, message::kCompile);
    CompileJob job;
    message.at("source").get_to(job.source);
    message.at("fileName").get_to(job.fileName);
    message.at("options").get_to(job.options);
    return job;
}

json makeCompiledReply(const json &id, const CompileResult &result)
{
    const json body{{"success", result.success},
                    {"fileName", result.fileName},
                    {"options", result.options},
                    {"diagnostics", result.diagnostics},
                    {"log", result.log},
                    {"ptx", result.ptx},
                    {"cubin", toBase64(result.cubin)},
                    {"kernels", result.kernels},
                    {"compileTimeMs", result.compileTimeMs},
                    {"fromCache", result.fromCache},
                    {"failureMessage", result.failureMessage},
                    {"compiledBy", result.compiledBy},
                    {"notes", result.notes},
                    {"templates", result.templates}};
    return json{{"id", id}, {"type", message::kCompiled}, {"result", body}};
}

CompileResult parseCompiledReply(const json &message)
{
    requireCompileType(message, message::kCompiled);
    const json &body = message.at("result");
    CompileResult result;
    body.at("success").get_to(result.success);
    body.at("fileName").get_to(result.fileName);
    body.at("options").get_to(result.options);
    body.at("diagnostics").get_to(result.diagnostics);
    body.at("log").get_to(result.log);
    body.at("ptx").get_to(result.ptx);
    if (!fromBase64(body.at("cubin").get<std::string>(), result.cubin))
        jsonread::malformed(message, "the CUBIN is not base64");
    body.at("kernels").get_to(result.kernels);
    result.compileTimeMs = body.value("compileTimeMs", 0.0);
    result.fromCache = body.value("fromCache", false);
    result.failureMessage = body.value("failureMessage", std::string());
    if (const auto by = body.find("compiledBy"); by != body.end())
        by->get_to(result.compiledBy);
    if (const auto notes = body.find("notes"); notes != body.end())
        notes->get_to(result.notes);
    if (const auto templates = body.find("templates"); templates != body.end())
        templates->get_to(result.templates);
    if (result.success)
        result.lineMap = PtxLineMap::build(result.ptx, result.fileName);
    return result;
}

} // namespace cuwb
