#include "gui/editor/documenttabs.h"

#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/editor/textfile.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace cuwb {

DocumentTabs::DocumentTabs(QWidget *parent)
    : QTabWidget(parent)
{
    setDocumentMode(true);
    setTabsClosable(true);
    setMovable(true);
    connect(this, &QTabWidget::tabCloseRequested, this,
            [this](int index) { closeDocument(documentAt(index)); });
    connect(this, &QTabWidget::currentChanged, this,
            [this](int index) { Q_EMIT currentDocumentChanged(documentAt(index)); });
}

Document *DocumentTabs::addDocument(const QString &text, const QString &path)
{
    auto *editor = new SourceEditor(this);
    auto *document = new Document(m_nextId++, editor, editor);
    document->setFilePath(path);
    editor->setText(text);
    editor->setModified(false);
    editor->SendScintilla(QsciScintillaBase::SCI_EMPTYUNDOBUFFER);
    m_documents.append(document);

    connect(document, &Document::modificationChanged, this,
            [this, document] { updateTabTitle(document); });
    connect(document, &Document::filePathChanged, this,
            [this, document] { updateTabTitle(document); });
    connect(editor, &QsciScintilla::textChanged, this,
            [this, document] { Q_EMIT documentTextChanged(document); });
    connect(editor, &SourceEditor::cursorLineChanged, this,
            [this, document](int line) { Q_EMIT documentCursorLineChanged(document, line); });

    const int index = addTab(editor, document->displayName());
    updateTabTitle(document);
    setCurrentIndex(index);
    return document;
}

Document *DocumentTabs::newDocument()
{
    return addDocument(QString(), QString());
}

Document *DocumentTabs::openFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (Document *document : std::as_const(m_documents)) {
        if (document->filePath() == absolute) {
            setCurrentIndex(indexOf(document));
            return document;
        }
    }
    const TextFileContents contents = TextFile::read(absolute);
    if (!contents.ok) {
        m_lastOpenError = contents.errorMessage;
        if (m_promptsEnabled)
            QMessageBox::warning(this, tr("Open File"), contents.errorMessage);
        Q_EMIT statusMessage(contents.errorMessage);
        return nullptr;
    }
    // An untouched empty "untitled" tab is replaced rather than kept beside the file.
    Document *current = currentDocument();
    const bool replaceCurrent = current && current->filePath().isEmpty() &&
                                !current->isModified() && current->editor()->length() == 0 &&
                                m_documents.size() == 1;

    Document *document = addDocument(contents.text, absolute);
    if (replaceCurrent) {
        const int index = indexOf(current);
        m_documents.removeOne(current);
        removeTab(index);
        current->editor()->deleteLater();
    }
    Q_EMIT fileOpened(absolute);
    if (contents.decodedAsLatin1) {
        Q_EMIT statusMessage(tr("%1 is not valid UTF-8; opened as Latin-1 (it will be saved as "
                                "UTF-8).")
                                 .arg(document->displayName()));
    }
    return document;
}

bool DocumentTabs::save(Document *document)
{
    if (!document)
        return false;
    if (document->filePath().isEmpty())
        return saveAs(document);
    const QString error = TextFile::write(document->filePath(), document->editor()->text());
    if (!error.isEmpty()) {
        if (m_promptsEnabled)
            QMessageBox::warning(this, tr("Save File"), error);
        Q_EMIT statusMessage(error);
        return false;
    }
    document->setModified(false);
    Q_EMIT fileSaved(document->filePath());
    Q_EMIT statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(document->filePath())));
    return true;
}

bool DocumentTabs::saveAs(Document *document)
{
    if (!document)
        return false;
    const QString start =
        document->filePath().isEmpty() ? document->displayName() : document->filePath();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save As"), start, tr("CUDA sources (*.cu *.cuh);;All files (*)"));
    if (path.isEmpty())
        return false;
    document->setFilePath(QFileInfo(path).absoluteFilePath());
    return save(document);
}

bool DocumentTabs::maybeSave(Document *document)
{
    if (!document || !document->isModified())
        return true;
    if (!m_promptsEnabled)
        return true;
    setCurrentIndex(indexOf(document));
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved Changes"),
        tr("%1 has unsaved changes. Save them before closing?").arg(document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save(document);
    return answer == QMessageBox::Discard;
}

bool DocumentTabs::maybeSaveAll()
{
    for (Document *document : std::as_const(m_documents)) {
        if (!maybeSave(document))
            return false;
    }
    return true;
}

bool DocumentTabs::closeDocument(Document *document)
{
    if (!document || !maybeSave(document))
        return false;
    const int index = indexOf(document);
    m_documents.removeOne(document);
    removeTab(index);
    document->editor()->deleteLater();
    if (m_documents.isEmpty())
        Q_EMIT currentDocumentChanged(nullptr);
    return true;
}

bool DocumentTabs::closeAll()
{
    if (!maybeSaveAll())
        return false;
    setPromptsEnabled(false);
    while (!m_documents.isEmpty())
        closeDocument(m_documents.constLast());
    setPromptsEnabled(true);
    return true;
}

Document *DocumentTabs::currentDocument() const
{
    return documentAt(currentIndex());
}

Document *DocumentTabs::documentById(int id) const
{
    for (Document *document : m_documents) {
        if (document->id() == id)
            return document;
    }
    return nullptr;
}

Document *DocumentTabs::documentAt(int index) const
{
    QWidget *page = widget(index);
    for (Document *document : m_documents) {
        if (document->editor() == page)
            return document;
    }
    return nullptr;
}

int DocumentTabs::indexOf(const Document *document) const
{
    return document ? QTabWidget::indexOf(document->editor()) : -1;
}

void DocumentTabs::updateTabTitle(Document *document)
{
    const int index = indexOf(document);
    if (index < 0)
        return;
    QString title = document->displayName();
    if (document->isModified())
        title += QStringLiteral(" \u25cf");
    setTabText(index, title);
    setTabToolTip(index, document->filePath().isEmpty()
                             ? tr("Not saved yet")
                             : QDir::toNativeSeparators(document->filePath()));
}

} // namespace cuwb
