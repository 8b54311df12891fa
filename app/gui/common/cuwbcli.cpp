#include "gui/common/cuwbcli.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace cuwb {

QString findCuwbCli()
{
    const QString appDir = QCoreApplication::applicationDirPath();
    for (const QString &candidate :
         {appDir + QStringLiteral("/cuwb"), appDir + QStringLiteral("/../bin/cuwb")}) {
        const QFileInfo info(candidate);
        if (info.isFile() && info.isExecutable())
            return QDir::cleanPath(info.absoluteFilePath());
    }
    return appDir + QStringLiteral("/cuwb");
}

} // namespace cuwb
