// What the Sweep dock's "Through Slurm" group asks of Slurm, remembered in QSettings
// ("sweep/slurm/..."), and the core's SlurmOptions it stands for. The sweep itself runs through
// the core's SlurmSweep (cluster/slurmsweep.h) on the sweep thread, as `cuwb sweep --slurm` runs
// it (SweepJob, sweepjob.h).
#pragma once

#include "cluster/slurmjob.h"

#include <QString>

class QSettings;

namespace cuwb {

struct SlurmSweepSettings
{
    int shards = 4;                         // --gpus: array tasks, one GPU each
    QString partition;                      // empty: the cluster's default
    QString timeLimit;                      // sbatch's spelling ("00:30:00"); empty: default
    QString gres = QStringLiteral("gpu:1"); // per task; "none" asks for no GPU
    QString sbatchOptions;                  // more sbatch options, split at blanks
    // Where the job folders go; it must be on a filesystem the compute nodes share. Empty:
    // "cuwb-jobs" beside the project file.
    QString jobFolder;

    static SlurmSweepSettings load(const QSettings &settings);
    void save(QSettings &settings) const;
    // As the core takes them (the job folder is made per sweep, not taken from here).
    [[nodiscard]] SlurmOptions options() const;
    bool operator==(const SlurmSweepSettings &) const = default;
};

} // namespace cuwb
