#include "project/project.h"

#include "util/boundedfile.h"
#include "util/format.h"
#include "util/jsondepth.h"

#include "compiler/compilejson.h"
#include "launch/launchjson.h"
#include "measure/measurejson.h"
#include "sweep/sweepjson.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cuwb {

using nlohmann::json;

namespace {

// The sections this version reads; anything else at the top level, or inside these
// objects, is kept in unknownFields (nested ones under the section's key) and written back.
const char *const kTopLevelKeys[] = {"schemaVersion", "name",         "source",  "compileOptions",
                                     "launch",        "verification", "measure", "sweep"};

bool isKnown(const std::string &key, std::initializer_list<const char *> keys)
{
    for (const char *known : keys) {
        if (key == known)
            return true;
    }
    return false;
}

void keepUnknown(const json &section, const char *sectionKey,
                 std::initializer_list<const char *> known, json &unknown)
{
    if (!section.is_object())
        return;
    for (const auto &[key, value] : section.items()) {
        if (!isKnown(key, known))
            unknown[sectionKey][key] = value;
    }
}

// 1-based line and column of a byte offset.
void lineAndColumn(std::string_view text, std::size_t offset, int &line, int &column)
{
    line = 1;
    column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
}

ProjectLoad failure(std::string message)
{
    ProjectLoad load;
    load.error = std::move(message);
    return load;
}

// A minimal walk over JSON text that is known to be valid, to find where a value starts, so
// that an error in a section's content can name its line and column like a syntax error does.
class JsonLocator
{
public:
    explicit JsonLocator(std::string_view text)
        : m_text(text)
    {}

    // Offset of the value at `path` ("sweep", "axes", "[1]", "kind"), or of the deepest part of
    // the path that exists; nullopt when not even the first step exists.
    std::optional<std::size_t> locate(const std::vector<std::string> &path) const
    {
        std::size_t at = skipSpace(0);
        std::optional<std::size_t> found;
        for (const std::string &step : path) {
            const std::optional<std::size_t> next = child(at, step);
            if (!next) {
                break;
            }
            at = *next;
            found = at;
        }
        return found;
    }

private:
    std::size_t skipSpace(std::size_t at) const
    {
        while (at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[at]))) {
            ++at;
        }
        return at;
    }

    // Past the string that starts at `at` (a quote); its raw text in `raw`.
    std::size_t skipString(std::size_t at, std::string *raw = nullptr) const
    {
        std::size_t end = at + 1;
        while (end < m_text.size() && m_text[end] != '"') {
            end += m_text[end] == '\\' ? 2 : 1;
        }
        if (raw) {
            *raw = std::string(m_text.substr(at + 1, std::min(end, m_text.size()) - at - 1));
        }
        return std::min(end + 1, m_text.size());
    }

    std::size_t skipValue(std::size_t at) const
    {
        if (at >= m_text.size()) {
            return at;
        }
        if (m_text[at] == '"') {
            return skipString(at);
        }
        if (m_text[at] == '{' || m_text[at] == '[') {
            int depth = 0;
            while (at < m_text.size()) {
                const char c = m_text[at];
                if (c == '"') {
                    at = skipString(at);
                    continue;
                }
                if (c == '{' || c == '[') {
                    ++depth;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return at + 1;
                }
                ++at;
            }
            return at;
        }
        while (at < m_text.size() && m_text[at] != ',' && m_text[at] != '}' && m_text[at] != ']' &&
               !std::isspace(static_cast<unsigned char>(m_text[at]))) {
            ++at;
        }
        return at;
    }

    std::optional<std::size_t> child(std::size_t at, const std::string &step) const
    {
        if (at >= m_text.size()) {
            return std::nullopt;
        }
        const bool index = step.size() > 2 && step.front() == '[' && step.back() == ']';
        if (m_text[at] == '[' && index) {
            const std::size_t wanted = std::stoul(step.substr(1, step.size() - 2));
            std::size_t position = skipSpace(at + 1);
            for (std::size_t i = 0; position < m_text.size() && m_text[position] != ']'; ++i) {
                if (i == wanted) {
                    return position;
                }
                position = skipSpace(skipValue(position));
                if (position < m_text.size() && m_text[position] == ',') {
                    position = skipSpace(position + 1);
                }
            }
            return std::nullopt;
        }
        if (m_text[at] != '{' || index) {
            return std::nullopt;
        }
        std::size_t position = skipSpace(at + 1);
        while (position < m_text.size() && m_text[position] == '"') {
            std::string key;
            position = skipSpace(skipString(position, &key));
            position = skipSpace(position + 1); // the colon
            if (key == step) {
                return position;
            }
            position = skipSpace(skipValue(position));
            if (position < m_text.size() && m_text[position] == ',') {
                position = skipSpace(position + 1);
            }
        }
        return std::nullopt;
    }

    std::string_view m_text;
};

