// Shared by the gpu tests: a sample project loaded as the CLI loads it (paths resolved against
// its folder, its source read), for its name and its run request.
#pragma once

#include "project/project.h"

#include <optional>
#include <string>

struct SampleProject
{
    cuwb::Project project;
    cuwb::RunRequest request;
    std::string error; // why it could not be loaded; empty when it was
};

// `relative` to the samples folder, e.g. "copy/copy.cuwb".
inline SampleProject loadSampleProject(const std::string &relative)
{
    SampleProject sample;
    const std::string path = std::string(CUWB_SAMPLES_DIR "/") + relative;
    const cuwb::ProjectLoad load = cuwb::loadProject(path);
    if (!load.project) {
        sample.error = load.error;
        return sample;
    }
    sample.project = *load.project;
    cuwb::resolveProjectPaths(sample.project, path);
    std::string source;
    if (!cuwb::readProjectSource(sample.project, path, source, sample.error))
        return sample;
    sample.request = cuwb::projectRunRequest(sample.project, std::move(source));
    return sample;
}
