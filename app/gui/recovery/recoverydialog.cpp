#include "gui/recovery/recoverydialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cuwb {

RecoveryDialog::RecoveryDialog(const QList<AutosaveEntry> &entries, const QStringList &problems,
                               QWidget *parent)
    : QDialog(parent)
    , m_entries(entries)
{
    setObjectName(QStringLiteral("recoveryDialog"));
    setWindowTitle(tr("Restore Unsaved Edits"));
    auto *layout = new QVBoxLayout(this);

    auto *intro = new QLabel(
        entries.isEmpty()
            ? tr("CUDA Workbench did not close properly last time, and its autosaves cannot be "
                 "read.")
            : tr("CUDA Workbench did not close properly last time. These unsaved edits were "
                 "autosaved. Restore opens them as unsaved changes; the files on disk stay as "
                 "they are until you save."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("recoveryList"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("File"), tr("Autosaved")});
    for (const AutosaveEntry &entry : entries) {
        auto *item = new QTreeWidgetItem(m_list);
        item->setText(0, entryLabel(entry));
        item->setToolTip(0, entry.filePath.isEmpty() ? entry.displayName : entryLabel(entry));
        item->setText(1, QLocale().toString(entry.savedAt.toLocalTime(), QLocale::ShortFormat));
    }
    // The middle of a long path goes first: the start says what an entry is, the end which
    // file and whether it is gone.
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->setVisible(!entries.isEmpty());
    layout->addWidget(m_list);

    if (!problems.isEmpty()) {
        auto *problemLabel = new QLabel(
            tr("Some autosaves cannot be read:\n%1").arg(problems.join(QLatin1Char('\n'))), this);
        problemLabel->setObjectName(QStringLiteral("recoveryProblems"));
        problemLabel->setWordWrap(true);
        problemLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(problemLabel);
    }

    auto *buttons = new QDialogButtonBox(this);
    QPushButton *restore = buttons->addButton(tr("Restore"), QDialogButtonBox::AcceptRole);
    restore->setObjectName(QStringLiteral("restoreButton"));
    restore->setEnabled(!entries.isEmpty());
    QPushButton *discard = buttons->addButton(tr("Discard"), QDialogButtonBox::DestructiveRole);
    discard->setObjectName(QStringLiteral("discardButton"));
    QPushButton *later = buttons->addButton(tr("Later"), QDialogButtonBox::RejectRole);
    later->setObjectName(QStringLiteral("laterButton"));
    later->setToolTip(tr("Keep the autosaves and ask again at the next start"));
    if (!entries.isEmpty())
        restore->setDefault(true);
    connect(restore, &QPushButton::clicked, this, [this] { choose(Choice::Restore); });
    connect(discard, &QPushButton::clicked, this, [this] { choose(Choice::Discard); });
    connect(later, &QPushButton::clicked, this, [this] { choose(Choice::Later); });
    layout->addWidget(buttons);
    resize(560, 300);
}

void RecoveryDialog::choose(Choice choice)
{
    m_choice = choice;
    if (choice == Choice::Restore)
        accept();
    else
        reject(); // Escape and the close button also end here, as Later
}

QString RecoveryDialog::entryLabel(const AutosaveEntry &entry)
{
    if (entry.kind == AutosaveEntry::Kind::Project) {
        const QString path = QDir::toNativeSeparators(entry.filePath);
        return QFileInfo::exists(entry.filePath)
                   ? tr("project settings of %1").arg(path)
                   : tr("project settings of %1 (the project file no longer exists)").arg(path);
    }
    if (entry.filePath.isEmpty())
        return tr("untitled (%1)").arg(entry.displayName);
    return QDir::toNativeSeparators(entry.filePath);
}

} // namespace cuwb
