#include "grading/submission.h"

#include "grading/confinement.h"
#include "util/jsondepth.h"

#include <nlohmann/json.hpp>

namespace cuwb {

SubmissionRead readSubmission(const std::string &projectPath)
{
    SubmissionRead read;
    // A project file that leads out of its folder is refused before it is read.
    read.refused = checkProjectFileConfinement(projectPath);
    if (!read.refused.empty())
        return read;
    ProjectLoad load = loadProject(projectPath);
    if (!load.project) {
        read.error = load.error;
        return read;
    }
    // What the project names is checked before anything is read on its say-so, the source
    // included; then the #includes the source spells.
    read.refused = checkProjectConfinement(*load.project, projectPath, std::string());
    if (!read.refused.empty())
        return read;
    std::string source;
    if (!readProjectSource(*load.project, projectPath, source, read.error))
        return read;
    read.refused = checkProjectConfinement(*load.project, projectPath, source);
    if (!read.refused.empty())
        return read;
    read.project = std::move(load.project);
    read.source = std::move(source);
    return read;
}

std::string submissionReadToJson(const SubmissionRead &read)
{
    nlohmann::json reply = nlohmann::json::object();
    reply["refused"] = read.refused;
    reply["error"] = read.error;
    if (read.project) {
        reply["project"] = serializeProject(*read.project);
        reply["source"] = read.source;
    }
    // Strings as read: a source that is no valid UTF-8 still travels (its bytes replaced).
    return reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

SubmissionRead submissionReadFromJson(std::string_view text)
{
    SubmissionRead read;
    // The reply nests two deep; the project travels as a string, parsed with its own limits.
    if (findJsonDeeperThan(text, 2)) {
        read.error = "the reader's reply is not what it writes (nested too deep)";
        return read;
    }
    const nlohmann::json reply = nlohmann::json::parse(text, nullptr, false);
    const auto string = [&](const char *key) -> const std::string * {
        const auto found = reply.find(key);
        return found != reply.end() && found->is_string() ? found->get_ptr<const std::string *>()
                                                          : nullptr;
    };
    const std::string *refused = reply.is_object() ? string("refused") : nullptr;
    const std::string *error = reply.is_object() ? string("error") : nullptr;
    if (!refused || !error) {
        read.error = "the reader's reply is not what it writes (no refusal or error field)";
        return read;
    }
    read.refused = *refused;
    read.error = *error;
    if (!read.refused.empty() || !read.error.empty())
        return read;
    const std::string *project = string("project");
    const std::string *source = string("source");
    if (!project || !source) {
        read.error = "the reader's reply is not what it writes (no project or source)";
        return read;
    }
    ProjectLoad load = parseProject(*project);
    if (!load.project) {
        read.error = "the project the reader read back does not parse: " + load.error;
        return read;
    }
    read.project = std::move(load.project);
    read.source = *source;
    return read;
}

} // namespace cuwb
