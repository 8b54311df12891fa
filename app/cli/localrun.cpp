#include "localrun.h"

#include "cluster/slurmjob.h" // findOnPath
#include "commands.h"
#include "runreport.h"

#include "grading/classreport.h"
#include "grading/submission.h"
#include "project/project.h"
#include "util/boundedfile.h"
#include "util/sandbox.h"
#include "util/tempfolder.h"
#include "util/toolprocess.h"
#include "worker/workerclient.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include <stdlib.h>

namespace cuwb::cli {

namespace {

void printStderrTail(const WorkerProcess &worker)
{
    const std::string &tail = worker.stderrTail();
    if (tail.find_first_not_of(" \n") == std::string::npos) {
        return;
    }
    std::cerr << "cuwb run: the worker's last messages:\n" << tail;
    if (tail.back() != '\n') {
        std::cerr << '\n';
    }
}

// A graded project, read by `cuwb read-submission` in a process of its own, confined to the
// project's folder when `confine`: a file that crashes, hangs or exhausts the reader fails this
// submission alone, and nothing outside the folder is read on its say-so.
SubmissionRead readGradedProject(const std::string &path, bool confine)
{
    std::vector<std::string> argv = {selfExecutable(), "read-submission", path};
    if (confine) {
        argv.push_back("--confine");
    }
    ToolLimits limits;
    limits.timeoutMs = 30000;
    // The reply: the project and its source (twice when inline), each escaped at worst 6 times.
    limits.maxOutputBytes = 6 * (kMaxProjectFileBytes + 2 * kMaxSourceFileBytes) + (1u << 20);
    const ToolRun run = runTool(argv, limits);
    if (!run.succeeded()) {
        SubmissionRead read;
        read.error = run.failure("reading the submission");
        return read;
    }
    return submissionReadFromJson(run.out);
}

// One project's way through the run: read, then (when runnable) run on a worker, then reported.
struct Job
{
    Outcome outcome;
    std::optional<Project> project;
    RunRequest request;
    std::string scratch; // a graded project's working directory
    std::string folder;  // a graded project's own folder, all its compiles may read
    bool runs = false;   // read, confined and ready for the worker
    bool done = false;
};

// The run's phases: the grading set up, every project read in order, the runnable ones run
// (on one worker or one per GPU), each reported in order, then the JSON, report and summary.
class LocalRun
{
public:
    LocalRun(std::vector<ProjectArgument> projects, LocalRunSettings settings)
        : m_projects(std::move(projects))
        , m_settings(std::move(settings))
    {}

    int run()
    {
        if (const int status = prepareGrading(); status != ExitSuccess) {
            return status;
        }
        readProjects();
        if (m_settings.devices) {
            runOnDevices();
        } else {
            runOnOneWorker();
        }
        writeOutput();
        return m_status;
    }

private:
    int prepareGrading();
    void readProjects();
    void readProject(std::size_t index);
    void reportReady();
    void execute(Job &job, WorkerProcess &shared, const WorkerProcess::Options &options);
    void runOnOneWorker();
    void runOnDevices();
    void writeOutput();

