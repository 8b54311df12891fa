#include "gui/shell/projectcontroller.h"

#include "gui/common/qtconvert.h"
#include "gui/compile/compileoptionswidget.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/launch/launchpanel.h"
#include "gui/sweep/sweeppanel.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace cuwb {

ProjectController::ProjectController(DocumentTabs *tabs, CompileOptionsWidget *options,
                                     LaunchPanel *launch, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_tabs(tabs)
    , m_options(options)
    , m_launch(launch)
    , m_dialogParent(dialogParent)
{}

QString ProjectController::loadErrorText(const QString &path, const ProjectLoad &load)
{
    const QString file = QDir::toNativeSeparators(path);
    const QString error = toQString(load.error);
    // The core's message may already name the position; do not say it twice.
    if (load.line > 0 && !error.startsWith(QLatin1String("line ")))
        return tr("%1, line %2, column %3: %4")
            .arg(file)
            .arg(load.line)
            .arg(load.column)
            .arg(error);
    return tr("%1: %2").arg(file, error);
}

void ProjectController::fail(const QString &title, const QString &message)
{
    m_lastError = message;
    if (m_dialogs)
        QMessageBox::warning(m_dialogParent, title, message);
    Q_EMIT errorOccurred(message);
}

Document *ProjectController::open(const QString &path)
{
    const QString title = tr("Open Project");
    ProjectLoad load;
    try {
        load = loadProject(toStdString(path));
    } catch (const std::exception &error) {
        load.error = error.what();
    }
    if (!load.project) {
        fail(title, loadErrorText(path, load));
        return nullptr;
    }
    const Project &project = *load.project;
    std::string source;
    std::string error;
    if (!readProjectSource(project, toStdString(path), source, error)) {
        fail(title, tr("%1: %2").arg(QDir::toNativeSeparators(path), toQString(error)));
        return nullptr;
    }

    // Everything is readable: now change the workbench.
    Document *document = nullptr;
    if (!project.sourcePath.empty()) {
        const QString sourcePath = QDir::cleanPath(
            QFileInfo(path).absoluteDir().absoluteFilePath(toQString(project.sourcePath)));
        document = m_tabs->openFile(sourcePath);
    } else {
        document = m_tabs->newDocument();
        if (document) {
            document->editor()->setText(toQString(source));
            document->setModified(false);
        }
    }
    if (!document) {
        fail(title, tr("%1: the source could not be opened").arg(QDir::toNativeSeparators(path)));
        return nullptr;
    }
    // The launch first: it waits for its kernel, which the options' compile delivers.
    // Init and reference files relative to the project file, made absolute: the worker runs
    // elsewhere. The options stay as written (the editor adds the source's folder itself).
    Project resolved = project;
    resolveProjectPaths(resolved, toStdString(path));
    m_launch->setLaunch(resolved.launch, resolved.verification);
    m_options->setOptions(project.options);
    if (m_sweep)
        m_sweep->setSpec(project.sweep.value_or(SweepSpec{}));
    m_project = project;
    m_path = QFileInfo(path).absoluteFilePath();
    m_document = document;
    m_lastError.clear();
    Q_EMIT projectOpened(m_path);
    return document;
}

Document *ProjectController::projectDocument() const
{
    if (m_document)
        return m_document;
    return m_tabs->currentDocument();
}

ThroughputExpressions ProjectController::throughputFor(const Document *document) const
{
    if (!hasProject() || !m_document || m_document != document)
        return {};
    return m_project.measure.throughput;
}

Project ProjectController::currentProject(const QString &path) const
{
    Project project = m_project; // keeps fields from newer versions and the name
    project.options = m_options->options();
    project.launch = m_launch->launchSpec();
    project.verification = m_launch->verification();
    if (m_sweep) {
        const SweepSpec sweep = m_sweep->spec();
        if (sweep.axes.empty())
            project.sweep.reset();
        else
            project.sweep = sweep;
    }
    if (project.name.empty())
        project.name = toStdString(QFileInfo(path).completeBaseName());
    if (Document *document = projectDocument()) {
        if (!document->filePath().isEmpty()) {
            project.sourcePath =
                toStdString(QFileInfo(path).absoluteDir().relativeFilePath(document->filePath()));
            project.inlineSource.clear();
        } else {
            project.sourcePath.clear();
            project.inlineSource = toStdString(document->editor()->text());
        }
    }
    return project;
}

SweepController::ProjectSnapshot ProjectController::sweepSnapshot(const SweepSpec &spec,
                                                                  const RunRequest &base) const
{
    SweepController::ProjectSnapshot snapshot;
    if (m_path.isEmpty()) {
        snapshot.error = tr("A Slurm sweep runs a project file on the cluster: save the kernel "
                            "as a project first (File > Save Project As).");
        return snapshot;
    }
    Project project = currentProject(m_path);
    resolveProjectPaths(project, toStdString(m_path)); // while the source path is still known
    // The text the sweep was set up with, as a sweep here would measure it, saved or not.
    project.sourcePath.clear();
    project.inlineSource = base.source;
    project.sweep = spec;
    snapshot.name = toQString(project.name);
    snapshot.folder = QFileInfo(m_path).absolutePath();
    snapshot.json = serializeProject(project);
    return snapshot;
}

bool ProjectController::saveTo(const QString &path)
{
    const QString title = tr("Save Project");
    Document *document = projectDocument();
    if (!document) {
        fail(title, tr("There is no source to save in a project."));
        return false;
    }
    // The project refers to the source file: it must be on disk as the user sees it.
    if (!document->filePath().isEmpty() && document->isModified() && !m_tabs->save(document))
        return false;
    const Project project = currentProject(path);
    std::string error;
    try {
        error = saveProject(project, toStdString(path));
    } catch (const std::exception &e) {
        error = e.what();
    }
    if (!error.empty()) {
        fail(title, tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), toQString(error)));
        return false;
    }
    m_project = project;
    m_path = QFileInfo(path).absoluteFilePath();
    m_document = document;
    m_lastError.clear();
    Q_EMIT projectSaved(m_path);
    return true;
}

bool ProjectController::save()
{
    return m_path.isEmpty() ? saveAs() : saveTo(m_path);
}

bool ProjectController::saveAs()
{
    QString start = m_path;
    if (start.isEmpty()) {
        Document *document = projectDocument();
        const QString dir =
            document && !document->directory().isEmpty() ? document->directory() : QDir::homePath();
        const QString base = document ? QFileInfo(document->displayName()).completeBaseName()
                                      : QStringLiteral("project");
        start = QDir(dir).filePath(base + QStringLiteral(".cuwb"));
    }
    QString path = QFileDialog::getSaveFileName(m_dialogParent, tr("Save Project As"), start,
                                                tr("CUDA Workbench projects (*.cuwb)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".cuwb"), Qt::CaseInsensitive))
        path += QStringLiteral(".cuwb");
    return saveTo(path);
}

} // namespace cuwb
