#include "gui/shell/projectcontroller.h"

#include "gui/common/qtconvert.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/workspace/workspace.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace cuwb {

ProjectController::ProjectController(DocumentTabs *tabs, Workspace *workspace,
                                     QWidget *dialogParent)
    : QObject(dialogParent)
    , m_tabs(tabs)
    , m_workspace(workspace)
    , m_dialogParent(dialogParent)
{
    // The user's edits; what the window changes by itself comes inside an AutomaticChange.
    connect(m_workspace, &Workspace::edited, this, &ProjectController::onSettingsEdited);
    // Connected before the window's own handler, which shows the new tab's kernel: the
    // project's launch is still in the Launch dock here.
    connect(m_tabs, &DocumentTabs::currentDocumentChanged, this, [this](Document *document) {
        if (!m_document || document == m_document) {
            m_away.reset();
        } else if (!m_away) {
            m_away = AwayLaunch{m_workspace->launch().launchForCompile(),
                                m_workspace->launch().verification()};
        }
    });
}

ProjectController::AutomaticChange::AutomaticChange(ProjectController *controller)
    : m_controller(controller)
{
    if (m_controller)
        ++m_controller->m_automatic;
}

ProjectController::AutomaticChange::~AutomaticChange()
{
    if (!m_controller || --m_controller->m_automatic > 0 || !m_controller->hasProject())
        return;
    if (m_controller->m_modified || !m_controller->m_savedSettings)
        m_controller->updateModified();
    else
        m_controller->markSaved();
}

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
    // Readable: now the open project (when modified) may be replaced.
    if (!maybeSave()) {
        m_lastError = tr("%1 was not opened: the changes to %2 were neither saved nor discarded.")
                          .arg(QDir::toNativeSeparators(path), QFileInfo(m_path).fileName());
        return nullptr;
    }
    Document *document = show(path, *load.project, title);
    if (!document)
        return nullptr;
    markSaved(); // opening is not an edit
    Q_EMIT projectOpened(m_path);
    return document;
}

Document *ProjectController::show(const QString &path, const Project &project, const QString &title)
{
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
    ++m_automatic; // the panels change one by one: compared once, by the caller
    applySettings(path, project);
    m_project = project;
    m_path = QFileInfo(path).absoluteFilePath();
    m_document = document;
    m_away.reset(); // its source is the current tab
    m_lastError.clear();
    --m_automatic;
    return document;
}

void ProjectController::applySettings(const QString &path, const Project &project)
{
    // The launch first: it waits for its kernel, which the options' compile delivers.
    // Init and reference files relative to the project file, made absolute: the worker runs
    // elsewhere. The options stay as written (the editor adds the source's folder itself).
    Project resolved = project;
    resolveProjectPaths(resolved, toStdString(path));
    m_workspace->setLaunch(resolved.launch, resolved.verification, Workspace::Edit::Automatic);
    m_workspace->setCompileOptions(project.options, Workspace::Edit::Automatic);
    m_workspace->setSweep(project.sweep.value_or(SweepSpec{}), Workspace::Edit::Automatic);
}

bool ProjectController::restore(const QString &path, const Project &autosaved, QString &message)
{
    const QString name = QDir::toNativeSeparators(path);
    if (QFileInfo::exists(path)) {
        if (!open(path)) {
            message =
                tr("The autosaved settings of %1 are not restored: %2").arg(name, m_lastError);
            return false;
        }
        ++m_automatic;
        applySettings(m_path, autosaved);
        --m_automatic;
        updateModified();
        message = m_modified ? tr("%1 is open with its autosaved settings as unsaved changes.")
                                   .arg(QFileInfo(path).fileName())
                             : tr("The autosaved settings of %1 are those of its file.")
                                   .arg(QFileInfo(path).fileName());
        return true;
    }
    // The project file is gone: the autosave is all there is. It is shown under the same
    // path as a project never saved, so that Save Project writes it there again.
    if (!maybeSave()) {
        message = tr("The autosaved settings of %1 are not restored: the changes to %2 were "
                     "neither saved nor discarded.")
                      .arg(name, QFileInfo(m_path).fileName());
        return false;
    }
    if (!show(path, autosaved, tr("Restore Project"))) {
        message = tr("%1 no longer exists, and its autosaved settings cannot be restored: %2")
                      .arg(name, m_lastError);
        return false;
    }
    m_savedSettings.reset(); // nothing on disk to compare with: modified until saved
    m_lastSettings.clear();
    updateModified();
    Q_EMIT projectOpened(m_path);
    message = tr("%1 no longer exists: its autosaved settings are open as an unsaved project; "
                 "Save Project writes it again.")
                  .arg(name);
    return true;
}

std::string ProjectController::settingsJson() const
{
    Project project = currentProject(m_path);
    project.sourcePath.clear();
    project.inlineSource.clear();
    try {
        return serializeProject(project);
    } catch (const std::exception &error) {
        return std::string("unserialisable: ") + error.what(); // differs from any project
    }
}

void ProjectController::markSaved()
{
    const std::string settings = settingsJson();
    const bool changed = settings != m_lastSettings;
    m_savedSettings = settings;
    m_lastSettings = settings;
    setModified(false, changed);
}

void ProjectController::updateModified()
{
    if (!hasProject() || m_automatic > 0)
        return;
    const std::string settings = settingsJson();
    const bool changed = settings != m_lastSettings;
    m_lastSettings = settings;
    setModified(!m_savedSettings || settings != *m_savedSettings, changed);
}

void ProjectController::setModified(bool modified, bool settingsChanged)
{
    const bool flipped = modified != m_modified;
    m_modified = modified;
    if (flipped)
        Q_EMIT modifiedChanged(modified);
    if (flipped || settingsChanged)
        Q_EMIT this->settingsChanged();
}

void ProjectController::onSettingsEdited()
{
    updateModified();
}

bool ProjectController::maybeSave()
{
    if (!isModified())
        return true;
    const QString question =
        tr("The project %1 has unsaved changes to its settings (compile options, launch or "
           "sweep). Save them before closing it?")
            .arg(QFileInfo(m_path).fileName());
    QMessageBox::StandardButton answer = QMessageBox::Discard;
    if (m_savePrompt)
        answer = m_savePrompt(question);
    else if (m_dialogs)
        answer = QMessageBox::warning(
            m_dialogParent, tr("Unsaved Project Changes"), question,
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
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
    project.options = m_workspace->compileOptions();
    // The project's launch until a compile has adopted it, so that nothing is lost by saving
    // before its kernel is compiled.
    if (m_away && m_document) {
        project.launch = m_away->launch;
        project.verification = m_away->verification;
    } else {
        project.launch = m_workspace->launch().launchForCompile();
        project.verification = m_workspace->launch().verification();
    }
    if (m_workspace->sweep().axes.empty())
        project.sweep.reset();
    else
        project.sweep = m_workspace->sweep();
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
    // The launch of the kernel the sweep varies: the Launch dock's, whichever tab it follows.
    project.launch = m_workspace->launch().launchForCompile();
    project.verification = m_workspace->launch().verification();
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
    markSaved();
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
