// The Workspace owns the open project's state: the user's edits are edits and the window's own
// changes are not, a project's launch waits for its kernel, the panels follow it whoever
// changed it, the measurement options outlive the window, and the project controller saves
// and compares what the Workspace holds — all without a main window.

#include "gui/editor/documenttabs.h"
#include "gui/launch/launchpanel.h"
#include "gui/shell/projectcontroller.h"
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/workspace/workspace.h"

#include "compiler/kernelcompiler.h"
#include "project/project.h"

#include "gui/common/expressionfield.h"

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
namespace tst_workspace {

namespace {

const QString kVectorAdd = QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu");
const QString kVectorAddProject = QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb");

std::string readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

SweepSpec blockSweep()
{
    SweepSpec spec;
    SweepAxis axis;
    axis.target = "block.x";
    axis.kind = AxisValues::List;
    axis.values = {"64", "128"};
    spec.axes = {axis};
    return spec;
}

} // namespace

class TestWorkspace : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    CompileResult m_vectorAdd;

private Q_SLOTS:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
        CompileOptions options;
        options.arch = "sm_90";
        options.compiler = "nvrtc";
        m_vectorAdd = KernelCompiler().compile(readText(kVectorAdd), "vector_add.cu", options);
        QVERIFY2(m_vectorAdd.success, m_vectorAdd.log.c_str());
    }

    void userChangesAreEditsTheWindowsAreNot()
    {
        Workspace workspace;
        QSignalSpy options(&workspace, &Workspace::compileOptionsChanged);
        QSignalSpy sweep(&workspace, &Workspace::sweepChanged);
        QSignalSpy edited(&workspace, &Workspace::edited);
        CompileOptions fast = workspace.compileOptions();
        fast.fastMath = !fast.fastMath;
        workspace.setCompileOptions(fast, Workspace::Edit::Automatic);
        QCOMPARE(options.count(), 1);
        QCOMPARE(edited.count(), 0);
        fast.lineInfo = !fast.lineInfo;
        workspace.setCompileOptions(fast, Workspace::Edit::User);
        QCOMPARE(options.count(), 2);
        QCOMPARE(edited.count(), 1);
        workspace.setCompileOptions(fast, Workspace::Edit::User); // the same value: nothing
        QCOMPARE(options.count(), 2);
        QCOMPARE(edited.count(), 1);
        workspace.setSweep(blockSweep(), Workspace::Edit::User);
        workspace.setSweep(blockSweep(), Workspace::Edit::User);
        QCOMPARE(sweep.count(), 1);
        QCOMPARE(edited.count(), 2);
    }

    void aProjectsLaunchWaitsForItsKernel()
    {
        Workspace workspace;
        QSignalSpy launch(&workspace, &Workspace::launchChanged);
        LaunchSpec spec;
        spec.kernel = "vector_add";
        spec.variables = {{"n", "4096"}};
        spec.block = {"128", "1", "1"};
        spec.grid = {"(n + block.x - 1) / block.x", "1", "1"};
        workspace.setLaunch(spec, Verification{});
        QVERIFY(!workspace.launch().hasKernel());
        QCOMPARE(workspace.launch().launchForCompile().block[0], std::string("128"));

        workspace.setModule(m_vectorAdd, readText(kVectorAdd), "vector_add.cu");
        QVERIFY(workspace.launch().hasKernel());
        const auto change = launch.last().at(0).value<LaunchSession::Change>();
        QVERIFY(change.adopted);
        const RunRequest request = workspace.runRequest();
        QCOMPARE(request.launch.block[0], std::string("128"));
        QCOMPARE(request.launch.arguments.size(), std::size_t(4));
        QCOMPARE(request.fileName, std::string("vector_add.cu"));
        QCOMPARE(workspace.bufferTypeNames().value(QStringLiteral("a")), QStringLiteral("float"));

        // The launch's defines reach the editor's compile, bound to their values.
        LaunchSpec withDefine = workspace.launch().spec();
        withDefine.defines = {{"TILE", "block.x / 4"}};
        workspace.setLaunchSpec(withDefine);
        const std::vector<std::string> &defines = workspace.editorCompileOptions().defines;
        QVERIFY(std::find(defines.begin(), defines.end(), "TILE=32") != defines.end());
        QVERIFY(workspace.compileOptions().defines.empty()); // the project's own are untouched
    }

    void thePanelsFollowWhoeverChangedIt()
    {
        Workspace workspace;
        LaunchPanel launch(&workspace);
        SweepController controller;
        SweepPanel sweep(&controller, &workspace);
        workspace.setModule(m_vectorAdd, readText(kVectorAdd), "vector_add.cu");
        QCOMPARE(launch.currentKernel(), QStringLiteral("vector_add"));

        // The window (a sweep point, a project) changes it: the panels show it.
        LaunchSpec spec = workspace.launch().spec();
        spec.block[0] = "64";
        workspace.setLaunch(spec, workspace.launch().verification());
        QCOMPARE(launch.blockField(0)->expression(), QStringLiteral("64"));
        SweepSpec sweepSpec = blockSweep();
        sweepSpec.settings.fixedSamples = 7;
        workspace.setSweep(sweepSpec, Workspace::Edit::Automatic);
        QCOMPARE(sweep.samplesSpin()->value(), 7);

        // The user changes it in a panel: the Workspace holds it, and it is an edit.
        QSignalSpy edited(&workspace, &Workspace::edited);
        QLineEdit *block = launch.blockField(0)->lineEdit();
        block->selectAll();
        QTest::keyClicks(block, QStringLiteral("256"));
        QCOMPARE(workspace.launch().spec().block[0], std::string("256"));
        QVERIFY(edited.count() >= 1);
        const int before = int(edited.count());
        sweep.samplesSpin()->setValue(9);
        QCOMPARE(workspace.sweep().settings.fixedSamples, 9);
        QCOMPARE(edited.count(), before + 1);
    }

    void theMeasurementOptionsOutliveTheWindow()
    {
        QSettings().remove(QStringLiteral("measure"));
        SampleSettings settings;
        settings.mode = SampleMode::Hot;
        settings.minSamples = 42;
        MetricsChoice choice{true, {"dram__bytes_read.sum"}};
        {
            Workspace workspace;
            QSignalSpy changed(&workspace, &Workspace::sampleSettingsChanged);
            workspace.setSampleSettings(settings);
            workspace.setMetricsChoice(choice);
            QCOMPARE(changed.count(), 1);
        }
        Workspace next;
        QVERIFY(next.sampleSettings() == settings);
        QVERIFY(next.metricsChoice() == choice);
        next.setSampleSettings(SampleSettings{});
        next.setMetricsChoice(MetricsChoice{});
    }

    void theProjectIsWhatTheWorkspaceHolds()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("vector_add.cuwb"));
        QVERIFY(QFile::copy(kVectorAddProject, project));
        QVERIFY(QFile::copy(kVectorAdd, dir.filePath(QStringLiteral("vector_add.cu"))));
        QFile(project).setPermissions(QFile::ReadOwner | QFile::WriteOwner);

        DocumentTabs tabs;
        tabs.setPromptsEnabled(false);
        Workspace workspace;
        ProjectController projects(&tabs, &workspace, nullptr);
        projects.setDialogsEnabled(false);
        QVERIFY2(projects.open(project), qPrintable(projects.lastError()));
        const ProjectLoad load = loadProject(project.toStdString());
        QVERIFY(load.project);
        // Opened: the Workspace has its options and its launch (waiting for its kernel).
        QVERIFY(workspace.compileOptions() == load.project->options);
        QCOMPARE(workspace.launch().launchForCompile().kernel, load.project->launch.kernel);
        QVERIFY(!projects.isModified());

        // An edit through the Workspace modifies the project; undoing it by hand does not.
        QSignalSpy modified(&projects, &ProjectController::modifiedChanged);
        CompileOptions fast = workspace.compileOptions();
        fast.fastMath = !fast.fastMath;
        workspace.setCompileOptions(fast);
        QVERIFY(projects.isModified());
        fast.fastMath = !fast.fastMath;
        workspace.setCompileOptions(fast);
        QVERIFY(!projects.isModified());
        QCOMPARE(modified.count(), 2);

        // A change the window makes by itself is not an edit.
        {
            const ProjectController::AutomaticChange automatic(&projects);
            workspace.setSweep(blockSweep(), Workspace::Edit::Automatic);
        }
        QVERIFY(!projects.isModified());

        // Saved: the file holds the Workspace's values.
        SweepSpec sweep = blockSweep();
        sweep.settings.fixedSamples = 5;
        workspace.setSweep(sweep);
        QVERIFY(projects.isModified());
        QVERIFY2(projects.save(), qPrintable(projects.lastError()));
        QVERIFY(!projects.isModified());
        const ProjectLoad saved = loadProject(project.toStdString());
        QVERIFY2(saved.project, saved.error.c_str());
        QVERIFY(saved.project->sweep);
        QCOMPARE(saved.project->sweep->settings.fixedSamples, 5);
        QVERIFY(saved.project->options == workspace.compileOptions());
    }
};

CUWB_TEST_MAIN(TestWorkspace)
} // namespace tst_workspace
} // namespace

#include "tst_workspace.moc"