// "sweep.axes[1].kind: expected ..." -> {"sweep", "axes", "[1]", "kind"}.
std::vector<std::string> fieldPathOf(const std::string &message)
{
    std::vector<std::string> path;
    const std::string head = message.substr(0, message.find(": "));
    if (head.find(' ') != std::string::npos) {
        return path;
    }
    std::string step;
    for (const char c : head) {
        if (c == '.' || c == '[') {
            if (!step.empty()) {
                path.push_back(step);
            }
            step = c == '[' ? "[" : "";
        } else if (c == ']') {
            path.push_back(step + "]");
            step.clear();
        } else {
            step += c;
        }
    }
    if (!step.empty()) {
        path.push_back(step);
    }
    return path;
}

// The failure of a section's content, with the line and column of the value it is about.
ProjectLoad failureAt(std::string_view text, std::string message)
{
    ProjectLoad load = failure(message);
    if (const auto offset = JsonLocator(text).locate(fieldPathOf(message))) {
        lineAndColumn(text, *offset, load.line, load.column);
        load.error = "line " + std::to_string(load.line) + ", column " +
                     std::to_string(load.column) + ": " + message;
    }
    return load;
}

// The first list of `project` longer than its limit, as "FIELD[i]: ..." with i the first entry
// past the limit, so that failureAt finds its line; nullopt when every list is within limits.
std::optional<std::string> listOverLimit(const Project &project)
{
    struct List
    {
        std::string field;
        std::size_t size;
        std::size_t limit;
        const char *what;
        const char *per;
    };
    const LaunchSpec &launch = project.launch;
    const CompileOptions &options = project.options;
    std::vector<List> lists = {
        {"launch.variables", launch.variables.size(), kMaxProjectListEntries, "launch variables",
         "a project"},
        {"launch.arguments", launch.arguments.size(), kMaxProjectListEntries, "arguments",
         "a project"},
        {"launch.globals", launch.globals.size(), kMaxProjectListEntries, "globals", "a project"},
        {"launch.defines", launch.defines.size(), kMaxProjectListEntries, "launch defines",
         "a project"},
        {"compileOptions.defines", options.defines.size(), kMaxProjectListEntries, "defines",
         "a project"},
        {"compileOptions.includeDirs", options.includeDirs.size(), kMaxProjectListEntries,
         "include folders", "a project"},
        {"compileOptions.nameExpressions", options.nameExpressions.size(), kMaxProjectListEntries,
         "name expressions", "a project"},
        {"verification", project.verification.checks.size(), kMaxVerificationChecks, "checks",
         "a project"},
        {"launch.then", launch.then.size(), kMaxSequenceKernels, "further kernels", "a sequence"},
    };
    for (std::size_t i = 0; i < launch.then.size(); ++i) {
        lists.push_back({"launch.then[" + std::to_string(i) + "].arguments",
                         launch.then[i].arguments.size(), kMaxProjectListEntries, "arguments",
                         "a kernel"});
    }
    if (project.sweep) {
        const SweepSpec &sweep = *project.sweep;
        lists.push_back({"sweep.axes", sweep.axes.size(), kMaxSweepAxes, "axes", "a sweep"});
        lists.push_back({"sweep.constraints", sweep.constraints.size(), kMaxSweepConstraints,
                         "constraints", "a sweep"});
        for (std::size_t i = 0; i < sweep.axes.size(); ++i) {
            lists.push_back({"sweep.axes[" + std::to_string(i) + "].values",
                             sweep.axes[i].values.size(), kMaxSweepPoints, "values",
                             "an axis (the points limit of a sweep)"});
        }
    }
    for (const List &list : lists) {
        if (list.size > list.limit) {
            return list.field + "[" + std::to_string(list.limit) + "]: " + formatCount(list.size) +
                   " " + list.what + "; the limit is " + formatCount(list.limit) + " " + list.per;
        }
    }
    return std::nullopt;
}

