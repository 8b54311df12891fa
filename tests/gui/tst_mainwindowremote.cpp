// "Run on" in the main window: choosing a remote target (here a command target whose worker
// is the stand-in with an H200, the same path as an SSH host) restarts the device query
// through it, and the Device panel shows the remote GPU from its worker's hello. When
// CUWB_REMOTE_SCREENSHOT names a file, the window with the Device dock in front is saved there.
#include "gui/device/devicepanel.h"
#include "gui/device/deviceprobe.h"
#include "gui/device/deviceselector.h"
#include "gui/device/devicetool.h"
#include "gui/shell/mainwindow.h"

#include "worker/protocol.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_mainwindowremote {

class TestMainWindowRemote : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { m_window.reset(); }
    void choosingATargetShowsItsGpu();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindowRemote::initTestCase()
{
    QVERIFY(m_dir.isValid());
    cuwb::test::keepSettingsIn(m_dir.path());
    // The remote cuwb: the stand-in worker with a GPU, of this program's version.
    const QString remote = m_dir.filePath(QStringLiteral("remote-cuwb"));
    QFile script(remote);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(
        QStringLiteral("#!/bin/sh\n[ \"$1\" = worker ] && shift\n"
                       "export CUWB_FAKE_WORKER_VERSION='%1'\nexec %2 measure-ok\n")
            .arg(QString::fromStdString(workbenchVersion()), QStringLiteral(CUWB_FAKE_WORKER_PATH))
            .toUtf8());
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QFile targets(m_dir.filePath(QStringLiteral("targets.json")));
    QVERIFY(targets.open(QIODevice::WriteOnly));
    targets.write(QStringLiteral(R"({"targets": [{"name": "gpu-server", "kind": "command",
        "command": ["/bin/sh"], "cuwb": "%1"}]})")
                      .arg(remote)
                      .toUtf8());
    targets.close();
    qputenv("CUWB_TARGETS", targets.fileName().toUtf8());

    MainWindow::Settings settings;
    settings.samplesDir = QStringLiteral(CUWB_SAMPLES_DIR);
    settings.restoreLayout = false;
    settings.prompts = false;
    if (QFileInfo::exists(QStringLiteral(CUWB_CLI_PATH)))
        settings.cliPath = QStringLiteral(CUWB_CLI_PATH);
    m_window = std::make_unique<MainWindow>(settings);
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestMainWindowRemote::choosingATargetShowsItsGpu()
{
    auto *selector = m_window->findChild<DeviceSelector *>(QStringLiteral("deviceSelector"));
    QVERIFY(selector);
    QCOMPARE(selector->target(), QString()); // this machine, until the user chooses
    QVERIFY(selector->combo()->findText(QStringLiteral("gpu-server (/bin/sh)")) >= 0);
    QVERIFY(QTest::qWaitFor([&] { return m_window->deviceProbe()->isFinished(); }, 30000));

    QVERIFY(selector->setTarget(QStringLiteral("gpu-server")));
    const auto showsRemoteGpu = [&] {
        return m_window->deviceProbe()->isFinished() && m_window->deviceTool()
                                                            ->panel()
                                                            ->lines()
                                                            .join(QLatin1Char('\n'))
                                                            .contains(QStringLiteral("Fake H200"));
    };
    QVERIFY2(QTest::qWaitFor(showsRemoteGpu, 30000),
             qPrintable(m_window->deviceProbe()->summary()));
    QCOMPARE(m_window->deviceProbe()->summary(), QStringLiteral("Fake H200 (sm_90)"));
    QCOMPARE(QSettings().value(QStringLiteral("device/target")).toString(),
             QStringLiteral("gpu-server"));

    if (const QByteArray path = qgetenv("CUWB_REMOTE_SCREENSHOT"); !path.isEmpty()) {
        m_window->findChild<QDockWidget *>(QStringLiteral("deviceDock"))->raise();
        QTest::qWait(200);
        QVERIFY(m_window->grab().save(QString::fromLocal8Bit(path)));
    }
}

CUWB_TEST_MAIN(TestMainWindowRemote)
} // namespace tst_mainwindowremote
} // namespace

#include "tst_mainwindowremote.moc"
