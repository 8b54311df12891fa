#include "gui/shell/recentfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace cuwb {

namespace {
constexpr int kMaxRecentFiles = 10;
const QString kSettingsKey = QStringLiteral("recentFiles");
} // namespace

RecentFiles::RecentFiles(QWidget *parent)
    : QMenu(tr("Open &Recent"), parent)
{
    m_files = QSettings().value(kSettingsKey).toStringList();
    rebuild();
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_files.removeAll(absolute);
    m_files.prepend(absolute);
    while (m_files.size() > kMaxRecentFiles)
        m_files.removeLast();
    save();
    rebuild();
}

void RecentFiles::rebuild()
{
    clear();
    int number = 1;
    for (const QString &file : std::as_const(m_files)) {
        QAction *action = addAction(tr("&%1 %2").arg(number++).arg(QDir::toNativeSeparators(file)));
        action->setEnabled(QFileInfo::exists(file));
        connect(action, &QAction::triggered, this, [this, file] { Q_EMIT fileRequested(file); });
    }
    if (m_files.isEmpty()) {
        addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    addSeparator();
    connect(addAction(tr("Clear List")), &QAction::triggered, this, [this] {
        m_files.clear();
        save();
        rebuild();
    });
}

void RecentFiles::save() const
{
    QSettings().setValue(kSettingsKey, m_files);
}

} // namespace cuwb
