#include "gui/editor/resourcelists.h"

#include <QFile>

namespace cuwb {

QStringList ResourceLists::readList(const QString &resourcePath)
{
    QStringList words;
    QFile file(resourcePath);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return words;
    const QString text = QString::fromUtf8(file.readAll());
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const QString word = line.trimmed();
        if (!word.isEmpty() && !word.startsWith(QLatin1Char('#')))
            words.append(word);
    }
    return words;
}

const ResourceLists &ResourceLists::instance()
{
    static const ResourceLists lists = [] {
        ResourceLists l;
        l.qualifiers = readList(QStringLiteral(":/cuda/keywords-qualifiers.txt"));
        l.builtins = readList(QStringLiteral(":/cuda/keywords-builtins.txt"));
        l.intrinsics = readList(QStringLiteral(":/cuda/keywords-intrinsics.txt"));
        l.types = readList(QStringLiteral(":/cuda/keywords-types.txt"));
        l.completions = readList(QStringLiteral(":/cuda/completions.txt"));
        return l;
    }();
    return lists;
}

} // namespace cuwb