// A number beyond a double's range (1e400): the JSON parser names the literal but not where
// it is. It is found in the text (outside strings) to give the line and column.
ProjectLoad numberOutOfRange(std::string_view text, const json::out_of_range &error)
{
    const std::string message = plainJsonError(error);
    const auto open = message.find('\'');
    const auto close = open == std::string::npos ? open : message.find('\'', open + 1);
    if (close == std::string::npos)
        return failure(message);
    const std::string literal = message.substr(open + 1, close - open - 1);
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (inString) {
            if (text[i] == '\\')
                ++i;
            else if (text[i] == '"')
                inString = false;
        } else if (text[i] == '"') {
            inString = true;
        } else if (text.substr(i, literal.size()) == literal) {
            ProjectLoad load;
            lineAndColumn(text, i, load.line, load.column);
            load.error = "line " + std::to_string(load.line) + ", column " +
                         std::to_string(load.column) + ": the number " + literal +
                         " is beyond what a double holds (about 1.8e308)";
            return load;
        }
    }
    return failure("the number " + literal + " is beyond what a double holds (about 1.8e308)");
}

} // namespace

namespace {

// The text as JSON: nothing nested too deep, no syntax error, no number out of range; the
// error placed at its line and column otherwise.
std::optional<ProjectLoad> parseJson(std::string_view text, json &document)
{
    if (const std::optional<std::size_t> deep = findJsonDeeperThan(text, kMaxProjectJsonDepth)) {
        ProjectLoad load;
        lineAndColumn(text, *deep, load.line, load.column);
        load.error = "line " + std::to_string(load.line) + ", column " +
                     std::to_string(load.column) + ": nested deeper than " +
                     std::to_string(kMaxProjectJsonDepth) +
                     " levels of objects and arrays, the limit for a project file";
        return load;
    }
    try {
        document = json::parse(text.begin(), text.end());
    } catch (const json::parse_error &error) {
        ProjectLoad load;
        // byte is 1-based and points just past the offending character.
        const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
        lineAndColumn(text, offset, load.line, load.column);
        std::string message = plainJsonError(error);
        // "parse error at line 4, column 12: syntax error while parsing object - ..." ->
        // keep the part after the position nlohmann writes itself.
        if (const auto colon = message.find(": ");
            colon != std::string::npos && message.starts_with("parse error"))
            message.erase(0, colon + 2);
        if (message.starts_with("syntax error while parsing value - "))
            message.erase(0, std::strlen("syntax error while parsing value - "));
        load.error = "line " + std::to_string(load.line) + ", column " +
                     std::to_string(load.column) + ": " + message;
        return load;
    } catch (const json::out_of_range &error) {
        return numberOutOfRange(text, error);
    }
    return std::nullopt;
}

// A project file's top: a JSON object whose schemaVersion this version understands.
std::optional<ProjectLoad> checkSchema(const json &document)
{
    if (!document.is_object())
        return failure("a project file must be a JSON object, not " +
                       std::string(document.type_name()));

    const auto version = document.find("schemaVersion");
    if (version == document.end())
        return failure("schemaVersion is missing; this is not a CUDA Workbench project");
    if (!version->is_number_integer() || version->get<std::int64_t>() < 1)
        return failure("schemaVersion must be a whole number of 1 or more, found " +
                       version->dump());
    if (version->get<std::int64_t>() > kProjectSchemaVersion)
        return failure("schema version " + std::to_string(version->get<std::int64_t>()) +
                       " is newer than this CUDA Workbench understands (" +
                       std::to_string(kProjectSchemaVersion) + ")");
    return std::nullopt;
}

// The project's name, when it has one.
std::optional<ProjectLoad> readName(const json &document, Project &project)
{
    if (const auto name = document.find("name"); name != document.end()) {
        if (!name->is_string())
            return failure("name: expected a string, found " + std::string(name->type_name()));
        project.name = name->get<std::string>();
    }
    return std::nullopt;
}

// Where the source is: a path beside the project, or inline.
std::optional<ProjectLoad> readSource(const json &document, Project &project)
{
    const auto source = document.find("source");
    if (source == document.end())
        return failure("source is missing: give {\"path\": \"kernel.cu\"} or "
                       "{\"inline\": \"...\"}");
    if (source->is_string()) {
        project.sourcePath = source->get<std::string>();
    } else if (source->is_object()) {
        const auto path = source->find("path");
        const auto inlineText = source->find("inline");
        if (path != source->end() && !path->is_string())
            return failure("source.path: expected a string, found " +
                           std::string(path->type_name()));
        if (inlineText != source->end() && !inlineText->is_string())
            return failure("source.inline: expected a string, found " +
                           std::string(inlineText->type_name()));
        if (path != source->end() && inlineText != source->end())
            return failure("source: give either path or inline, not both");
        if (path != source->end())
            project.sourcePath = path->get<std::string>();
        else if (inlineText != source->end())
            project.inlineSource = inlineText->get<std::string>();
        else
            return failure("source: needs path or inline");
        if (path != source->end() && project.sourcePath.empty())
            return failure("source.path is empty");
        keepUnknown(*source, "source", {"path", "inline"}, project.unknownFields);
    } else {
        return failure("source: expected an object with path or inline, found " +
                       std::string(source->type_name()));
    }
    return std::nullopt;
}

// The compile options, their unknown fields kept.
std::optional<ProjectLoad> readCompileOptions(const json &document, Project &project)
{
    if (const auto options = document.find("compileOptions"); options != document.end()) {
        if (!options->is_object())
            return failure("compileOptions: expected an object, found " +
                           std::string(options->type_name()));
        from_json(*options, project.options);
        keepUnknown(*options, "compileOptions",
                    {"arch", "optLevel", "deviceDebug", "lineInfo", "fastMath", "cppStandard",
                     "maxRegisters", "defines", "includeDirs", "nameExpressions", "compiler",
                     "flags"},
                    project.unknownFields);
    }
    return std::nullopt;
}

// The launch, its unknown fields kept.
std::optional<ProjectLoad> readLaunch(const json &document, Project &project)
{
    if (const auto launch = document.find("launch"); launch != document.end()) {
        from_json(*launch, project.launch);
        keepUnknown(*launch, "launch",
                    {"kernel", "variables", "defines", "tunerDefines", "globals", "arguments",
                     "grid", "block", "dynamicSharedBytes", "deadlineSeconds", "then"},
                    project.unknownFields);
    }
    return std::nullopt;
}

// The verification: one check or a list, each check's unknown fields kept by position.
std::optional<ProjectLoad> readVerification(const json &document, Project &project)
{
    if (const auto verification = document.find("verification"); verification != document.end()) {
        from_json(*verification, project.verification);
        const auto keep = [](const json &check, json &unknown) {
            keepUnknown(check, "verification",
                        {"kind", "output", "expression", "referenceKernel", "file", "reduce", "of",
                         "expected", "count", "mask", "tolerance", "toleranceValue", "atol",
                         "rtol"},
                        unknown);
        };
        if (verification->is_array()) {
            // A list's unknown fields are kept per check, by position.
            json perCheck = json::array();
            bool any = false;
            for (const json &check : *verification) {
                json unknown = json::object();
                keep(check, unknown);
                any = any || !unknown.empty();
                perCheck.push_back(unknown.empty() ? json::object() : unknown["verification"]);
            }
            if (any)
                project.unknownFields["verification"] = perCheck;
        } else {
            keep(*verification, project.unknownFields);
        }
    }
    return std::nullopt;
}

// What a measurement counts and how it samples, its settings checked.
std::optional<ProjectLoad> readMeasure(const json &document, Project &project)
{
    if (const auto measure = document.find("measure"); measure != document.end()) {
        from_json(*measure, project.measure);
        keepUnknown(*measure, "measure", {"bytes", "flops", "settings"}, project.unknownFields);
        if (const auto settings = measure->find("settings"); settings != measure->end()) {
            json &kept = project.unknownFields["measure"];
            for (const auto &[key, value] : settings->items()) {
                if (!isKnown(key, {"mode", "fixedSamples", "minSamples", "minGpuTimeSeconds",
                                   "targetRelativeNoise", "timeCapSeconds", "warmupLaunches",
                                   "plateauWindowSamples", "plateauMinImprovement"}))
                    kept["settings"][key] = value;
            }
            if (kept.is_null())
                project.unknownFields.erase("measure");
        }
        if (const auto problem = checkSampleSettings(project.measure.settings))
            return failure("measure.settings: " + *problem);
    }
    return std::nullopt;
}

// The sweep, its errors placed in the text.
std::optional<ProjectLoad> readSweep(const json &document, Project &project, std::string_view text)
{
    if (const auto sweep = document.find("sweep"); sweep != document.end()) {
        try {
            project.sweep = sweep->get<SweepSpec>();
        } catch (const json::exception &error) {
            return failureAt(text, joinFieldPath("sweep", plainJsonError(error)));
        }
        keepUnknown(
            *sweep, "sweep",
            {"axes", "combination", "constraints", "settings", "verify", "metrics", "roofline"},
            project.unknownFields);
    }
    return std::nullopt;
}

} // namespace

