#include "gui/editor/cudacompletions.h"

#include "gui/editor/resourcelists.h"

namespace cuwb {

namespace {

QString nameOf(const QString &entry)
{
    const qsizetype paren = entry.indexOf(QLatin1Char('('));
    return (paren < 0 ? entry : entry.left(paren)).trimmed();
}

} // namespace

CudaCompletions::CudaCompletions(QsciLexer *lexer)
    : QsciAbstractAPIs(lexer)
    , m_entries(ResourceLists::instance().completions)
{
    for (const QString &entry : std::as_const(m_entries))
        m_names.append(nameOf(entry));
    m_names.sort();
    m_names.removeDuplicates();
}

void CudaCompletions::updateAutoCompletionList(const QStringList &context, QStringList &list)
{
    if (context.isEmpty())
        return;
    const QString &prefix = context.constLast();
    for (const QString &name : std::as_const(m_names)) {
        if (name.startsWith(prefix) && !list.contains(name))
            list.append(name);
    }
}

QStringList CudaCompletions::callTips(const QStringList &context, int commas,
                                      QsciScintilla::CallTipsStyle style, QList<int> &shifts)
{
    Q_UNUSED(commas)
    Q_UNUSED(style)
    QStringList tips;
    if (context.size() < 2)
        return tips;
    const QString &function = context.at(context.size() - 2);
    for (const QString &entry : std::as_const(m_entries)) {
        if (entry.contains(QLatin1Char('(')) && nameOf(entry) == function) {
            tips.append(entry);
            shifts.append(0);
        }
    }
    return tips;
}

} // namespace cuwb
