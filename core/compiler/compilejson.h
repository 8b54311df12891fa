// JSON forms of the compiler's value types, shared by `cuwb compile --json`, the worker
// protocol and project files, so that every consumer reads the same field names.
// The CUBIN never goes into JSON (binary, and rebuilt from the source); PTX only on request.
#pragma once

#include "compiler/compileoptions.h"
#include "compiler/compileresult.h"
#include "compiler/diagnostic.h"
#include "compiler/kernelinfo.h"

#include <nlohmann/json.hpp>

namespace cuwb {

void to_json(nlohmann::json &json, const Diagnostic &diagnostic);
void from_json(const nlohmann::json &json, Diagnostic &diagnostic);
void to_json(nlohmann::json &json, const CompilerIdentity &identity);
void to_json(nlohmann::json &json, const KernelTemplate &kernel);
void from_json(const nlohmann::json &json, KernelTemplate &kernel);
void from_json(const nlohmann::json &json, CompilerIdentity &identity);
void to_json(nlohmann::json &json, const DiagnosticCounts &counts);
void to_json(nlohmann::json &json, const KernelResources &resources);
void to_json(nlohmann::json &json, const KernelInfo &kernel);
// Missing fields keep their defaults.
void from_json(const nlohmann::json &json, KernelResources &resources);
void from_json(const nlohmann::json &json, KernelInfo &kernel);
void to_json(nlohmann::json &json, const CompileResult &result); // without PTX

// Missing fields keep their defaults, so older project files still load.
void to_json(nlohmann::json &json, const CompileOptions &options);
void from_json(const nlohmann::json &json, CompileOptions &options);

nlohmann::json compileResultToJson(const CompileResult &result, bool includePtx);

} // namespace cuwb
