#include "gui/sweep/slurmsweepbox.h"

#include "sweep/sweepshard.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

namespace cuwb {

namespace {

const QString kEnabledKey = QStringLiteral("sweep/slurm/enabled");

} // namespace

SlurmSweepBox::SlurmSweepBox(QWidget *parent)
    : QGroupBox(tr("Through Slurm (a job array)"), parent)
{
    setCheckable(true);
    setToolTip(tr("Submit the sweep with sbatch as a job array, one shard of the points per "
                  "task and GPU; the points appear as the shards finish. Needs Slurm's "
                  "commands here and a job folder the compute nodes share."));
    m_shards = new QSpinBox(this);
    m_shards->setRange(1, kMaxShards);
    m_shards->setToolTip(tr("Array tasks, one GPU each; the points are dealt round-robin"));
    m_partition = new QLineEdit(this);
    m_partition->setPlaceholderText(tr("the cluster's default"));
    m_time = new QLineEdit(this);
    m_time->setPlaceholderText(tr("the partition's default, e.g. 00:30:00"));
    m_gres = new QLineEdit(this);
    m_gres->setToolTip(tr("Generic resources per task; \"none\" asks for no GPU"));
    m_sbatch = new QLineEdit(this);
    m_sbatch->setPlaceholderText(tr("e.g. --account=lab --qos=short"));
    m_jobFolder = new QLineEdit(this);
    m_jobFolder->setPlaceholderText(tr("cuwb-jobs beside the project"));
    m_jobFolder->setToolTip(tr("Must be on a filesystem the compute nodes share"));

    auto *form = new QFormLayout(this);
    form->setContentsMargins(6, 4, 6, 4);
    form->addRow(tr("Shards:"), m_shards);
    form->addRow(tr("Partition:"), m_partition);
    form->addRow(tr("Time limit:"), m_time);
    form->addRow(tr("GRES per task:"), m_gres);
    form->addRow(tr("sbatch options:"), m_sbatch);
    form->addRow(tr("Job folder:"), m_jobFolder);

    const QSettings stored;
    const SlurmSweepSettings s = SlurmSweepSettings::load(stored);
    const bool enabled = stored.value(kEnabledKey, false).toBool();
    m_filling = true;
    setChecked(enabled);
    m_shards->setValue(s.shards);
    m_partition->setText(s.partition);
    m_time->setText(s.timeLimit);
    m_gres->setText(s.gres);
    m_sbatch->setText(s.sbatchOptions);
    m_jobFolder->setText(s.jobFolder);
    m_filling = false;

    connect(this, &QGroupBox::toggled, this, &SlurmSweepBox::onEdited);
    connect(m_shards, &QSpinBox::valueChanged, this, &SlurmSweepBox::onEdited);
    for (QLineEdit *edit : {m_partition, m_time, m_gres, m_sbatch, m_jobFolder})
        connect(edit, &QLineEdit::textEdited, this, &SlurmSweepBox::onEdited);
}

std::optional<SlurmSweepSettings> SlurmSweepBox::settings() const
{
    if (!isChecked())
        return std::nullopt;
    return fields();
}

SlurmSweepSettings SlurmSweepBox::fields() const
{
    SlurmSweepSettings s;
    s.shards = m_shards->value();
    s.partition = m_partition->text().trimmed();
    s.timeLimit = m_time->text().trimmed();
    s.gres = m_gres->text().trimmed();
    s.sbatchOptions = m_sbatch->text().trimmed();
    s.jobFolder = m_jobFolder->text().trimmed();
    return s;
}

void SlurmSweepBox::setSettings(const std::optional<SlurmSweepSettings> &settings)
{
    m_filling = true;
    setChecked(settings.has_value());
    if (settings) {
        m_shards->setValue(settings->shards);
        m_partition->setText(settings->partition);
        m_time->setText(settings->timeLimit);
        m_gres->setText(settings->gres);
        m_sbatch->setText(settings->sbatchOptions);
        m_jobFolder->setText(settings->jobFolder);
    }
    m_filling = false;
    onEdited();
}

void SlurmSweepBox::onEdited()
{
    if (m_filling)
        return;
    QSettings stored;
    stored.setValue(kEnabledKey, isChecked());
    fields().save(stored); // remembered while unchecked too
    Q_EMIT settingsChanged(settings());
}

} // namespace cuwb
