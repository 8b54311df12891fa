// CompileController: compiles as the user types, never on the GUI thread and never in the GUI
// process. Text changes restart a debounce timer; when it fires (or on compileNow()) the source
// provider supplies the current source, which a single long-lived thread hands to the compiler
// process, `cuwb compile-server`, through IsolatedCompiler (worker/isolatedcompiler.h): NVRTC can
// crash, hang or eat memory on hostile text, and then only that process dies; the result says
// why and the editor keeps its text. The server lives between compiles and its cache serves
// repeats. A newer request supersedes an older one: the compile in flight is stopped (its
// process killed, so a 30 s compile does not hold up the next edit), at most one waits (the
// newest), and a finished result whose job id is no longer the newest is dropped.
#pragma once

#include "compiler/compileoptions.h"
#include "compiler/compileresult.h"
#include "gui/common/jobtracker.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>

namespace cuwb {

class IsolatedCompiler;

struct CompileRequest
{
    QString source;
    QString fileName;             // the name NVRTC and the diagnostics use
    QStringList extraIncludeDirs; // e.g. the document's folder, for #include "..."
    int documentId = 0;           // opaque tag for the caller: which document the result is for
    bool valid = true;            // false: nothing to compile (no document)
};

class CompileController : public QObject
{
    Q_OBJECT

public:
    using SourceProvider = std::function<CompileRequest()>;

    explicit CompileController(QObject *parent = nullptr);
    ~CompileController() override;

    void setSourceProvider(SourceProvider provider);
    void setOptions(const CompileOptions &options);
    [[nodiscard]] const CompileOptions &options() const { return m_options; }

    void setDebounceInterval(int milliseconds);
    [[nodiscard]] int debounceInterval() const;
    [[nodiscard]] bool isDebouncing() const;

    // Restarts the debounce timer; call on every text change.
    void scheduleCompile();
    // Cancels the debounce and compiles the provider's source now. Returns the job id, 0 if
    // there was nothing to compile.
    quint64 compileNow();
    // Queues one request directly (supersedes and stops the running and the waiting one).
    // Returns its job id.
    quint64 submit(const CompileRequest &request);
    // Stops the compile in flight and drops the waiting one; the newest job then ends with a
    // "stopped" result. Nothing happens when no compile runs.
    void cancel();

    // The cuwb that serves `compile-server` (default: findCuwbCli()).
    void setCliPath(const QString &path);
    // The compiler process's time and memory limits (defaults: IsolatedCompiler::defaultLimits).
    void setLimits(double timeSeconds, quint64 memoryBytes);

    [[nodiscard]] bool isBusy() const { return m_jobs.isBusy(); }
    [[nodiscard]] quint64 latestJobId() const { return m_jobs.newest(); }
    [[nodiscard]] IsolatedCompiler &compiler() { return *m_compiler; }

Q_SIGNALS:
    void compileStarted(quint64 jobId, int documentId);
    void compileFinished(quint64 jobId, int documentId, const cuwb::CompileResult &result);
    // A finished result was dropped because a newer request exists.
    void compileDiscarded(quint64 jobId);
    void busyChanged(bool busy);

private:
    // A job ended: its result (the newest job's) or null (discarded).
    void jobEnded(quint64 id, CompileResult *result);

    std::shared_ptr<IsolatedCompiler> m_compiler;
    SourceProvider m_provider;
    CompileOptions m_options;
    QTimer m_debounce;
    QThreadPool m_pool; // one thread for good: the compiler process dies with the thread
    std::map<quint64, int> m_documents; // the document of each job not yet ended
    JobTracker<CompileResult> m_jobs;
};

} // namespace cuwb

Q_DECLARE_METATYPE(cuwb::CompileResult)