    std::vector<ProjectArgument> m_projects;
    LocalRunSettings m_settings;
    bool m_confine = false;        // graded compiles in a sandbox (this cuwb's worker)
    bool m_confineReading = false; // graded projects read in a sandbox
    std::string m_scratchRoot;
    std::vector<Job> m_jobs;
    std::vector<GradedOutcome> m_outcomes;
    std::size_t m_reported = 0;
    int m_status = ExitSuccess;
    std::mutex m_output; // stderr and the reports, with --devices
};

// The worker named by an absolute path (graded projects run with a scratch folder as the
// working directory), the confinement decided, the scratch root made. ExitSuccess, or the exit
// status of a grading that cannot run.
int LocalRun::prepareGrading()
{
    namespace fs = std::filesystem;
    std::error_code code;
    const fs::path here = fs::current_path(code);
    WorkerProcess::Options &options = m_settings.options;
    options.executable = findOnPath(options.executable);
    if (options.executable.find('/') != std::string::npos &&
        fs::path(options.executable).is_relative()) {
        options.executable = (here / options.executable).lexically_normal().string();
    }
    const bool anyGraded = std::any_of(m_projects.begin(), m_projects.end(),
                                       [](const ProjectArgument &p) { return p.graded; });
    // A graded project's compiles run in a sandbox (Landlock) when its worker is this cuwb's;
    // a machine that cannot make one grades only when the grader says so.
    m_confine = anyGraded && m_settings.ownWorker && !m_settings.unconfined;
    if (m_confine) {
        if (const std::string why = sandboxUnavailableReason(); !why.empty()) {
            std::cerr << "cuwb run: cannot confine the graded projects' compiles: " << why
                      << ". Grade them with --unconfined to rely on the text check of what each "
                         "project names and #includes alone.\n";
            return ExitUsage;
        }
    }
    // A graded project is read in a process of its own, confined wherever a sandbox can be made
    // (with --worker or --on too: the reading is this machine's).
    m_confineReading =
        anyGraded && !m_settings.unconfined && (m_confine || sandboxUnavailableReason().empty());
    if (!anyGraded) {
        return ExitSuccess;
    }
    if (const std::optional<std::string> &dir = m_settings.scratch) {
        fs::create_directories(*dir, code);
        m_scratchRoot = fs::absolute(*dir, code).lexically_normal().string();
        if (!fs::is_directory(m_scratchRoot, code)) {
            return usageError("run", "--scratch: cannot create the folder " + *dir);
        }
        return ExitSuccess;
    }
    std::string pattern = temporaryPattern("cuwb-grading");
    if (::mkdtemp(pattern.data()) == nullptr) {
        std::cerr << "cuwb run: cannot create a scratch folder in " << temporaryFolder() << ": "
                  << std::strerror(errno) << '\n';
        return ExitUsage;
    }
    m_scratchRoot = pattern;
    std::cerr << "cuwb run: graded projects run in scratch folders under " << m_scratchRoot << '\n';
    return ExitSuccess;
}

// Every project read and checked, in order, before any runs.
void LocalRun::readProjects()
{
    m_jobs.resize(m_projects.size());
    for (std::size_t index = 0; index < m_projects.size(); ++index) {
        readProject(index);
    }
}

void LocalRun::readProject(std::size_t index)
{
    namespace fs = std::filesystem;
    Job &job = m_jobs[index];
    Outcome &outcome = job.outcome;
    const std::string &path = m_projects[index].path;
    const bool graded = m_projects[index].graded;
    std::error_code code;
    const std::string absolute = fs::absolute(path, code).lexically_normal().string();
    outcome.project = path;
    // A graded project is read in a process of its own, confined to its folder; a project the
    // user named, here.
    SubmissionRead read;
    if (graded) {
        read = readGradedProject(absolute, m_confineReading);
    } else if (ProjectLoad load = loadProject(absolute); !load.project) {
        read.error = load.error;
    } else if (readProjectSource(*load.project, absolute, read.source, read.error)) {
        read.project = std::move(load.project);
    }
    outcome.refused = read.refused;
    outcome.error = read.error;
    if (!read.ok()) {
        job.done = true;
        return;
    }
    Project project = std::move(*read.project);
    resolveProjectPaths(project, absolute);
    job.request = projectRunRequest(project, std::move(read.source));
    if (m_settings.deadline) {
        job.request.launch.deadlineSeconds = *m_settings.deadline;
    }
    job.project = std::move(project);
    if (graded) {
        // A worker of its own, started in the project's scratch folder.
        const fs::path scratch =
            fs::path(m_scratchRoot) /
            (std::to_string(m_projects[index].number) + "-" + fs::path(path).stem().string());
        fs::create_directories(scratch, code);
        job.scratch = scratch.string();
        job.folder = fs::path(absolute).parent_path().string();
    }
    job.runs = true;
}

// Reports the finished jobs at the front of the list, in order.
void LocalRun::reportReady()
{
    const bool json = m_settings.json;
    for (; m_reported < m_jobs.size() && m_jobs[m_reported].done; ++m_reported) {
        Outcome &outcome = m_jobs[m_reported].outcome;
        const std::string &path = outcome.project;
        if (!outcome.refused.empty()) {
            if (!json) {
                std::cout << path << ": REFUSED: " << outcome.refused << '\n';
            }
            m_status = m_status == ExitSuccess ? ExitFailure : m_status;
        } else if (!outcome.error.empty()) {
            std::cerr << "cuwb run: " << path << ": " << outcome.error << '\n';
            // A submission that cannot be read failed; grading itself went on. A project the
            // user named is a usage error.
            if (!m_projects[m_reported].graded)
                m_status = ExitUsage;
            else if (m_status == ExitSuccess)
                m_status = ExitFailure;
        } else {
            const Project &project = *m_jobs[m_reported].project;
            // A requested verification that did not run is no pass.
            outcome.verdict = describeRun(outcome.result, project.verification.configured());
            // A timed launch whose output was wrong: the run's pass was not the work measured.
            if (outcome.measurement && !outcome.measurement->wrongSample.empty()) {
                outcome.verdict.passed = false;
                outcome.verdict.reasons.push_back("a timed launch's output was wrong (" +
                                                  outcome.measurement->wrongSample + ")");
            }
            outcome.passed = outcome.verdict.passed;
            if (!outcome.passed && m_status == ExitSuccess) {
                m_status = ExitFailure;
            }
            if (!json) {
                printReport(std::cout, outcome, project);
            }
        }
        std::string reason;
        if (!outcome.passed) {
            reason = failureReason(outcome);
        }
        m_outcomes.push_back({outcome, std::move(reason)});
    }
    std::cout << std::flush;
}

// One job on `shared` (a project of the command line) or on a worker of its own in its
// scratch folder (a graded one), started from `options`.
void LocalRun::execute(Job &job, WorkerProcess &shared, const WorkerProcess::Options &options)
{
    std::unique_ptr<WorkerProcess> own;
    if (!job.scratch.empty()) {
        WorkerProcess::Options inScratch = options;
        inScratch.workingDirectory = job.scratch;
        if (m_confine) {
            inScratch.arguments.insert(inScratch.arguments.end(),
                                       {"--confine-compiles", job.folder});
        }
        own = std::make_unique<WorkerProcess>(inScratch);
    }
    WorkerProcess &worker = own ? *own : shared;
    job.outcome.result = WorkerClient(worker).run(job.request);
    // --measure: the kernel of a run that passed, timed as `cuwb measure` times it. A graded
    // submission is measured as the grader decides, not as its project asks: the default
    // settings with a 5 s time cap (a class of 30 in minutes, thousands of samples each),
    // guarded, so that every timed launch is verified and starts from the state the first one
    // found (docs/grading.md).
    if (m_settings.measure &&
        describeRun(job.outcome.result, job.project->verification.configured()).passed) {
        SampleSettings settings = job.project->measure.settings;
        if (!job.scratch.empty()) {
            settings = SampleSettings{};
            settings.timeCapSeconds = 5.0;
            settings.guarded = true;
        }
        job.outcome.measurement =
            WorkerClient(worker).measure(job.request, settings, job.project->measure.throughput);
    }
    if (job.outcome.result.status == RunStatus::WorkerCrashed ||
        job.outcome.result.status == RunStatus::Timeout) {
        const std::lock_guard<std::mutex> lock(m_output);
        printStderrTail(worker);
    }
    if (own) {
        own->stop();
    }
}

void LocalRun::runOnOneWorker()
{
    WorkerProcess worker(m_settings.options);
    reportReady();
    for (Job &job : m_jobs) {
        if (job.runs) {
            execute(job, worker, m_settings.options);
            job.done = true;
        }
        reportReady();
    }
    worker.stop();
}

// One project per free GPU: each GPU's thread starts its workers (a worker dies with the thread
// that started it) and takes the next project when it is done with one.
void LocalRun::runOnDevices()
{
    std::size_t next = 0;
    {
        const std::lock_guard<std::mutex> lock(m_output);
        reportReady();
    }
    std::vector<std::thread> threads;
    for (const int device : *m_settings.devices) {
        threads.emplace_back([this, &next, device] {
            WorkerProcess::Options forDevice = m_settings.optionsForDevice(device);
            forDevice.executable = m_settings.options.executable;
            WorkerProcess worker(forDevice);
            for (;;) {
                Job *job = nullptr;
                {
                    const std::lock_guard<std::mutex> lock(m_output);
                    while (next < m_jobs.size() && !m_jobs[next].runs) {
                        ++next;
                    }
                    if (next == m_jobs.size()) {
                        break;
                    }
                    job = &m_jobs[next++];
                }
                job->outcome.gpu = device;
                execute(*job, worker, forDevice);
                const std::lock_guard<std::mutex> lock(m_output);
                job->done = true;
                reportReady();
            }
            worker.stop();
        });
    }
    for (std::thread &thread : threads) {
        thread.join();
    }
}

// The JSON document, the class report and the text summary, as asked.
void LocalRun::writeOutput()
{
    const bool json = m_settings.json;
    const bool summary = m_settings.summary;
    if (json || m_settings.report) {
        nlohmann::json results = nlohmann::json::array();
        for (const GradedOutcome &entry : m_outcomes) {
            results.push_back(outcomeJson(entry.outcome));
        }
        nlohmann::json object = summaryJson(m_outcomes);
        object["results"] = results;
        if (m_settings.report) {
            if (const std::string problem = writeClassReport(object, *m_settings.report);
                !problem.empty()) {
                std::cerr << "cuwb run: the report: " << problem << '\n';
                m_status = ExitOutput;
            }
        }
        if (json) {
            const nlohmann::json &document =
                summary ? object : (m_outcomes.size() == 1 ? results.front() : results);
            std::cout << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                      << '\n';
        }
    }
    if (!json && summary) {
        printSummary(std::cout, m_outcomes);
    }
}

} // namespace

int runLocally(std::vector<ProjectArgument> projects, LocalRunSettings settings)
{
    return LocalRun(std::move(projects), std::move(settings)).run();
}

} // namespace cuwb::cli
