#include "projectsource.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace cuwb::ProjectSource {

QString sourcePath(const QString &projectPath, QString *error)
{
    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return QString();
    };
    QFile file(projectPath);
    if (!file.open(QIODevice::ReadOnly)) {
        return fail(QCoreApplication::translate("ProjectSource", "Cannot open project %1: %2")
                        .arg(projectPath, file.errorString()));
    }
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (json.isNull()) {
        return fail(
            QCoreApplication::translate("ProjectSource", "%1 is not a valid project file: %2")
                .arg(projectPath, parseError.errorString()));
    }
    const QString source = json.object().value(QStringLiteral("source")).toString();
    if (source.isEmpty()) {
        return fail(
            QCoreApplication::translate("ProjectSource", "%1 names no \"source\" file to open")
                .arg(projectPath));
    }
    const QString path = QFileInfo(projectPath).absoluteDir().absoluteFilePath(source);
    if (!QFileInfo::exists(path)) {
        return fail(QCoreApplication::translate("ProjectSource",
                                                "The source %1 of project %2 does not exist")
                        .arg(path, projectPath));
    }
    return QDir::cleanPath(path);
}

} // namespace cuwb::ProjectSource
