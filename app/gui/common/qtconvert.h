// Conversions between the core's std::string (UTF-8) values and Qt strings, in one place so
// no widget guesses an encoding.
#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace cuwb {

inline QString toQString(const std::string &text)
{
    return QString::fromStdString(text);
}

inline std::string toStdString(const QString &text)
{
    return text.toStdString();
}

inline QStringList toQStringList(const std::vector<std::string> &list)
{
    QStringList result;
    result.reserve(static_cast<qsizetype>(list.size()));
    for (const std::string &item : list)
        result.append(toQString(item));
    return result;
}

inline std::vector<std::string> toStdStringList(const QStringList &list)
{
    std::vector<std::string> result;
    result.reserve(static_cast<std::size_t>(list.size()));
    for (const QString &item : list)
        result.push_back(item.toStdString());
    return result;
}

} // namespace cuwb
