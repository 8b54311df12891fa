#include "gui/automation/sessionscript.h"

#include "gui/common/expressionfield.h"
#include "gui/common/qtconvert.h"
#include "gui/compile/compilecontroller.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/launch/launchpanel.h"
#include "gui/launch/variablesmodel.h"
#include "gui/recovery/autosavecontroller.h"
#include "gui/shell/mainwindow.h"
#include "gui/shell/projectcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweeptool.h"
#include "gui/workspace/workspace.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QSpinBox>

namespace cuwb {

SessionScript::SessionScript(MainWindow *window, QObject *parent)
    : QObject(parent)
    , m_window(window)
{
    // The dialog runs its own event loop: a timer still fires inside it.
    m_poll.setInterval(50);
    connect(&m_poll, &QTimer::timeout, this, &SessionScript::answerDialog);
    m_compileWait.setInterval(100);
    connect(&m_compileWait, &QTimer::timeout, this, &SessionScript::whenCompiled);
}

bool SessionScript::setRecoveryAnswer(const QString &answer)
{
    using Choice = RecoveryDialog::Choice;
    if (answer == QLatin1String("restore"))
        m_answer = Choice::Restore;
    else if (answer == QLatin1String("discard"))
        m_answer = Choice::Discard;
    else if (answer == QLatin1String("later"))
        m_answer = Choice::Later;
    else
        return false;
    return true;
}

void SessionScript::start()
{
    if (m_answer)
        m_poll.start();
}

void SessionScript::answerDialog()
{
    const QWidgetList windows = QApplication::topLevelWidgets();
    for (QWidget *widget : windows) {
        auto *dialog = qobject_cast<RecoveryDialog *>(widget);
        if (!dialog || !dialog->isVisible())
            continue;
        m_poll.stop();
        m_offerSeen = true;
        m_offered = dialog->entries();
        dialog->choose(*m_answer);
        return;
    }
}

QString SessionScript::recoveryChecked()
{
    m_poll.stop();
    Document *document = m_window->currentDocument();
    if (!m_typed.isEmpty() && document) {
        // As typed: an edit at the end of the buffer, with its undo step and modified flag
        // (QsciScintilla::append() would forget the undo history).
        SourceEditor *editor = document->editor();
        editor->SendScintilla(QsciScintillaBase::SCI_INSERTTEXT,
                              static_cast<unsigned long>(editor->length()),
                              m_typed.toUtf8().constData());
    }
    if (m_window->projectController()->hasProject()) {
        m_compileWait.start(); // the report follows the project's compile
        return {};
    }
    return writeReport();
}

void SessionScript::whenCompiled()
{
    // Two minutes at most (a loaded CI machine): a project whose kernel never compiles is
    // reported as it is.
    constexpr int kMaxWaits = 1200;
    const bool compiled = !m_window->launchPanel()->currentKernel().isEmpty() &&
                          !m_window->compileController()->isBusy() &&
                          !m_window->compileController()->isDebouncing();
    if (!compiled && ++m_compileWaits < kMaxWaits)
        return;
    m_compileWait.stop();
    if (m_editProject && compiled)
        editProject();
    const QString error = writeReport();
    if (!error.isEmpty()) {
        qWarning("%s", qPrintable(error));
        QCoreApplication::exit(1);
    }
}

namespace {

// Replaces a line edit's text as typed keys do (textEdited follows each key).
void typeInto(QLineEdit *edit, const QString &text)
{
    edit->setFocus();
    edit->selectAll();
    for (const QChar c : text) {
        QKeyEvent press(QEvent::KeyPress, 0, Qt::NoModifier, QString(c));
        QApplication::sendEvent(edit, &press);
        QKeyEvent release(QEvent::KeyRelease, 0, Qt::NoModifier, QString(c));
        QApplication::sendEvent(edit, &release);
    }
}

} // namespace

void SessionScript::editProject()
{
    LaunchPanel *launch = m_window->launchPanel();
    launch->variablesModel()->addVariable(QStringLiteral("SCRIPTED"), QStringLiteral("4096"));
    typeInto(launch->blockField(0)->lineEdit(), QStringLiteral("128"));
    CompileOptions options = m_window->workspace()->compileOptions();
    options.fastMath = !options.fastMath;
    options.defines.push_back("SCRIPTED_DEFINE=3");
    m_window->workspace()->setCompileOptions(options, Workspace::Edit::User);
    SweepPanel *sweep = m_window->sweepTool()->panel();
    sweep->constraintsEdit()->setPlainText(QStringLiteral("block.x <= 512"));
    sweep->samplesSpin()->setValue(7);
}

QString SessionScript::writeReport()
{
    if (m_reportPath.isEmpty())
        return {};

    QJsonArray offered;
    for (const AutosaveEntry &entry : std::as_const(m_offered)) {
        offered.append(QJsonObject{
            {QStringLiteral("path"), entry.filePath},
            {QStringLiteral("displayName"), entry.displayName},
            {QStringLiteral("label"), RecoveryDialog::entryLabel(entry)},
            {QStringLiteral("kind"), entry.kind == AutosaveEntry::Kind::Project
                                         ? QStringLiteral("project")
                                         : QStringLiteral("buffer")},
            {QStringLiteral("savedAt"), entry.savedAt.toString(Qt::ISODateWithMs)},
        });
    }
    QJsonArray documents;
    for (Document *open : m_window->documentTabs()->documents()) {
        documents.append(QJsonObject{
            {QStringLiteral("path"), open->filePath()},
            {QStringLiteral("displayName"), open->displayName()},
            {QStringLiteral("modified"), open->isModified()},
            {QStringLiteral("text"), open->editor()->text()},
        });
    }
    const ProjectController *projects = m_window->projectController();
    QJsonObject project;
    if (projects->hasProject()) {
        project = QJsonObject{
            {QStringLiteral("path"), projects->projectPath()},
            {QStringLiteral("modified"), projects->isModified()},
            {QStringLiteral("json"),
             toQString(serializeProject(projects->currentProject(projects->projectPath())))},
        };
    }
    const AutosaveController *autosave = m_window->autosaveController();
    const QJsonObject report{
        {QStringLiteral("offerShown"), m_offerSeen},
        {QStringLiteral("offered"), offered},
        {QStringLiteral("documents"), documents},
        {QStringLiteral("project"), project},
        {QStringLiteral("windowTitle"), m_window->windowTitle()},
        {QStringLiteral("sessionFolder"), autosave ? autosave->sessionFolder() : QString()},
    };
    QSaveFile file(m_reportPath);
    const QByteArray bytes = QJsonDocument(report).toJson();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return tr("cannot write the report %1: %2").arg(m_reportPath, file.errorString());
    return {};
}

} // namespace cuwb