ProjectLoad parseProject(std::string_view text)
{
    json document;
    if (std::optional<ProjectLoad> failed = parseJson(text, document))
        return *failed;
    if (std::optional<ProjectLoad> failed = checkSchema(document))
        return *failed;

    Project project;
    std::string field;
    try {
        field = "name";
        if (std::optional<ProjectLoad> failed = readName(document, project))
            return *failed;
        field = "source";
        if (std::optional<ProjectLoad> failed = readSource(document, project))
            return *failed;
        field = "compileOptions";
        if (std::optional<ProjectLoad> failed = readCompileOptions(document, project))
            return *failed;
        field = "launch";
        if (std::optional<ProjectLoad> failed = readLaunch(document, project))
            return *failed;
        field = "verification";
        if (std::optional<ProjectLoad> failed = readVerification(document, project))
            return *failed;
        field = "measure";
        if (std::optional<ProjectLoad> failed = readMeasure(document, project))
            return *failed;
        field = "sweep";
        if (std::optional<ProjectLoad> failed = readSweep(document, project, text))
            return *failed;
    } catch (const json::exception &error) {
        const std::string message = plainJsonError(error);
        return failure(joinFieldPath(field, message));
    }
    for (const auto &[key, value] : document.items()) {
        if (!isKnown(key, {kTopLevelKeys[0], kTopLevelKeys[1], kTopLevelKeys[2], kTopLevelKeys[3],
                           kTopLevelKeys[4], kTopLevelKeys[5], kTopLevelKeys[6], kTopLevelKeys[7]}))
            project.unknownFields[key] = value;
    }
    if (const std::optional<std::string> problem = listOverLimit(project))
        return failureAt(text, *problem);
    ProjectLoad load;
    load.project = std::move(project);
    return load;
}

