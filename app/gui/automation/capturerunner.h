// CaptureRunner: what every --screenshot runner shares. It waits for the first compile result
// on screen and for the device line (at most 10 s for that one, since a slow probe must not
// hold the picture), then lets the runner act (run, measure, sweep, a lesson's experiment),
// and finally renders the main window to a PNG once the docks have settled and reports an exit
// code: 0, or 1 when the runner recorded a failure (the picture still shows it) or the capture
// itself failed. A timeout guards every wait, with a message that says what did not appear.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace cuwb {

class MainWindow;
class SweepPanel;

class CaptureRunner : public QObject
{
    Q_OBJECT

public:
    // The exit code reported by finished(): 1 after reportFailure() or fail().
    [[nodiscard]] int exitCode() const { return m_exitCode; }

Q_SIGNALS:
    void finished(int exitCode);

protected:
    // settleMs: how long the window settles between the last event and the grab.
    CaptureRunner(MainWindow *window, const QString &outputPath, int settleMs, QObject *parent);

    // What to do once the compile result and the device line are on screen; called once.
    virtual void act() = 0;
    // Just before the grab is scheduled (move the cursor, pick a chart page, raise a dock).
    virtual void beforeCapture() {}
    // After the picture is saved and before finished(); a non-empty message fails the run.
    virtual QString afterCapture() { return {}; }

    // Starts waiting (at most timeoutMs) for the compile result, then act().
    void waitForCompile(int timeoutMs);
    // The next wait: fail with `message` unless capture() comes within timeoutMs.
    void expectWithin(int timeoutMs, const QString &message);
    // The run failed in a way the picture shows: capture it, then exit 1 with `failure`.
    void reportFailure(const QString &failure);
    // Calls `next` now, or once the sweep panel has counted the points of its sweep.
    void whenCounted(SweepPanel *panel, const std::function<void()> &next);
    void capture();
    // Ends without a picture (or with a broken one), exit 1.
    void fail(const QString &message);

    [[nodiscard]] MainWindow *window() const { return m_window; }

private:
    void check();
    void proceed();

    MainWindow *m_window = nullptr;
    QString m_outputPath;
    int m_settleMs = 400;
    bool m_waiting = false;
    bool m_haveResult = false;
    bool m_started = false;
    bool m_capturing = false;
    int m_exitCode = 0;
    QString m_failure; // printed after the capture when m_exitCode is not 0
    QString m_timeoutMessage;
    QTimer m_timeout;
    QTimer m_devicePatience; // the device line may lag; do not wait for it forever
};

} // namespace cuwb
