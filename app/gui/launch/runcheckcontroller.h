// RunCheckController: what a run of the launch being set up would fail on that the host can find
// (run/runhostcheck.h, the checks of `cuwb check`): the verification's expression and mask
// compiled as the worker compiles them, its count, aggregate and reference kernel, and the
// files the run reads against their buffers. A check compiles and reads files, so it never runs
// on the GUI thread: each request is copied (runHostInput) and checked on one long-lived thread
// of its own, which compiles in a `cuwb compile-server` (worker/isolatedcompiler.h) started at
// the first compile and kept; an unchanged request is not checked again, a newer one supersedes
// the one waiting, and a finding that is no longer the newest is dropped. The main window shows
// the findings in the Problems dock.
#pragma once

#include "gui/common/jobtracker.h"
#include "launch/launchsession.h"
#include "run/runhostcheck.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

namespace cuwb {

class IsolatedCompiler;

class RunCheckController : public QObject
{
    Q_OBJECT

public:
    explicit RunCheckController(QObject *parent = nullptr);
    ~RunCheckController() override;

    // Checks `session`'s launch after a short pause (edits come in bursts); a session without a
    // compiled kernel clears the findings at once.
    void check(const LaunchSession &session);
    // The pause before a check starts (default 300 ms; 0 starts at once).
    void setDebounceInterval(int milliseconds);
    // The cuwb that serves `compile-server` (default: findCuwbCli()).
    void setCliPath(const QString &path);

    [[nodiscard]] const std::vector<LaunchIssue> &findings() const { return m_findings; }
    [[nodiscard]] bool isBusy() const { return m_jobs.isBusy() || m_debounce.isActive(); }

Q_SIGNALS:
    // The newest check's findings (empty: nothing found, or nothing to check).
    void findingsChanged(const std::vector<cuwb::LaunchIssue> &findings);

private:
    void startCheck();
    void publish(std::vector<LaunchIssue> findings);

    std::shared_ptr<IsolatedCompiler> m_compiler;
    QThreadPool m_pool; // one thread for good: the compile server dies with the thread
    QTimer m_debounce;
    std::optional<RunHostInput> m_waiting;
    std::optional<RunHostInput> m_checked; // the input of the findings shown, or in flight
    std::vector<LaunchIssue> m_findings;
    JobTracker<std::vector<LaunchIssue>> m_jobs;
};

} // namespace cuwb

Q_DECLARE_METATYPE(std::vector<cuwb::LaunchIssue>)
