#include "gui/compile/compilecontroller.h"

#include "gui/common/cuwbcli.h"
#include "gui/common/qtconvert.h"
#include "worker/isolatedcompiler.h"

#include <exception>

namespace cuwb {

namespace {

constexpr int kDefaultDebounceMs = 400;

// Runs on the compile thread. Nothing may escape: an exception becomes a failed result.
CompileResult runCompile(const std::shared_ptr<IsolatedCompiler> &compiler,
                         const std::string &source, const std::string &fileName,
                         const CompileOptions &options, quint64 job)
{
    try {
        return compiler->compile(source, fileName, options, job);
    } catch (const std::exception &error) {
        CompileResult result;
        result.fileName = fileName;
        result.options = options;
        result.failureMessage = std::string("The compiler failed: ") + error.what();
        return result;
    } catch (...) {
        CompileResult result;
        result.fileName = fileName;
        result.options = options;
        result.failureMessage = "The compiler failed with an unknown error.";
        return result;
    }
}

} // namespace

CompileController::CompileController(QObject *parent)
    : QObject(parent)
    // The cuwb beside this program serves `compile-server`, as it serves `worker`.
    , m_compiler(std::make_shared<IsolatedCompiler>(toStdString(findCuwbCli())))
    , m_jobs(
          this, &m_pool, [this](quint64 id, CompileResult &&result) { jobEnded(id, &result); },
          [this](quint64 id) { jobEnded(id, nullptr); },
          [this](quint64 id) { Q_EMIT compileStarted(id, m_documents[id]); })
{
    qRegisterMetaType<cuwb::CompileResult>();
    m_pool.setMaxThreadCount(1);
    // The compiler process is killed when the thread that started it ends (PR_SET_PDEATHSIG):
    // the thread must not expire between compiles.
    m_pool.setExpiryTimeout(-1);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDefaultDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &CompileController::compileNow);
}

CompileController::~CompileController()
{
    m_debounce.stop();
    m_compiler->stopUpTo(m_jobs.newest()); // no waiting for a long compile to end
    m_pool.waitForDone();
}

void CompileController::cancel()
{
    m_debounce.stop();
    if (m_jobs.isBusy())
        m_compiler->stopUpTo(m_jobs.newest());
}

void CompileController::setCliPath(const QString &path)
{
    m_compiler->setCuwbPath(toStdString(path));
}

void CompileController::setLimits(double timeSeconds, quint64 memoryBytes)
{
    IsolatedCompiler::Limits limits;
    limits.timeSeconds = timeSeconds;
    limits.memoryBytes = memoryBytes;
    m_compiler->setLimits(limits);
}

void CompileController::setSourceProvider(SourceProvider provider)
{
    m_provider = std::move(provider);
}

void CompileController::setOptions(const CompileOptions &options)
{
    m_options = options;
}

void CompileController::setDebounceInterval(int milliseconds)
{
    m_debounce.setInterval(milliseconds);
}

int CompileController::debounceInterval() const
{
    return m_debounce.interval();
}

bool CompileController::isDebouncing() const
{
    return m_debounce.isActive();
}

void CompileController::scheduleCompile()
{
    m_debounce.start();
}

quint64 CompileController::compileNow()
{
    m_debounce.stop();
    if (!m_provider)
        return 0;
    const CompileRequest request = m_provider();
    if (!request.valid)
        return 0;
    return submit(request);
}

quint64 CompileController::submit(const CompileRequest &request)
{
    CompileOptions options = m_options;
    for (const QString &dir : request.extraIncludeDirs)
        options.includeDirs.push_back(toStdString(dir));
    const bool wasBusy = m_jobs.isBusy();
    // Whatever runs or waits is superseded: stop it rather than wait for it.
    if (wasBusy)
        m_compiler->stopUpTo(m_jobs.newest());
    const quint64 job = m_jobs.newest() + 1;
    m_documents[job] = request.documentId;
    const quint64 id =
        m_jobs.submit([compiler = m_compiler, source = toStdString(request.source),
                       fileName = toStdString(request.fileName), options = std::move(options),
                       job] { return runCompile(compiler, source, fileName, options, job); });
    if (!wasBusy)
        Q_EMIT busyChanged(true);
    return id;
}

void CompileController::jobEnded(quint64 id, CompileResult *result)
{
    const int documentId = m_documents[id];
    // This job and any that waited behind it and were replaced are done with.
    m_documents.erase(m_documents.begin(), m_documents.upper_bound(id));
    if (result)
        Q_EMIT compileFinished(id, documentId, *result);
    else
        Q_EMIT compileDiscarded(id);
    if (!isBusy())
        Q_EMIT busyChanged(false);
}

} // namespace cuwb