ProjectLoad loadProject(const std::string &path)
{
    const BoundedRead read = readBoundedFile(path, kMaxProjectFileBytes, "project");
    if (!read.ok())
        return failure(read.error);
    return parseProject(read.text);
}

std::string serializeProject(const Project &project)
{
    json document = json::object();
    // Unknown top-level fields first, so known ones win if a name ever collides.
    for (const auto &[key, value] : project.unknownFields.items()) {
        if (!isKnown(key,
                     {"source", "compileOptions", "launch", "verification", "measure", "sweep"}))
            document[key] = value;
    }
    document["schemaVersion"] = kProjectSchemaVersion;
    document["name"] = project.name;
    json source = json::object();
    if (!project.sourcePath.empty())
        source["path"] = project.sourcePath;
    else
        source["inline"] = project.inlineSource;
    document["source"] = source;
    document["compileOptions"] = project.options;
    document["launch"] = project.launch;
    document["verification"] = project.verification;
    const auto unknownMeasure = project.unknownFields.find("measure");
    if (project.measure != MeasureSpec{} || unknownMeasure != project.unknownFields.end()) {
        document["measure"] = project.measure;
        if (unknownMeasure != project.unknownFields.end() && unknownMeasure->is_object()) {
            // Unknown fields of the settings object go back inside it.
            if (const auto settings = unknownMeasure->find("settings");
                settings != unknownMeasure->end() && settings->is_object()) {
                for (const auto &[key, value] : settings->items()) {
                    if (!document["measure"]["settings"].contains(key))
                        document["measure"]["settings"][key] = value;
                }
            }
        }
    }
    if (project.sweep)
        document["sweep"] = *project.sweep;
    for (const char *section :
         {"source", "compileOptions", "launch", "verification", "measure", "sweep"}) {
        const auto unknown = project.unknownFields.find(section);
        if (unknown == project.unknownFields.end() || !unknown->is_object())
            continue;
        if (std::string_view(section) == "sweep" && !project.sweep)
            continue; // the sweep was removed, and what it kept goes with it
        for (const auto &[key, value] : unknown->items()) {
            if (document[section].is_object() && !document[section].contains(key))
                document[section][key] = value;
        }
    }
    // The unknown fields of a list of checks, by position, while the list has that check.
    const auto unknownChecks = project.unknownFields.find("verification");
    json &checks = document["verification"];
    if (unknownChecks != project.unknownFields.end() && unknownChecks->is_array() &&
        checks.is_array()) {
        for (std::size_t i = 0; i < std::min(checks.size(), unknownChecks->size()); ++i) {
            for (const auto &[key, value] : (*unknownChecks)[i].items()) {
                if (checks[i].is_object() && !checks[i].contains(key))
                    checks[i][key] = value;
            }
        }
    }
    return document.dump(2) + "\n";
}

