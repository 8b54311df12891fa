// The open project's unsaved settings: opening a project (and the compile that adopts its launch)
// leaves it unmodified; an edit of the launch, the compile options or the sweep marks it, in the
// window's title too; the same edit undone by hand, a save, or opening it again clears the mark.
// Closing the window, or opening another project, with unsaved settings asks Save, Discard or
// Cancel, and each answer does what it says. While another source's tab is in front, the Launch
// dock follows that kernel, and neither that nor its edits change the project.
#include "gui/common/expressionfield.h"
#include "gui/compile/compilecontroller.h"
#include "gui/compile/compileoptionswidget.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/launch/launchpanel.h"
#include "gui/shell/mainwindow.h"
#include "gui/shell/projectcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/workspace.h"

#include "project/project.h"

#include <QCheckBox>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_projectmodified {

namespace {

constexpr int kCompileTimeoutMs = 60000;
const QString kMark = QStringLiteral(" \u25cf");

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool copyFile(const QString &from, const QString &to)
{
    QFile::remove(to);
    return QFile::copy(from, to) && QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
}

} // namespace

class TestProjectModified : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    QString m_project; // a copy of the vector_add sample's project and source
    QString m_other;   // a second project beside it

    ProjectController *projects() const { return m_window->projectController(); }

    bool waitForLaunch()
    {
        return QTest::qWaitFor(
            [&] {
                return m_window->launchPanel()->currentKernel() == QStringLiteral("vector_add") &&
                       !m_window->compileController()->isBusy() &&
                       !m_window->compileController()->isDebouncing();
            },
            kCompileTimeoutMs);
    }

    // As typed: textEdited follows each key.
    static void typeBlockX(LaunchPanel *launch, const QString &text)
    {
        QLineEdit *edit = launch->blockField(0)->lineEdit();
        edit->selectAll();
        QTest::keyClicks(edit, text);
    }

    bool titleMarksProject() const
    {
        return m_window->windowTitle().contains(QStringLiteral("vector_add.cuwb") + kMark);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
        const QString samples = QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/");
        m_project = m_dir.filePath(QStringLiteral("vector_add.cuwb"));
        m_other = m_dir.filePath(QStringLiteral("other.cuwb"));
        QVERIFY(copyFile(samples + QStringLiteral("vector_add.cu"),
                         m_dir.filePath(QStringLiteral("vector_add.cu"))));
        QVERIFY(copyFile(samples + QStringLiteral("vector_add.cuwb"), m_other));
    }

    void init()
    {
        // A fresh copy each time: a test may save it.
        QVERIFY(
            copyFile(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb"), m_project));
        MainWindow::Settings settings;
        settings.restoreLayout = false;
        settings.probeDevices = false;
        settings.prompts = false;
        m_window = std::make_unique<MainWindow>(settings);
        m_window->show();
        QVERIFY(m_window->openPath(m_project));
        QVERIFY(waitForLaunch());
    }

    void cleanup() { m_window.reset(); }

    void openingIsNotAnEdit()
    {
        // Neither the open nor the compile that adopted its launch marked it.
        QVERIFY(projects()->hasProject());
        QVERIFY(!projects()->isModified());
        QVERIFY2(m_window->windowTitle().contains(QStringLiteral("vector_add.cuwb")),
                 qPrintable(m_window->windowTitle()));
        QVERIFY2(!titleMarksProject(), qPrintable(m_window->windowTitle()));
        // Opening it again (a revert) is not an edit either.
        QVERIFY(m_window->openPath(m_project));
        QVERIFY(waitForLaunch());
        QVERIFY(!projects()->isModified());
    }

    void adoptingALaunchIsNotAnEdit()
    {
        // A project whose launch names only its kernel, which the window has not compiled yet:
        // the compile fills in the arguments and the verification's output, which would be
        // saved, but the user edited nothing.
        QTemporaryDir dir;
        const QString sparse = dir.filePath(QStringLiteral("sparse.cuwb"));
        {
            QFile file(sparse);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\"schemaVersion\": 1, \"source\": {\"inline\": \"__global__ void "
                       "scale(float *x, float f, int n) { x[threadIdx.x] *= f; }\"}, "
                       "\"launch\": {\"kernel\": \"scale\"}, \"verification\": "
                       "{\"kind\": \"expression\", \"expression\": \"x[i]\"}}");
        }
        QVERIFY(m_window->openPath(sparse));
        QVERIFY(!projects()->isModified());
        QVERIFY(QTest::qWaitFor(
            [&] {
                return m_window->launchPanel()->currentKernel() == QStringLiteral("_Z5scalePffi") &&
                       !m_window->compileController()->isBusy() &&
                       !m_window->compileController()->isDebouncing();
            },
            kCompileTimeoutMs));
        const Project saved = projects()->currentProject(sparse);
        QCOMPARE(saved.launch.arguments.size(), std::size_t(3)); // the adoption happened
        QCOMPARE(saved.verification.checks[0].output, std::string("x"));
        QVERIFY(!projects()->isModified());
        QVERIFY(!m_window->windowTitle().contains(QStringLiteral("sparse.cuwb") + kMark));
    }

    void editsMarkAndUndoingThemClears()
    {
        QSignalSpy modified(projects(), &ProjectController::modifiedChanged);
        LaunchPanel *launch = m_window->launchPanel();

        // The launch.
        typeBlockX(launch, QStringLiteral("128"));
        QVERIFY(projects()->isModified());
        QCOMPARE(modified.count(), 1);
        QCOMPARE(modified.last().at(0).toBool(), true);
        QVERIFY2(titleMarksProject(), qPrintable(m_window->windowTitle()));
        QCOMPARE(projects()->currentProject(m_project).launch.block[0], std::string("128"));
        typeBlockX(launch, QStringLiteral("256"));
        QVERIFY(!projects()->isModified());
        QCOMPARE(modified.count(), 2);
        QVERIFY2(!titleMarksProject(), qPrintable(m_window->windowTitle()));

        // The compile options, as the user clicks them in the dock.
        QCheckBox *fastMath = nullptr;
        for (QCheckBox *box : m_window->compileOptionsWidget()->findChildren<QCheckBox *>()) {
            if (box->text().startsWith(QStringLiteral("Fast math")))
                fastMath = box;
        }
        QVERIFY(fastMath);
        const bool original = m_window->workspace()->compileOptions().fastMath;
        fastMath->click();
        QCOMPARE(m_window->workspace()->compileOptions().fastMath, !original);
        QVERIFY(projects()->isModified());
        fastMath->click();
        QVERIFY(!projects()->isModified());

        // The sweep.
        QSpinBox *samples = m_window->sweepTool()->panel()->samplesSpin();
        const int before = samples->value();
        samples->setValue(before + 3);
        QVERIFY(projects()->isModified());
        samples->setValue(before);
        QVERIFY(!projects()->isModified());

        // Nothing was written.
        QCOMPARE(readAll(m_project),
                 readAll(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb")));
    }

    void savingClears()
    {
        typeBlockX(m_window->launchPanel(), QStringLiteral("128"));
        QVERIFY(projects()->isModified());
        QVERIFY(projects()->save());
        QVERIFY(!projects()->isModified());
        QVERIFY2(!titleMarksProject(), qPrintable(m_window->windowTitle()));
        const ProjectLoad load = loadProject(m_project.toStdString());
        QVERIFY2(load.project, load.error.c_str());
        QCOMPARE(load.project->launch.block[0], std::string("128"));
        // Back to the old value: an edit again, now that the file says 128.
        typeBlockX(m_window->launchPanel(), QStringLiteral("256"));
        QVERIFY(projects()->isModified());
    }

    void anotherTabsLaunchIsNotTheProjects()
    {
        // Another source in front: the Launch dock follows its kernel, the project keeps its
        // own launch, and an edit of the other kernel's launch is not an edit of the project.
        const QString other = m_dir.filePath(QStringLiteral("scale.cu"));
        {
            QFile file(other);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(
                "__global__ void scale(float *x, float f, int n) { x[threadIdx.x] *= f; }\n");
        }
        Document *project = m_window->currentDocument();
        const Project before = projects()->currentProject(m_project);
        QVERIFY(m_window->openPath(other));
        QVERIFY(QTest::qWaitFor(
            [&] {
                return m_window->launchPanel()->currentKernel() == QStringLiteral("_Z5scalePffi") &&
                       !m_window->compileController()->isBusy() &&
                       !m_window->compileController()->isDebouncing();
            },
            kCompileTimeoutMs));
        QVERIFY(!projects()->isModified());
        typeBlockX(m_window->launchPanel(), QStringLiteral("32"));
        QVERIFY(!projects()->isModified());
        const Project away = projects()->currentProject(m_project);
        QVERIFY(away.launch == before.launch);
        QVERIFY(away.verification == before.verification);

        // Back on the project's source: its own launch again, still unmodified.
        m_window->documentTabs()->setCurrentWidget(project->editor());
        QVERIFY(waitForLaunch());
        QVERIFY(!projects()->isModified());
        QVERIFY(projects()->currentProject(m_project).launch == before.launch);
        // And its edits count again.
        typeBlockX(m_window->launchPanel(), QStringLiteral("128"));
        QVERIFY(projects()->isModified());
    }

    void closingAsks_data()
    {
        QTest::addColumn<int>("answer");
        QTest::addColumn<bool>("closes");
        QTest::addColumn<QString>("blockOnDisk");
        QTest::newRow("cancel") << int(QMessageBox::Cancel) << false << QStringLiteral("256");
        QTest::newRow("discard") << int(QMessageBox::Discard) << true << QStringLiteral("256");
        QTest::newRow("save") << int(QMessageBox::Save) << true << QStringLiteral("128");
    }

    void closingAsks()
    {
        QFETCH(int, answer);
        QFETCH(bool, closes);
        QFETCH(QString, blockOnDisk);
        QStringList questions;
        projects()->setSavePrompt([&](const QString &question) {
            questions << question;
            return QMessageBox::StandardButton(answer);
        });

        // Unmodified: closing asks nothing.
        QVERIFY(projects()->maybeSave());
        QVERIFY(questions.isEmpty());

        typeBlockX(m_window->launchPanel(), QStringLiteral("128"));
        QCOMPARE(m_window->close(), closes);
        QCOMPARE(questions.size(), 1);
        QVERIFY2(questions.front().contains(QStringLiteral("vector_add.cuwb")),
                 qPrintable(questions.front()));
        QCOMPARE(m_window->isVisible(), !closes);
        // Only a save makes it unmodified; a discarded change goes with the window.
        QCOMPARE(projects()->isModified(), answer != int(QMessageBox::Save));
        const ProjectLoad load = loadProject(m_project.toStdString());
        QVERIFY2(load.project, load.error.c_str());
        QCOMPARE(QString::fromStdString(load.project->launch.block[0]), blockOnDisk);
    }

    void openingAnotherProjectAsks()
    {
        int asked = 0;
        QMessageBox::StandardButton answer = QMessageBox::Cancel;
        projects()->setSavePrompt([&](const QString &) {
            ++asked;
            return answer;
        });
        typeBlockX(m_window->launchPanel(), QStringLiteral("128"));

        // Cancel: the project stays, with its changes.
        QVERIFY(!m_window->openPath(m_other));
        QCOMPARE(asked, 1);
        QCOMPARE(projects()->projectPath(), QFileInfo(m_project).absoluteFilePath());
        QVERIFY(projects()->isModified());
        QCOMPARE(projects()->currentProject(m_project).launch.block[0], std::string("128"));

        // Discard: the other project opens, unmodified; this one's file is as it was.
        answer = QMessageBox::Discard;
        QVERIFY(m_window->openPath(m_other));
        QCOMPARE(asked, 2);
        QCOMPARE(projects()->projectPath(), QFileInfo(m_other).absoluteFilePath());
        QVERIFY(waitForLaunch());
        QVERIFY(!projects()->isModified());
        QCOMPARE(readAll(m_project),
                 readAll(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb")));
    }

    void withoutPromptsClosingDiscards()
    {
        // Tests and screenshots: no dialog, the changes go, nothing is written.
        typeBlockX(m_window->launchPanel(), QStringLiteral("128"));
        QVERIFY(m_window->close());
        QCOMPARE(readAll(m_project),
                 readAll(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb")));
    }
};

CUWB_TEST_MAIN(TestProjectModified)
} // namespace tst_projectmodified
} // namespace

#include "tst_projectmodified.moc"
