// SlurmSweepBox: the Sweep dock's "Through Slurm" group. Checked, the sweep is submitted as a
// Slurm job array (slurmsweep.h) with the shards, partition, time limit, GRES, extra sbatch
// options and job folder given here, all remembered in QSettings; unchecked, it runs on the
// worker as before. Edits only say what changed (settingsChanged); nothing is checked here
// that sbatch checks better: a partition or time it refuses comes back as its own message.
#pragma once

#include "gui/sweep/slurmsweep.h"

#include <QGroupBox>

#include <optional>

class QLineEdit;
class QSpinBox;

namespace cuwb {

class SlurmSweepBox : public QGroupBox
{
    Q_OBJECT

public:
    explicit SlurmSweepBox(QWidget *parent = nullptr);

    // The settings when the group is checked; nullopt when sweeps run on the worker.
    [[nodiscard]] std::optional<SlurmSweepSettings> settings() const;
    // Checks the group and shows `settings` (tests, screenshots); remembered as an edit is.
    void setSettings(const std::optional<SlurmSweepSettings> &settings);

    [[nodiscard]] QSpinBox *shardsSpin() const { return m_shards; }

Q_SIGNALS:
    void settingsChanged(const std::optional<cuwb::SlurmSweepSettings> &settings);

private:
    [[nodiscard]] SlurmSweepSettings fields() const;
    void onEdited();

    QSpinBox *m_shards = nullptr;
    QLineEdit *m_partition = nullptr;
    QLineEdit *m_time = nullptr;
    QLineEdit *m_gres = nullptr;
    QLineEdit *m_sbatch = nullptr;
    QLineEdit *m_jobFolder = nullptr;
    bool m_filling = false;
};

} // namespace cuwb
