#include "gui/sweep/slurmsweep.h"

#include "gui/common/qtconvert.h"
#include "sweep/sweepshard.h" // kMaxShards

#include <QSettings>
#include <QStringList>

#include <algorithm>

namespace cuwb {

SlurmSweepSettings SlurmSweepSettings::load(const QSettings &settings)
{
    SlurmSweepSettings s;
    s.shards = std::clamp(settings.value(QStringLiteral("sweep/slurm/shards"), s.shards).toInt(), 1,
                          kMaxShards);
    s.partition = settings.value(QStringLiteral("sweep/slurm/partition")).toString();
    s.timeLimit = settings.value(QStringLiteral("sweep/slurm/time")).toString();
    s.gres = settings.value(QStringLiteral("sweep/slurm/gres"), s.gres).toString();
    s.sbatchOptions = settings.value(QStringLiteral("sweep/slurm/sbatchOptions")).toString();
    s.jobFolder = settings.value(QStringLiteral("sweep/slurm/jobFolder")).toString();
    return s;
}

void SlurmSweepSettings::save(QSettings &settings) const
{
    settings.setValue(QStringLiteral("sweep/slurm/shards"), shards);
    settings.setValue(QStringLiteral("sweep/slurm/partition"), partition);
    settings.setValue(QStringLiteral("sweep/slurm/time"), timeLimit);
    settings.setValue(QStringLiteral("sweep/slurm/gres"), gres);
    settings.setValue(QStringLiteral("sweep/slurm/sbatchOptions"), sbatchOptions);
    settings.setValue(QStringLiteral("sweep/slurm/jobFolder"), jobFolder);
}

SlurmOptions SlurmSweepSettings::options() const
{
    SlurmOptions options;
    options.tasks = shards;
    if (!partition.trimmed().isEmpty())
        options.partition = toStdString(partition.trimmed());
    if (!timeLimit.trimmed().isEmpty())
        options.timeLimit = toStdString(timeLimit.trimmed());
    if (!gres.trimmed().isEmpty())
        options.gres = toStdString(gres.trimmed());
    for (const QString &option : sbatchOptions.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        options.sbatchOptions.push_back(toStdString(option));
    return options;
}

} // namespace cuwb
