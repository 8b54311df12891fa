// ScreenshotRunner: renders the main window to a PNG once the first compile result is on
// screen, the device line is known and the docks are laid out; for documentation and tests.
// With run set, it then runs the launch and waits for the result and its first page of values.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

namespace cuwb {

class MainWindow;

class ScreenshotRunner : public QObject
{
    Q_OBJECT

public:
    ScreenshotRunner(MainWindow *window, const QString &outputPath, int cursorLine,
                     bool run = false, QObject *parent = nullptr);

    // Waits (at most timeoutMs) and then emits finished with the exit code.
    void start(int timeoutMs = 60000);

Q_SIGNALS:
    void finished(int exitCode);

private:
    void check();
    void startRun();
    void capture();
    void fail(const QString &message);

    MainWindow *m_window = nullptr;
    QString m_outputPath;
    int m_cursorLine = 0;
    bool m_run = false;
    bool m_runStarted = false;
    bool m_haveResult = false;
    bool m_capturing = false;
    QTimer m_timeout;
    QTimer m_devicePatience; // the device line may lag; do not wait for it forever
};

} // namespace cuwb
