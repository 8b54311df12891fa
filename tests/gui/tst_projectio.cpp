#include "gui/compile/compilecontroller.h"
#include "gui/compile/compileoptionswidget.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/launch/launchpanel.h"
#include "gui/shell/mainwindow.h"
#include "gui/shell/projectcontroller.h"
#include "gui/workspace/workspace.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_projectio {

namespace {

constexpr int CompileTimeoutMs = 30000;

QString vectorAddProject()
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb");
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

} // namespace

class TestProjectIo : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    std::unique_ptr<MainWindow> m_window;

    bool waitForLaunchOf(const QString &kernel)
    {
        return QTest::qWaitFor(
            [&] {
                return m_window->launchPanel()->currentKernel() == kernel &&
                       !m_window->compileController()->isBusy() &&
                       !m_window->compileController()->isDebouncing();
            },
            CompileTimeoutMs);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
    }

    void init()
    {
        MainWindow::Settings settings;
        settings.restoreLayout = false;
        settings.probeDevices = false;
        settings.prompts = false;
        m_window = std::make_unique<MainWindow>(settings);
    }

    void cleanup() { m_window.reset(); }

    void opensAProject()
    {
        Document *document = m_window->openPath(vectorAddProject());
        QVERIFY(document);
        QVERIFY(document->filePath().endsWith(QStringLiteral("vector_add/vector_add.cu")));
        QVERIFY(document->editor()->text().contains(QStringLiteral("__global__")));
        QCOMPARE(m_window->workspace()->compileOptions().arch, std::string("sm_90"));
        QVERIFY(m_window->projectController()->hasProject());

        QVERIFY(waitForLaunchOf(QStringLiteral("vector_add")));
        LaunchPanel *launch = m_window->launchPanel();
        const LaunchSpec spec = m_window->workspace()->launch().spec();
        QCOMPARE(spec.variables.size(), std::size_t(1));
        QCOMPARE(spec.variables.front().second, std::string("1 << 24"));
        QCOMPARE(spec.arguments.size(), std::size_t(4));
        QCOMPARE(spec.arguments[1].init.kind, InitKind::Uniform);
        QCOMPARE(spec.arguments[1].init.seed, std::uint64_t(2));
        QCOMPARE(m_window->workspace()->launch().verification().first().kind,
                 ReferenceKind::Expression);
        QCOMPARE(m_window->workspace()->launch().verification().first().expression,
                 std::string("a[i] + b[i]"));
        QCOMPARE(m_window->workspace()->launch().verification().first().output, std::string("c"));
        QVERIFY(launch->issues().empty());
        // No GPU in this test: Run says why.
        QVERIFY(!launch->canRun());
        QVERIFY(launch->runBlockedReason().startsWith(QStringLiteral("Run needs a CUDA GPU")));
    }

    void malformedProjectChangesNothing()
    {
        Document *document = m_window->openPath(vectorAddProject());
        QVERIFY(document);
        QVERIFY(waitForLaunchOf(QStringLiteral("vector_add")));
        const LaunchSpec before = m_window->workspace()->launch().spec();
        const int documents = int(m_window->documentTabs()->documents().size());
        const CompileOptions options = m_window->workspace()->compileOptions();

        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.cuwb"));
        QVERIFY(writeFile(broken, "{\n  \"schemaVersion\": 1,\n  \"name\": ,\n}\n"));
        QVERIFY(!m_window->openPath(broken));
        const QString error = m_window->projectController()->lastError();
        QVERIFY2(error.contains(QStringLiteral("line 3")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("column")), qPrintable(error));

        const QString future = dir.filePath(QStringLiteral("future.cuwb"));
        QVERIFY(writeFile(future, "{\"schemaVersion\": 99, \"source\": {\"inline\": \"\"}}"));
        QVERIFY(!m_window->openPath(future));
        QVERIFY2(m_window->projectController()->lastError().contains(QStringLiteral("99")),
                 qPrintable(m_window->projectController()->lastError()));

        QCOMPARE(int(m_window->documentTabs()->documents().size()), documents);
        QVERIFY(m_window->workspace()->launch().spec() == before);
        QVERIFY(m_window->workspace()->compileOptions() == options);
        QCOMPARE(m_window->projectController()->projectPath(),
                 QFileInfo(vectorAddProject()).absoluteFilePath());
    }

    void savesAndReopens()
    {
        QTemporaryDir dir;
        // An inline source and a field from a newer version, which must survive the save.
        const QString source =
            QStringLiteral("__global__ void scale(float *x, float factor, int n)\n"
                           "{\n"
                           "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    if (i < n)\n"
                           "        x[i] *= factor;\n"
                           "}\n");
        nlohmann::json json;
        json["schemaVersion"] = 1;
        json["name"] = "scale";
        json["source"] = {{"inline", source.toStdString()}};
        json["compileOptions"] = {{"arch", "sm_80"}};
        json["futureField"] = {{"kept", true}};
        const QString path = dir.filePath(QStringLiteral("scale.cuwb"));
        QVERIFY(writeFile(path, QByteArray::fromStdString(json.dump(2))));

        Document *document = m_window->openPath(path);
        QVERIFY2(document, qPrintable(m_window->projectController()->lastError()));
        QCOMPARE(document->editor()->text(), source);
        QCOMPARE(m_window->workspace()->compileOptions().arch, std::string("sm_80"));
        QVERIFY(waitForLaunchOf(QStringLiteral("_Z5scalePffi")));

        // Save under a new name.
        QCOMPARE(m_window->workspace()->launch().spec().arguments.size(), std::size_t(3));
        const QString copy = dir.filePath(QStringLiteral("copy.cuwb"));
        QVERIFY2(m_window->projectController()->saveTo(copy),
                 qPrintable(m_window->projectController()->lastError()));

        const ProjectLoad load = loadProject(copy.toStdString());
        QVERIFY2(load.project, load.error.c_str());
        const Project &saved = *load.project;
        QCOMPARE(saved.inlineSource, source.toStdString());
        QVERIFY(saved.sourcePath.empty());
        QCOMPARE(saved.options.arch, std::string("sm_80"));
        QVERIFY(saved.launch == m_window->workspace()->launch().spec());
        QVERIFY(saved.verification == m_window->workspace()->launch().verification());
        QVERIFY2(saved.unknownFields.contains("futureField"), saved.unknownFields.dump().c_str());

        // Reopening gives the same launch.
        init();
        QVERIFY(m_window->openPath(copy));
        QVERIFY(waitForLaunchOf(QStringLiteral("_Z5scalePffi")));
        QVERIFY(m_window->workspace()->launch().spec() == saved.launch);
    }

    void sweepSnapshotIsSelfContained()
    {
        // No project: a Slurm sweep has nothing to send.
        ProjectController *projects = m_window->projectController();
        QVERIFY(!projects->sweepSnapshot({}, {}).error.isEmpty());

        // The sample's source file, edited and not saved, and its sweep replaced.
        QVERIFY(m_window->openPath(vectorAddProject()));
        QVERIFY(waitForLaunchOf(QStringLiteral("vector_add")));
        RunRequest base = m_window->workspace()->runRequest();
        base.source += "// edited, not saved\n";
        SweepSpec spec;
        SweepAxis axis;
        axis.target = "block.x";
        axis.kind = AxisValues::List;
        axis.values = {"64", "128"};
        spec.axes = {axis};
        const SweepController::ProjectSnapshot snapshot = projects->sweepSnapshot(spec, base);
        QVERIFY2(snapshot.error.isEmpty(), qPrintable(snapshot.error));
        QCOMPARE(snapshot.name, QStringLiteral("vector_add"));
        QCOMPARE(snapshot.folder, QFileInfo(vectorAddProject()).absolutePath());

        // Read back from another folder, it needs nothing beside it.
        const ProjectLoad load = parseProject(snapshot.json);
        QVERIFY2(load.project, load.error.c_str());
        const Project &project = *load.project;
        QVERIFY(project.sourcePath.empty());
        QCOMPARE(project.inlineSource, base.source);
        QVERIFY(project.sweep);
        QCOMPARE(project.sweep->axes.size(), std::size_t(1));
        QCOMPARE(project.sweep->axes[0].values, (std::vector<std::string>{"64", "128"}));
        QVERIFY(std::find(project.options.includeDirs.begin(), project.options.includeDirs.end(),
                          QFileInfo(vectorAddProject()).absolutePath().toStdString()) !=
                project.options.includeDirs.end());
    }

    void savesASourceFileRelativeToTheProject()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu"),
                            dir.filePath(QStringLiteral("vector_add.cu"))));
        QVERIFY(m_window->openPath(dir.filePath(QStringLiteral("vector_add.cu"))));
        QVERIFY(waitForLaunchOf(QStringLiteral("vector_add")));
        const QString path = dir.filePath(QStringLiteral("va.cuwb"));
        QVERIFY(m_window->projectController()->saveTo(path));
        const ProjectLoad load = loadProject(path.toStdString());
        QVERIFY(load.project);
        QCOMPARE(load.project->sourcePath, std::string("vector_add.cu"));
        QVERIFY(load.project->inlineSource.empty());
    }
};

CUWB_TEST_MAIN(TestProjectIo)
} // namespace tst_projectio
} // namespace

#include "tst_projectio.moc"
