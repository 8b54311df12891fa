// Project: a *.cuwb file — everything needed to reproduce a run: the source (inline or a
// path relative to the project file), compile options, the launch, the verification, how to
// measure and the sweep.
// JSON with a schema version; fields this version does not know are kept and written back.
#pragma once

#include "compiler/compileoptions.h"
#include "launch/launchspec.h"
#include "launch/verificationspec.h"
#include "measure/measurement.h"
#include "sweep/sweep.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace cuwb {

inline constexpr int kProjectSchemaVersion = 1;

// How many entries a project's lists may have, checked when it is read (parseProject refuses
// the project at the first entry past a limit, with its line). No real project comes near
// them: the samples and the real-world projects have at most a dozen variables, arguments or
// defines, and a kernel's parameters must fit in 32,764 bytes. They exist because every entry
// is evaluated at every check and at every sweep point: 1,000 chained launch variables take
// about 0.1 s in `cuwb check`, 100,000 took 10 s (docs/benchmarks.md, "Project limits").
// Launch variables, arguments, globals, launch defines, -D defines, include folders and name
// expressions, each.
inline constexpr std::size_t kMaxProjectListEntries = 1000;
// A sweep's axes and constraints: each is applied or evaluated at every one of up to
// kMaxSweepPoints points. More than a dozen axes of two values is past the points limit
// already. (The values of a list axis are limited by kMaxSweepPoints.)
inline constexpr std::size_t kMaxSweepAxes = 32;
// A project's checks, and the further kernels of a launch sequence: each check compiles and
// runs its own reference at every run, each kernel is launched and timed at every sample; real
// projects have a handful (one public collection checks four outputs).
inline constexpr std::size_t kMaxVerificationChecks = 64;
inline constexpr std::size_t kMaxSequenceKernels = 64;
inline constexpr std::size_t kMaxSweepConstraints = 100;
// How deep a project file may nest its objects and arrays, checked before it is parsed
// (util/jsondepth.h): a project's own fields nest six deep; what a tree of 200,000 levels does
// to the stack is a crash that takes a whole grading run with it.
inline constexpr std::size_t kMaxProjectJsonDepth = 64;

struct Project
{
    std::string name;
    std::string sourcePath;   // relative to the project file; empty when inline
    std::string inlineSource; // used when sourcePath is empty
    CompileOptions options;
    LaunchSpec launch;
    Verification verification; // any number of checks; none: not verified
    // How to measure: sample settings, bytes and FLOP expressions. Written only when it differs
    // from the defaults, so projects that never set it stay as they were.
    MeasureSpec measure;
    // The sweep of `cuwb sweep` and the GUI's sweep view: axes, constraints, sampling. Absent
    // until one is set; written only then.
    std::optional<SweepSpec> sweep;
    nlohmann::json unknownFields = nlohmann::json::object(); // kept for save
};

struct ProjectLoad
{
    std::optional<Project> project;
    std::string error; // "line 4, column 12: expected ',' or '}'" / "schema version 3 is newer than
                       // this CUDA Workbench (1)"
    int line = 0;      // 1-based, 0 when not about a position
    int column = 0;
};

ProjectLoad parseProject(std::string_view json);
ProjectLoad loadProject(const std::string &path);
std::string serializeProject(const Project &project); // pretty JSON, with unknown fields
// Atomic: writes a temporary file beside `path` and renames it. Returns an error or empty.
std::string saveProject(const Project &project, const std::string &path);
// Paths in a project are relative to the project file. Makes the include folders, the
// buffers' init files and the verification's reference file absolute against projectPath's
// folder (the source path stays as written: readProjectSource resolves it), and adds the
// source's own folder to the include path so a header beside it is found.
void resolveProjectPaths(Project &project, const std::string &projectPath);

// The source text: inline, or read from sourcePath relative to projectPath's folder.
// Returns false with a message in `error` when the file cannot be read.
bool readProjectSource(const Project &project, const std::string &projectPath, std::string &source,
                       std::string &error);

// The worker request that runs the project's launch on `source` (from readProjectSource):
// its compile options, launch and verification, under the source file's name ("kernel.cu"
// for an inline source: the project's name, or "kernel").
RunRequest projectRunRequest(const Project &project, std::string source);

} // namespace cuwb
