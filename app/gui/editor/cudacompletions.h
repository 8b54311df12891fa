// CudaCompletions: completion and call tips for the source editor from the list in
// resources/cuda/completions.txt. Synchronous: QsciAPIs prepares its word list on a thread
// that must not outlive the editor, which a tab closed right after opening could violate.
#pragma once

#include <Qsci/qsciabstractapis.h>

#include <QStringList>

namespace cuwb {

class CudaCompletions : public QsciAbstractAPIs
{
    Q_OBJECT

public:
    explicit CudaCompletions(QsciLexer *lexer);

    void updateAutoCompletionList(const QStringList &context, QStringList &list) override;
    QStringList callTips(const QStringList &context, int commas, QsciScintilla::CallTipsStyle style,
                         QList<int> &shifts) override;

private:
    QStringList m_names;   // sorted, unique
    QStringList m_entries; // as listed, with signatures
};

} // namespace cuwb
