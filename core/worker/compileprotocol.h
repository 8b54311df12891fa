// The compile server's protocol (`cuwb compile-server`, compileserver.h): the same JSON lines,
// ids and hello as the worker protocol (protocol.h), so WorkerProcess carries it, plus one
// request. Unlike `cuwb compile --json`, the reply carries everything a CompileResult holds
// (the CUBIN as base64) so that the GUI gets the very result an in-process compile gives.
//
//   -> {"id":2,"type":"compile","source":"...","fileName":"a.cu","options":{CompileOptions}}
//   <- {"id":2,"type":"compiled","result":{success, fileName, options, diagnostics, log, ptx,
//       cubin, kernels, compileTimeMs, fromCache, failureMessage}}
#pragma once

#include "compiler/compileoptions.h"
#include "compiler/compileresult.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace cuwb {

namespace message {
inline constexpr const char *kCompile = "compile";
inline constexpr const char *kCompiled = "compiled";
} // namespace message

struct CompileJob
{
    std::string source;
    std::string fileName;
    CompileOptions options;
};

nlohmann::json makeCompileRequest(std::string_view source, std::string_view fileName,
                                  const CompileOptions &options);
// Throws nlohmann::json::exception when the message is not a compile request.
CompileJob parseCompileRequest(const nlohmann::json &message);

nlohmann::json makeCompiledReply(const nlohmann::json &id, const CompileResult &result);
// Throws nlohmann::json::exception when the message is not a compiled reply. The PTX line map
// is rebuilt here from the PTX, as the compile built it.
CompileResult parseCompiledReply(const nlohmann::json &message);

} // namespace cuwb