std::string saveProject(const Project &project, const std::string &path)
{
    const std::string text = serializeProject(project);
    // A project opened through a symlink is saved where the link points (the link stays a
    // link), and an existing file keeps its permissions: the new file replaces it by rename.
    std::filesystem::path target(path);
    std::error_code ignored; // a file that does not exist yet is no symlink
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(target, ignored))) {
        std::error_code linkError;
        target = std::filesystem::weakly_canonical(target, linkError);
        if (linkError)
            return "cannot write '" + path + "': " + linkError.message();
    }
    mode_t mode = 0644; // a new project file is an ordinary document
    if (struct stat existing = {}; ::stat(target.c_str(), &existing) == 0)
        mode = existing.st_mode & 07777;
    const std::filesystem::path folder =
        target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
    std::string temporary = (folder / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0)
        return "cannot write '" + path + "': " + std::strerror(errno);
    auto failWith = [&](const std::string &what) {
        const std::string message = "cannot write '" + path + "': " + what;
        ::close(fd);
        ::unlink(temporary.c_str());
        return message;
    };
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return failWith(std::strerror(errno));
        }
        written += std::size_t(n);
    }
    // mkstemp creates 0600.
    ::fchmod(fd, mode);
    if (::fsync(fd) != 0)
        return failWith(std::strerror(errno));
    if (::close(fd) != 0) {
        ::unlink(temporary.c_str());
        return "cannot write '" + path + "': " + std::strerror(errno);
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
        const std::string message = "cannot write '" + path + "': " + std::strerror(errno);
        ::unlink(temporary.c_str());
        return message;
    }
    // Make the rename itself durable.
    const int folderFd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
    if (folderFd >= 0) {
        ::fsync(folderFd);
        ::close(folderFd);
    }
    return {};
}

