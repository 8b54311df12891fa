// The worker protocol: one JSON object per line over the worker's stdin/stdout, versioned.
// Every request has an "id" and a "type"; every reply repeats the id.
//
//   -> {"id":1,"type":"hello","protocol":1}
//   <- {"id":1,"type":"hello","protocol":1,"worker":"0.1.0","device":{DeviceInfo},
//       "freeMemoryBytes":N,"driverVersion":13000,"nvrtcVersion":"13.0"}
//   -> {"id":2,"type":"run","request":{RunRequest}}
//   <- {"id":2,"type":"runResult","result":{RunResult}}
//   -> {"id":3,"type":"page","handle":"run2/c","first":0,"count":256}
//   <- {"id":3,"type":"page","handle":"run2/c","first":0,"values":["1.5","nan",...]}
//   -> {"id":4,"type":"export","handle":"run2/c","path":"/tmp/c.npy","format":"npy"}
//   <- {"id":4,"type":"exported","path":"/tmp/c.npy","bytes":N}
//   -> {"id":5,"type":"release"}            (frees the buffers of the last run)
//   -> {"id":6,"type":"shutdown"}
//   <- {"id":N,"type":"error","message":"..."} for a request it could not serve
//
// After a device fault or a timeout the worker answers the run, then exits: the CUDA context
// is unusable (MEASUREMENT.md, Faults) and the client starts a new worker.
#pragma once

#include "compiler/compileoptions.h"
#include "launch/launchspec.h"
#include "run/runresult.h"
#include "run/verification.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cuwb {

inline constexpr int kWorkerProtocolVersion = 1;

struct RunRequest
{
    std::string source;
    std::string fileName = "kernel.cu";
    CompileOptions options;      // the worker compiles for its own device's architecture
    LaunchSpec launch;
    VerificationSpec verification;
};

struct PageRequest
{
    std::string handle;
    std::uint64_t first = 0;
    std::uint32_t count = 256;
};

struct Page
{
    std::string handle;
    std::uint64_t first = 0;
    std::vector<std::string> values; // formatted elements; vectors as "(1, 2, 3, 4)"
};

enum class ExportFormat { Npy, Bin, Csv };

// JSON conversions (protocol.cpp). from_json throws nlohmann::json::exception on malformed input.
void to_json(nlohmann::json &j, const RunRequest &r);
void from_json(const nlohmann::json &j, RunRequest &r);
void to_json(nlohmann::json &j, const RunResult &r);
void from_json(const nlohmann::json &j, RunResult &r);
void to_json(nlohmann::json &j, const Page &p);
void from_json(const nlohmann::json &j, Page &p);

} // namespace cuwb
