#include "gui/launch/runcheckcontroller.h"

#include "gui/common/cuwbcli.h"
#include "gui/common/qtconvert.h"
#include "worker/isolatedcompiler.h"

#include <exception>

namespace cuwb {

namespace {

constexpr int kDefaultDebounceMs = 300;

// On the check's thread. Nothing may escape: an exception is a finding of its own.
std::vector<LaunchIssue> runCheck(const std::shared_ptr<IsolatedCompiler> &compiler,
                                  const RunHostInput &input)
{
    try {
        return checkRunOnHost(input, [&compiler](std::string_view source, std::string_view fileName,
                                                 const CompileOptions &options) {
            return compiler->compile(source, fileName, options);
        });
    } catch (const std::exception &error) {
        return {{"check", std::string("the check failed: ") + error.what(), -1}};
    } catch (...) {
        return {{"check", "the check failed with an unknown error", -1}};
    }
}

} // namespace

RunCheckController::RunCheckController(QObject *parent)
    : QObject(parent)
    , m_compiler(std::make_shared<IsolatedCompiler>(toStdString(findCuwbCli())))
    , m_jobs(this, &m_pool,
             [this](quint64, std::vector<LaunchIssue> &&findings) { publish(std::move(findings)); })
{
    qRegisterMetaType<std::vector<cuwb::LaunchIssue>>();
    m_pool.setMaxThreadCount(1);
    // The compile server is killed when the thread that started it ends (PR_SET_PDEATHSIG).
    m_pool.setExpiryTimeout(-1);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDefaultDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &RunCheckController::startCheck);
}

RunCheckController::~RunCheckController()
{
    m_debounce.stop();
    m_compiler->stopUpTo(m_jobs.newest() + 1); // no waiting for a long compile to end
    m_pool.waitForDone();
}

void RunCheckController::setDebounceInterval(int milliseconds)
{
    m_debounce.setInterval(milliseconds);
}

void RunCheckController::setCliPath(const QString &path)
{
    m_compiler->setCuwbPath(toStdString(path));
}

void RunCheckController::check(const LaunchSession &session)
{
    std::optional<RunHostInput> input = runHostInput(session);
    if (!input) {
        // Nothing to check: no findings, and a check in flight is dropped by the tracker.
        m_debounce.stop();
        m_waiting.reset();
        m_checked.reset();
        if (m_jobs.isBusy())
            (void)m_jobs.submit([] { return std::vector<LaunchIssue>(); });
        else
            publish({});
        return;
    }
    if (m_checked && *m_checked == *input && !m_debounce.isActive())
        return; // the findings shown (or coming) are this launch's
    m_waiting = std::move(input);
    if (m_debounce.interval() == 0)
        startCheck();
    else
        m_debounce.start();
}

void RunCheckController::startCheck()
{
    if (!m_waiting)
        return;
    m_checked = m_waiting;
    m_jobs.submit([compiler = m_compiler, input = std::move(*m_waiting)] {
        return runCheck(compiler, input);
    });
    m_waiting.reset();
}

void RunCheckController::publish(std::vector<LaunchIssue> findings)
{
    if (findings == m_findings)
        return;
    m_findings = std::move(findings);
    Q_EMIT findingsChanged(m_findings);
}

} // namespace cuwb
