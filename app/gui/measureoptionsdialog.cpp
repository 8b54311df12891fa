#include "measureoptionsdialog.h"

#include "qtconvert.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cuwb {

MeasureOptionsDialog::MeasureOptionsDialog(QWidget *parent)
    : QDialog(parent)
    , m_mode(new QComboBox(this))
    , m_fixed(new QCheckBox(tr("Fixed number of samples"), this))
    , m_fixedSamples(new QSpinBox(this))
    , m_minSamples(new QSpinBox(this))
    , m_minGpuTime(new QDoubleSpinBox(this))
    , m_targetNoise(new QDoubleSpinBox(this))
    , m_timeCap(new QDoubleSpinBox(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Measurement Options"));
    m_mode->addItem(tr("Cold: flush L2 before each sample"), int(SampleMode::Cold));
    m_mode->addItem(tr("Hot: back-to-back launches"), int(SampleMode::Hot));
    m_fixed->setToolTip(tr("Take exactly this many samples, for comparisons with other tools"));
    m_fixedSamples->setRange(1, 1000000);
    m_minSamples->setRange(2, 1000000);
    m_minGpuTime->setRange(0.0, 600.0);
    m_minGpuTime->setDecimals(3);
    m_minGpuTime->setSuffix(tr(" s"));
    m_targetNoise->setRange(0.01, 100.0);
    m_targetNoise->setDecimals(2);
    m_targetNoise->setSuffix(tr(" %"));
    m_timeCap->setRange(0.1, 3600.0);
    m_timeCap->setDecimals(1);
    m_timeCap->setSuffix(tr(" s"));
    m_error->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Mode:"), m_mode);
    form->addRow(m_fixed, m_fixedSamples);
    form->addRow(tr("Minimum samples:"), m_minSamples);
    form->addRow(tr("Minimum GPU time:"), m_minGpuTime);
    form->addRow(tr("Target relative noise:"), m_targetNoise);
    form->addRow(tr("Time cap:"), m_timeCap);

    auto *buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] { setSettings(SampleSettings{}); });
    connect(m_fixed, &QCheckBox::toggled, this, &MeasureOptionsDialog::updateState);
    for (QSpinBox *box : {m_fixedSamples, m_minSamples})
        connect(box, &QSpinBox::valueChanged, this, &MeasureOptionsDialog::updateState);
    for (QDoubleSpinBox *box : {m_minGpuTime, m_targetNoise, m_timeCap})
        connect(box, &QDoubleSpinBox::valueChanged, this, &MeasureOptionsDialog::updateState);

    setSettings(SampleSettings{});
}

void MeasureOptionsDialog::setSettings(const SampleSettings &settings)
{
    m_base = settings;
    m_mode->setCurrentIndex(m_mode->findData(int(settings.mode)));
    m_fixed->setChecked(settings.fixedSamples > 0);
    m_fixedSamples->setValue(settings.fixedSamples > 0 ? settings.fixedSamples : 100);
    m_minSamples->setValue(settings.minSamples);
    m_minGpuTime->setValue(settings.minGpuTimeSeconds);
    m_targetNoise->setValue(settings.targetRelativeNoise * 100.0);
    m_timeCap->setValue(settings.timeCapSeconds);
    updateState();
}

SampleSettings MeasureOptionsDialog::settings() const
{
    SampleSettings settings = m_base;
    settings.mode = SampleMode(m_mode->currentData().toInt());
    settings.fixedSamples = m_fixed->isChecked() ? m_fixedSamples->value() : 0;
    settings.minSamples = m_minSamples->value();
    settings.minGpuTimeSeconds = m_minGpuTime->value();
    settings.targetRelativeNoise = m_targetNoise->value() / 100.0;
    settings.timeCapSeconds = m_timeCap->value();
    return settings;
}

void MeasureOptionsDialog::updateState()
{
    const bool fixed = m_fixed->isChecked();
    m_fixedSamples->setEnabled(fixed);
    m_minSamples->setEnabled(!fixed);
    m_minGpuTime->setEnabled(!fixed);
    m_targetNoise->setEnabled(!fixed);
    const std::optional<std::string> error = checkSampleSettings(settings());
    m_error->setText(error ? toQString(*error) : QString());
    m_error->setVisible(error.has_value());
    if (m_ok)
        m_ok->setEnabled(!error);
}

SampleSettings MeasureOptionsDialog::load()
{
    const SampleSettings defaults;
    QSettings stored;
    stored.beginGroup(QStringLiteral("measure"));
    SampleSettings settings = defaults;
    settings.mode = stored.value(QStringLiteral("mode")).toString() == QLatin1String("hot")
                        ? SampleMode::Hot
                        : SampleMode::Cold;
    settings.fixedSamples =
        stored.value(QStringLiteral("fixedSamples"), defaults.fixedSamples).toInt();
    settings.minSamples = stored.value(QStringLiteral("minSamples"), defaults.minSamples).toInt();
    settings.minGpuTimeSeconds =
        stored.value(QStringLiteral("minGpuTimeSeconds"), defaults.minGpuTimeSeconds).toDouble();
    settings.targetRelativeNoise =
        stored.value(QStringLiteral("targetRelativeNoise"), defaults.targetRelativeNoise)
            .toDouble();
    settings.timeCapSeconds =
        stored.value(QStringLiteral("timeCapSeconds"), defaults.timeCapSeconds).toDouble();
    // Settings edited by hand into something unusable fall back to the defaults.
    return checkSampleSettings(settings) ? defaults : settings;
}

void MeasureOptionsDialog::store(const SampleSettings &settings)
{
    QSettings stored;
    stored.beginGroup(QStringLiteral("measure"));
    stored.setValue(QStringLiteral("mode"), QString::fromLatin1(sampleModeName(settings.mode)));
    stored.setValue(QStringLiteral("fixedSamples"), settings.fixedSamples);
    stored.setValue(QStringLiteral("minSamples"), settings.minSamples);
    stored.setValue(QStringLiteral("minGpuTimeSeconds"), settings.minGpuTimeSeconds);
    stored.setValue(QStringLiteral("targetRelativeNoise"), settings.targetRelativeNoise);
    stored.setValue(QStringLiteral("timeCapSeconds"), settings.timeCapSeconds);
}

} // namespace cuwb
