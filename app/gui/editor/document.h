// Document: one open source file: its path (empty until saved), its editor, whether it has
// unsaved edits, and the last compile result that was shown for it.
#pragma once

#include "compiler/compileresult.h"

#include <QObject>
#include <QString>

namespace cuwb {

class SourceEditor;

class Document : public QObject
{
    Q_OBJECT

public:
    Document(int id, SourceEditor *editor, QObject *parent = nullptr);

    [[nodiscard]] int id() const { return m_id; }
    [[nodiscard]] SourceEditor *editor() const { return m_editor; }

    [[nodiscard]] QString filePath() const { return m_filePath; }
    void setFilePath(const QString &path);
    // The name shown in the tab and passed to NVRTC: the file name, or "untitled-N.cu".
    [[nodiscard]] QString displayName() const;
    // The folder of the file, empty when unsaved.
    [[nodiscard]] QString directory() const;

    [[nodiscard]] bool isModified() const;
    void setModified(bool modified);

    [[nodiscard]] bool hasResult() const { return m_hasResult; }
    [[nodiscard]] const CompileResult &lastResult() const { return m_lastResult; }
    // Stores the result and shows its diagnostics and spill markers in the editor.
    void setResult(const CompileResult &result);

Q_SIGNALS:
    void filePathChanged(const QString &path);
    void modificationChanged(bool modified);

private:
    int m_id = 0;
    SourceEditor *m_editor = nullptr;
    QString m_filePath;
    bool m_hasResult = false;
    CompileResult m_lastResult;
};

} // namespace cuwb
