#include "screenshotrunner.h"

#include "deviceprobe.h"
#include "document.h"
#include "launchpanel.h"
#include "mainwindow.h"
#include "resultspanel.h"
#include "sourceeditor.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QPixmap>

#include <cstdio>

namespace cuwb {

ScreenshotRunner::ScreenshotRunner(MainWindow *window, const QString &outputPath, int cursorLine,
                                   bool run, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_outputPath(outputPath)
    , m_cursorLine(cursorLine)
    , m_run(run)
{
    m_timeout.setSingleShot(true);
    m_devicePatience.setSingleShot(true);
    m_devicePatience.setInterval(10000);
    connect(&m_timeout, &QTimer::timeout, this,
            [this] { fail(tr("no compile result appeared in time")); });
    connect(&m_devicePatience, &QTimer::timeout, this, &ScreenshotRunner::capture);
    connect(m_window, &MainWindow::resultShown, this, [this] {
        m_haveResult = true;
        check();
    });
    connect(m_window->deviceProbe(), &DeviceProbe::finished, this, &ScreenshotRunner::check);
}

void ScreenshotRunner::start(int timeoutMs)
{
    if (!m_window->currentDocument()) {
        // Nothing to compile, so nothing to wait for.
        QTimer::singleShot(300, this, &ScreenshotRunner::capture);
        return;
    }
    m_timeout.start(timeoutMs);
}

void ScreenshotRunner::check()
{
    if (!m_haveResult || m_capturing)
        return;
    if (m_window->deviceProbe()->isFinished()) {
        if (m_run)
            startRun();
        else
            capture();
    } else if (!m_devicePatience.isActive()) {
        m_devicePatience.start();
    }
}

void ScreenshotRunner::startRun()
{
    if (m_runStarted)
        return;
    m_runStarted = true;
    m_devicePatience.stop();
    m_window->showRunDocks();
    LaunchPanel *launch = m_window->launchPanel();
    if (!launch->canRun()) {
        std::fprintf(stderr, "cuda-workbench: not running: %s\n",
                     qPrintable(launch->runBlockedReason()));
        capture();
        return;
    }
    ResultsPanel *results = m_window->resultsPanel();
    // The result, then its first page of values; a result without buffers is shown as it is.
    connect(m_window, &MainWindow::runResultShown, this, [this, results] {
        bool pages = false;
        for (const BufferReport &buffer : results->result().buffers)
            pages = pages || (!buffer.handle.empty() && buffer.count > 0);
        if (!pages)
            capture();
    });
    connect(results, &ResultsPanel::valuesShown, this, &ScreenshotRunner::capture);
    m_timeout.start(120000);
    launch->runAction()->trigger();
}

void ScreenshotRunner::capture()
{
    if (m_capturing)
        return;
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    if (m_cursorLine > 0) {
        if (Document *document = m_window->currentDocument())
            document->editor()->goToLocation(m_cursorLine, 1);
    }
    // Let the docks, the scroll positions and the status bar settle before grabbing.
    QTimer::singleShot(400, this, [this] {
        QCoreApplication::processEvents();
        const QPixmap pixmap = m_window->grab();
        if (pixmap.isNull()) {
            fail(tr("the window could not be rendered"));
            return;
        }
        if (!pixmap.save(m_outputPath, "PNG")) {
            fail(tr("cannot write %1").arg(QDir::toNativeSeparators(m_outputPath)));
            return;
        }
        Q_EMIT finished(0);
    });
}

void ScreenshotRunner::fail(const QString &message)
{
    m_capturing = true;
    m_timeout.stop();
    m_devicePatience.stop();
    std::fprintf(stderr, "cuda-workbench: screenshot failed: %s\n", qPrintable(message));
    Q_EMIT finished(1);
}

} // namespace cuwb
