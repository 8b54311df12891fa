// ResourceLists: the CUDA word lists kept in resources/cuda/ (keywords for highlighting,
// entries for completion), read from the Qt resource system once.
#pragma once

#include <QStringList>

namespace cuwb {

struct ResourceLists
{
    QStringList qualifiers;  // execution- and memory-space qualifiers
    QStringList builtins;    // built-in variables
    QStringList intrinsics;  // device functions and intrinsics
    QStringList types;       // vector, half and other built-in types
    QStringList completions; // completion entries, optionally with a signature

    static const ResourceLists &instance();
    // One entry per non-empty line that does not start with '#'.
    static QStringList readList(const QString &resourcePath);
};

} // namespace cuwb
