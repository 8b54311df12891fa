#include "gui/compile/compilecontroller.h"

#include "compiler/kernelcompiler.h"
#include "gui/common/qtconvert.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace cuwb {

namespace {

constexpr int DefaultDebounceMs = 400;

// Runs on the worker thread. Nothing may escape: an exception becomes a failed result.
CompileResult runCompile(const std::shared_ptr<KernelCompiler> &compiler, const std::string &source,
                         const std::string &fileName, const CompileOptions &options)
{
    try {
        return compiler->compile(source, fileName, options);
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
    , m_compiler(std::make_shared<KernelCompiler>())
{
    qRegisterMetaType<cuwb::CompileResult>();
    m_pool.setMaxThreadCount(1);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(DefaultDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &CompileController::compileNow);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &CompileController::onWorkerFinished);
}

CompileController::~CompileController()
{
    m_debounce.stop();
    m_waiting.reset();
    m_watcher.disconnect(this);
    m_pool.waitForDone();
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
    Job job;
    job.id = ++m_nextJobId;
    job.request = request;
    job.options = m_options;
    for (const QString &dir : request.extraIncludeDirs)
        job.options.includeDirs.push_back(toStdString(dir));
    m_latestJobId = job.id;
    if (m_running) {
        m_waiting = std::move(job); // replaces an older waiting request
    } else {
        start(std::move(job));
        Q_EMIT busyChanged(true);
    }
    return m_latestJobId;
}

void CompileController::start(Job job)
{
    m_running = std::move(job);
    std::shared_ptr<KernelCompiler> compiler = m_compiler;
    std::string source = toStdString(m_running->request.source);
    std::string fileName = toStdString(m_running->request.fileName);
    CompileOptions options = m_running->options;
    Q_EMIT compileStarted(m_running->id, m_running->request.documentId);
    m_watcher.setFuture(
        QtConcurrent::run(&m_pool, [compiler, source = std::move(source),
                                    fileName = std::move(fileName), options = std::move(options)] {
            return runCompile(compiler, source, fileName, options);
        }));
}

void CompileController::onWorkerFinished()
{
    if (!m_running)
        return;
    const Job finished = std::move(*m_running);
    m_running.reset();
    // Moved out, not copied: a large module's PTX and CUBIN are megabytes, and this runs on
    // the GUI thread.
    CompileResult result = m_watcher.future().takeResult();

    if (m_waiting) {
        Job next = std::move(*m_waiting);
        m_waiting.reset();
        start(std::move(next));
    }

    if (finished.id == m_latestJobId)
        Q_EMIT compileFinished(finished.id, finished.request.documentId, result);
    else
        Q_EMIT compileDiscarded(finished.id);

    if (!isBusy())
        Q_EMIT busyChanged(false);
}

} // namespace cuwb
