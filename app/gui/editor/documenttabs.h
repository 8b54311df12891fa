// DocumentTabs: the open source files, one SourceEditor per tab. Owns opening (UTF-8, or
// Latin-1 with a warning), saving (atomic), and the prompt before unsaved edits are lost.
#pragma once

#include <QList>
#include <QTabWidget>

namespace cuwb {

class Document;

class DocumentTabs : public QTabWidget
{
    Q_OBJECT

public:
    explicit DocumentTabs(QWidget *parent = nullptr);

    Document *newDocument();
    // Opens a file, or switches to its tab when it is open already. Returns nullptr (after
    // telling the user why) when it cannot be read.
    Document *openFile(const QString &path);
    // Why the last openFile() that failed could not read its file ("... is a FIFO ...").
    [[nodiscard]] QString lastOpenError() const { return m_lastOpenError; }

    bool save(Document *document);
    bool saveAs(Document *document);
    // Asks before discarding unsaved edits; returns false when the user cancels.
    bool closeDocument(Document *document);
    bool closeAll();
    // Asks about every modified document; false when the user cancels.
    bool maybeSaveAll();

    [[nodiscard]] Document *currentDocument() const;
    [[nodiscard]] Document *documentById(int id) const;
    [[nodiscard]] Document *documentAt(int index) const;
    [[nodiscard]] const QList<Document *> &documents() const { return m_documents; }

    // Makes prompts answer "discard" without asking (tests, screenshots).
    void setPromptsEnabled(bool enabled) { m_promptsEnabled = enabled; }

Q_SIGNALS:
    void currentDocumentChanged(cuwb::Document *document);
    void documentTextChanged(cuwb::Document *document);
    void documentCursorLineChanged(cuwb::Document *document, int line);
    void fileOpened(const QString &path);
    void fileSaved(const QString &path);
    void statusMessage(const QString &message);

private:
    Document *addDocument(const QString &text, const QString &path);
    bool maybeSave(Document *document);
    void updateTabTitle(Document *document);
    int indexOf(const Document *document) const;

    QList<Document *> m_documents;
    int m_nextId = 1;
    bool m_promptsEnabled = true;
    QString m_lastOpenError;
};

} // namespace cuwb
