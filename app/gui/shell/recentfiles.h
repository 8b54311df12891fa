// RecentFiles: the most recently opened files, kept in QSettings and shown as a menu.
#pragma once

#include <QMenu>
#include <QStringList>

namespace cuwb {

class RecentFiles : public QMenu
{
    Q_OBJECT

public:
    explicit RecentFiles(QWidget *parent = nullptr);

    void add(const QString &path);
    [[nodiscard]] QStringList files() const { return m_files; }

Q_SIGNALS:
    void fileRequested(const QString &path);

private:
    void rebuild();
    void save() const;

    QStringList m_files;
};

} // namespace cuwb
