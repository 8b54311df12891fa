// The --inspect-result and --inspect screenshots (InspectScreenshotRunner) offscreen: a recorded
// inspection of the shared-memory transpose is shown on its project and captured with the
// bank-conflict annotation on the editor; an inspection through the stand-in worker that the
// GPU refuses is still captured, and the run exits 1 with the reason.
#include "gui/automation/inspectscreenshotrunner.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/inspect/inspectpanel.h"
#include "gui/inspect/inspecttool.h"
#include "gui/shell/mainwindow.h"

#include <QFile>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_inspectscreenshotrunner {

namespace {

constexpr int kFinishTimeoutMs = 120000;

} // namespace

class TestInspectScreenshotRunner : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    QString fakeCli(const QString &mode)
    {
        const QString path = m_dir.filePath(QStringLiteral("cuwb-") + mode);
        QFile script(path);
        if (!script.open(QIODevice::WriteOnly))
            return {};
        script.write("#!/bin/sh\nif [ \"$1\" = devices ]; then exec '" CUWB_FAKE_WORKER_PATH
                     "' devices; fi\nexec '" CUWB_FAKE_WORKER_PATH "' " +
                     mode.toUtf8() + "\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    // Opens `project` in a window that uses `cli`, runs the runner and returns its exit code
    // (-1 when it did not finish in time).
    int screenshot(const QString &project, InspectScreenshotRunner::Mode mode,
                   const QString &result, const QString &png, const QString &cli)
    {
        MainWindow::Settings settings;
        settings.samplesDir = QStringLiteral(CUWB_SAMPLES_DIR);
        settings.restoreLayout = false;
        settings.prompts = false;
        settings.cliPath = cli;
        m_window = std::make_unique<MainWindow>(settings);
        if (!m_window->openPath(project))
            return -2;
        m_window->resize(1600, 1000);
        InspectScreenshotRunner runner(m_window.get(), png, mode);
        runner.setResultFile(result);
        QSignalSpy finished(&runner, &InspectScreenshotRunner::finished);
        runner.start();
        m_window->show();
        if (!finished.wait(kFinishTimeoutMs) && finished.isEmpty())
            return -1;
        return finished.front().at(0).toInt();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
    }

    void cleanup() { m_window.reset(); }

    void aRecordedInspectionIsCaptured()
    {
        const QString png = m_dir.filePath(QStringLiteral("shared.png"));
        QCOMPARE(screenshot(QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose_shared.cuwb"),
                            InspectScreenshotRunner::Mode::Open,
                            QStringLiteral(CUWB_TEST_DATA_DIR "/inspect/transpose_shared.json"),
                            png, fakeCli(QStringLiteral("inspect-ok"))),
                 0);
        SourceEditor *editor = m_window->currentDocument()->editor();
        QVERIFY(editor->inspectAnnotation(37).startsWith(QStringLiteral("32-way bank conflict")));
        QCOMPARE(editor->cursorLine(), 31); // the hottest line
        QVERIFY(m_window->inspectTool()->panel()->isVisible());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), m_window->size() * m_window->devicePixelRatio());
    }

    void aRefusedInspectionIsCapturedAndFails()
    {
        const QString png = m_dir.filePath(QStringLiteral("denied.png"));
        QCOMPARE(screenshot(QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose.cuwb"),
                            InspectScreenshotRunner::Mode::Run, {}, png,
                            fakeCli(QStringLiteral("inspect-denied"))),
                 1);
        QVERIFY(
            m_window->inspectTool()->panel()->messageText().contains(QStringLiteral("permission")));
        QVERIFY(!QImage(png).isNull());
    }
};

CUWB_TEST_MAIN(TestInspectScreenshotRunner)
} // namespace tst_inspectscreenshotrunner
} // namespace

#include "tst_inspectscreenshotrunner.moc"
