#include "gui/shell/samplesmenu.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace cuwb {

SamplesMenu::SamplesMenu(const QString &samplesDir, QWidget *parent)
    : QMenu(tr("&Samples"), parent)
    , m_samplesDir(samplesDir)
{
    const QDir dir(m_samplesDir);
    const QStringList folders = m_samplesDir.isEmpty()
                                    ? QStringList()
                                    : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &folder : folders) {
        const QString source = mainSourceOf(dir.filePath(folder));
        if (source.isEmpty())
            continue;
        QAction *action = addAction(folder);
        action->setToolTip(QDir::toNativeSeparators(source));
        connect(action, &QAction::triggered, this,
                [this, source] { Q_EMIT fileRequested(source); });
    }
    if (actions().isEmpty()) {
        addAction(tr("No samples found"))->setEnabled(false);
        return;
    }
    // The block-size experiment of a class: the copy kernel at every block size from 32 to
    // 1024 in steps of 32, measured and charted.
    const QString copyProject = dir.filePath(QStringLiteral("copy/copy.cuwb"));
    if (QFileInfo::exists(copyProject)) {
        addSeparator();
        QAction *action = addAction(tr("Classroom: copy block-size sweep"));
        action->setObjectName(QStringLiteral("classroomCopySweep"));
        action->setToolTip(tr("Opens %1 and sweeps block sizes 32\u20131024 in steps of 32")
                               .arg(QDir::toNativeSeparators(copyProject)));
        connect(action, &QAction::triggered, this, [this, copyProject] {
            Q_EMIT sweepRequested(copyProject, QStringLiteral("block-32-step-32"));
        });
    }
}

QString SamplesMenu::findSamplesDir(const QString &override)
{
    const QString appDir = QCoreApplication::applicationDirPath();
    QStringList candidates;
    if (!override.isEmpty())
        candidates << override;
    candidates << appDir + QStringLiteral("/../../samples")
               << appDir + QStringLiteral("/../share/cuda-workbench/samples");
#ifdef CUWB_SAMPLES_DIR
    candidates << QStringLiteral(CUWB_SAMPLES_DIR);
#endif
    for (const QString &candidate : std::as_const(candidates)) {
        if (QFileInfo(candidate).isDir())
            return QDir::cleanPath(QFileInfo(candidate).absoluteFilePath());
    }
    return {};
}

QString SamplesMenu::mainSourceOf(const QString &sampleDir)
{
    const QDir dir(sampleDir);
    const QString named = dir.filePath(dir.dirName() + QStringLiteral(".cu"));
    if (QFileInfo::exists(named))
        return named;
    const QStringList sources = dir.entryList({QStringLiteral("*.cu")}, QDir::Files, QDir::Name);
    return sources.isEmpty() ? QString() : dir.filePath(sources.constFirst());
}

} // namespace cuwb
