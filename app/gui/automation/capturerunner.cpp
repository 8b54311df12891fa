#include "gui/automation/capturerunner.h"

#include "gui/automation/windowcapture.h"
#include "gui/device/deviceprobe.h"
#include "gui/shell/mainwindow.h"
#include "gui/sweep/sweeppanel.h"

#include <cstdio>

namespace cuwb {

CaptureRunner::CaptureRunner(MainWindow *window, const QString &outputPath, int settleMs,
                             QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_outputPath(outputPath)
    , m_settleMs(settleMs)
    , m_timeoutMessage(tr("no compile result appeared in time"))
{
    m_timeout.setSingleShot(true);
    m_devicePatience.setSingleShot(true);
    m_devicePatience.setInterval(10000);
    connect(&m_timeout, &QTimer::timeout, this, [this] { fail(m_timeoutMessage); });
    connect(&m_devicePatience, &QTimer::timeout, this, &CaptureRunner::proceed);
    connect(m_window, &MainWindow::resultShown, this, [this] {
        m_haveResult = true;
        check();
    });
    connect(m_window->deviceProbe(), &DeviceProbe::finished, this, &CaptureRunner::check);
}

void CaptureRunner::waitForCompile(int timeoutMs)
{
    m_waiting = true;
    m_timeout.start(timeoutMs);
    check();
}

void CaptureRunner::expectWithin(int timeoutMs, const QString &message)
{
    m_timeoutMessage = message;
    m_timeout.start(timeoutMs);
}

void CaptureRunner::reportFailure(const QString &failure)
{
    m_exitCode = 1;
    m_failure = failure;
}

void CaptureRunner::whenCounted(SweepPanel *panel, const std::function<void()> &next)
{
    if (!panel->isCounting()) {
        next();
        return;
    }
    auto *connection = new QMetaObject::Connection;
    *connection = connect(panel, &SweepPanel::countChanged, this, [connection, next] {
        disconnect(*connection);
        delete connection;
        next();
    });
}

void CaptureRunner::check()
{
    if (!m_waiting || !m_haveResult || m_capturing || m_started)
        return;
    if (m_window->deviceProbe()->isFinished())
        proceed();
    else if (!m_devicePatience.isActive())
        m_devicePatience.start();
}

void CaptureRunner::proceed()
{
    m_devicePatience.stop();
    if (m_started || m_capturing)
        return;
    m_started = true;
    act();
}

void CaptureRunner::capture()
{
    if (m_capturing)
        return;
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    beforeCapture();
    // Let the docks, the charts, the scroll positions and the status bar settle.
    QTimer::singleShot(m_settleMs, this, [this] {
        if (const QString error = WindowCapture::save(m_window, m_outputPath); !error.isEmpty()) {
            fail(error);
            return;
        }
        if (const QString error = afterCapture(); !error.isEmpty()) {
            fail(error);
            return;
        }
        if (m_exitCode != 0)
            std::fprintf(stderr, "cuda-workbench: %s (the screenshot shows it)\n",
                         qPrintable(m_failure));
        Q_EMIT finished(m_exitCode);
    });
}

void CaptureRunner::fail(const QString &message)
{
    m_exitCode = 1;
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    std::fprintf(stderr, "cuda-workbench: screenshot failed: %s\n", qPrintable(message));
    Q_EMIT finished(1);
}

} // namespace cuwb
