#include "gui/editor/document.h"

#include "gui/editor/sourceeditor.h"

#include <QFileInfo>

namespace cuwb {

Document::Document(int id, SourceEditor *editor, QObject *parent)
    : QObject(parent)
    , m_id(id)
    , m_editor(editor)
{
    connect(m_editor, &QsciScintilla::modificationChanged, this, &Document::modificationChanged);
}

void Document::setFilePath(const QString &path)
{
    if (path == m_filePath)
        return;
    m_filePath = path;
    Q_EMIT filePathChanged(path);
}

QString Document::displayName() const
{
    if (m_filePath.isEmpty())
        return tr("untitled-%1.cu").arg(m_id);
    return QFileInfo(m_filePath).fileName();
}

QString Document::directory() const
{
    if (m_filePath.isEmpty())
        return {};
    return QFileInfo(m_filePath).absolutePath();
}

bool Document::isModified() const
{
    return m_editor->isModified();
}

void Document::setModified(bool modified)
{
    m_editor->setModified(modified);
}

void Document::setResult(const CompileResult &result)
{
    m_lastResult = result;
    m_hasResult = true;
    m_editor->setDiagnostics(result.diagnostics, QString::fromStdString(result.fileName));
    m_editor->setKernels(result.kernels);
}

} // namespace cuwb
