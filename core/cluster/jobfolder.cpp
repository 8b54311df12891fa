#include "cluster/jobfolder.h"

namespace cuwb {

namespace {

std::string taskFile(const std::string &jobDir, int task, const char *extension)
{
    return jobDir + "/task-" + std::to_string(task) + extension;
}

} // namespace

std::string taskLogPath(const std::string &jobDir, int task)
{
    return taskFile(jobDir, task, ".log");
}

std::string taskResultPath(const std::string &jobDir, int task)
{
    return taskFile(jobDir, task, ".json");
}

std::string taskStatusPath(const std::string &jobDir, int task)
{
    return taskFile(jobDir, task, ".status");
}

std::string mergedResultPath(const std::string &jobDir)
{
    return jobDir + "/result.json";
}

} // namespace cuwb
