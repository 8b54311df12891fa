// JSON forms of the launch model (element types, buffer inits, arguments, launch specs,
// verification specs), shared by project files, the worker protocol and exports.
// Reading tolerates missing fields (they keep their defaults, so older files load) and
// expression fields written as numbers ("block": [256, 1, 1]); a field of the wrong type or
// an unknown name throws nlohmann::json::exception whose message names the field, e.g.
// "arguments[1].role: expected one of in, out, inout, found 'output'".
#pragma once

#include "kernel/elementtype.h"
#include "kernel/kernelsignature.h"
#include "launch/launchspec.h"
#include "launch/verificationspec.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cuwb {

void to_json(nlohmann::json &json, const ElementType &type); // its name(): "float4"
void from_json(const nlohmann::json &json, ElementType &type);
void to_json(nlohmann::json &json, const BufferInit &init); // only the fields of its kind
void from_json(const nlohmann::json &json, BufferInit &init);
void to_json(nlohmann::json &json, const ArgumentSpec &argument);
void from_json(const nlohmann::json &json, ArgumentSpec &argument);
void to_json(nlohmann::json &json, const GlobalSpec &global);
void from_json(const nlohmann::json &json, GlobalSpec &global);
void to_json(nlohmann::json &json, const LaunchSpec &spec);
void from_json(const nlohmann::json &json, LaunchSpec &spec);
void to_json(nlohmann::json &json, const VerificationSpec &spec);
void from_json(const nlohmann::json &json, VerificationSpec &spec);
// One object for one check or none ({"kind": "none"}), as projects always had it; an array for
// several checks, or when it was read from one (Verification::listForm).
void to_json(nlohmann::json &json, const Verification &verification);
void from_json(const nlohmann::json &json, Verification &verification);

// A signature's parameter as `cuwb compile --json` and `cuwb check --json` list it:
// name, typeText, pointer, elementType, const, restrict, sizeBytes, ptxSizeBytes, supported,
// reason. Written only (signatures are always re-read from the source).
void to_json(nlohmann::json &json, const KernelParameter &parameter);
void to_json(nlohmann::json &json, const LaunchIssue &issue); // field, message, position

// "launch" + "arguments[0].role: expected ..." -> "launch.arguments[0].role: expected ...";
// "kernel" + "expected a string" -> "kernel: expected a string".
std::string joinFieldPath(const std::string &field, const std::string &message);

// The message of a nlohmann::json exception without its "[json.exception.type_error.302] "
// prefix, for showing to a user.
std::string plainJsonError(const std::exception &error);

} // namespace cuwb
