// ProjectSource: until project files arrive with the run panel, the GUI reads only the
// "source" entry of a .cuwb file (a path relative to the project file) to open its kernel.
#pragma once

#include <QString>

namespace cuwb::ProjectSource {

// The absolute path of the project's source file, or an empty string and *error saying why.
QString sourcePath(const QString &projectPath, QString *error);

} // namespace cuwb::ProjectSource