void resolveProjectPaths(Project &project, const std::string &projectPath)
{
    const std::filesystem::path folder =
        std::filesystem::absolute(std::filesystem::path(projectPath)).parent_path();
    const auto resolve = [&](std::string &path) {
        if (!path.empty() && std::filesystem::path(path).is_relative())
            path = (folder / path).lexically_normal().string();
    };
    for (std::string &dir : project.options.includeDirs)
        resolve(dir);
    for (ArgumentSpec &argument : project.launch.arguments) {
        if (argument.isBuffer && argument.init.kind == InitKind::File)
            resolve(argument.init.file);
    }
    for (GlobalSpec &global : project.launch.globals) {
        if (global.init.kind == InitKind::File)
            resolve(global.init.file);
    }
    for (KernelStep &step : project.launch.then) {
        for (ArgumentSpec &argument : step.arguments) {
            if (argument.isBuffer && argument.buffer.empty() &&
                argument.init.kind == InitKind::File)
                resolve(argument.init.file);
        }
    }
    for (VerificationSpec &check : project.verification.checks) {
        if (check.kind == ReferenceKind::File)
            resolve(check.file);
    }

    std::string sourceFolder = folder.string();
    if (!project.sourcePath.empty()) {
        std::string source = project.sourcePath;
        resolve(source);
        sourceFolder = std::filesystem::path(source).parent_path().string();
    }
    if (std::find(project.options.includeDirs.begin(), project.options.includeDirs.end(),
                  sourceFolder) == project.options.includeDirs.end())
        project.options.includeDirs.push_back(sourceFolder);
}

bool readProjectSource(const Project &project, const std::string &projectPath, std::string &source,
                       std::string &error)
{
    if (project.sourcePath.empty()) {
        source = project.inlineSource;
        return true;
    }
    std::filesystem::path path(project.sourcePath);
    if (path.is_relative())
        path = std::filesystem::path(projectPath).parent_path() / path;
    BoundedRead read = readBoundedFile(path.string(), kMaxSourceFileBytes, "source");
    if (!read.ok()) {
        error = read.error;
        return false;
    }
    // NVRTC would stop at the first NUL; a file with one is not CUDA source.
    if (const auto nul = read.text.find('\0'); nul != std::string::npos) {
        const auto line = 1 + std::count(read.text.begin(), read.text.begin() + long(nul), '\n');
        error = "cannot use source '" + path.string() + "': it has a NUL byte on line " +
                std::to_string(line) + "; is it a binary file?";
        return false;
    }
    source = std::move(read.text);
    return true;
}

RunRequest projectRunRequest(const Project &project, std::string source)
{
    RunRequest request;
    request.source = std::move(source);
    request.fileName = project.sourcePath.empty()
                           ? (project.name.empty() ? std::string("kernel") : project.name) + ".cu"
                           : std::filesystem::path(project.sourcePath).filename().string();
    request.options = project.options;
    request.launch = project.launch;
    request.verification = project.verification;
    return request;
}

} // namespace cuwb
