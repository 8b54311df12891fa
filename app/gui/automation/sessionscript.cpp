#include "gui/automation/sessionscript.h"

#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/recovery/autosavecontroller.h"
#include "gui/shell/mainwindow.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace cuwb {

SessionScript::SessionScript(MainWindow *window, QObject *parent)
    : QObject(parent)
    , m_window(window)
{
    // The dialog runs its own event loop: a timer still fires inside it.
    m_poll.setInterval(50);
    connect(&m_poll, &QTimer::timeout, this, &SessionScript::answerDialog);
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
    if (m_reportPath.isEmpty())
        return {};

    QJsonArray offered;
    for (const AutosaveEntry &entry : std::as_const(m_offered)) {
        offered.append(QJsonObject{
            {QStringLiteral("path"), entry.filePath},
            {QStringLiteral("displayName"), entry.displayName},
            {QStringLiteral("label"), RecoveryDialog::entryLabel(entry)},
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
    const AutosaveController *autosave = m_window->autosaveController();
    const QJsonObject report{
        {QStringLiteral("offerShown"), m_offerSeen},
        {QStringLiteral("offered"), offered},
        {QStringLiteral("documents"), documents},
        {QStringLiteral("sessionFolder"), autosave ? autosave->sessionFolder() : QString()},
    };
    QSaveFile file(m_reportPath);
    const QByteArray bytes = QJsonDocument(report).toJson();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return tr("cannot write the report %1: %2").arg(m_reportPath, file.errorString());
    return {};
}

} // namespace cuwb
