#include "gui/measure/measureoptionsdialog.h"

#include "measure/roofline.h"

#include "gui/common/qtconvert.h"
#include "gui/common/theme.h"
#include "gui/measure/metricpassplanner.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace cuwb {

MeasureOptionsDialog::MeasureOptionsDialog(QWidget *parent)
    : QDialog(parent)
    , m_mode(new QComboBox(this))
    , m_timer(new QComboBox(this))
    , m_fixed(new QCheckBox(tr("Fixed number of samples"), this))
    , m_fixedSamples(new QSpinBox(this))
    , m_minSamples(new QSpinBox(this))
    , m_minGpuTime(new QDoubleSpinBox(this))
    , m_targetNoise(new QDoubleSpinBox(this))
    , m_timeCap(new QDoubleSpinBox(this))
    , m_error(new QLabel(this))
    , m_metricsGroup(new QGroupBox(tr("Hardware metrics after the timing"), this))
    , m_metricsEdit(new QPlainTextEdit(m_metricsGroup))
    , m_passes(new QLabel(m_metricsGroup))
    , m_planner(new MetricPassPlanner(this))
{
    setWindowTitle(tr("Measurement Options"));
    QFormLayout *form = createSamplingForm();
    createMetricsGroup();
    auto *buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_metricsGroup);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connectFields(buttons);

    setSettings(SampleSettings{});
    setMetricsChoice(MetricsChoice{});
}

QFormLayout *MeasureOptionsDialog::createSamplingForm()
{
    m_mode->addItem(tr("Cold: flush L2 before each sample"), int(SampleMode::Cold));
    m_mode->addItem(tr("Hot: back-to-back launches"), int(SampleMode::Hot));
    m_timer->addItem(tr("CUPTI kernel records"), int(TimingSource::Cupti));
    m_timer->addItem(tr("Profiler: gpu__time_duration, as Nsight Compute"),
                     int(TimingSource::Profiler));
    m_timer->addItem(tr("cuEvents around each launch"), int(TimingSource::Events));
    m_timer->setToolTip(tr("The profiler agrees with Nsight Compute within 0.4 % even for "
                           "kernels of a few tens of \u00b5s, where CUPTI's records read 1.5 % "
                           "long; it needs profiling permission and costs host time per "
                           "sample"));
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
    form->addRow(tr("Timer:"), m_timer);
    form->addRow(m_fixed, m_fixedSamples);
    form->addRow(tr("Minimum samples:"), m_minSamples);
    form->addRow(tr("Minimum GPU time:"), m_minGpuTime);
    form->addRow(tr("Target relative noise:"), m_targetNoise);
    form->addRow(tr("Time cap:"), m_timeCap);
    return form;
}

void MeasureOptionsDialog::createMetricsGroup()
{
    // The metrics pass: a checkable group, so the list is greyed out while the pass is off.
    m_metricsGroup->setCheckable(true);
    m_metricsGroup->setToolTip(
        tr("After the timing, a separate pass collects hardware counters with the CUPTI Range "
           "Profiler. It replays the kernel once per pass and is never timed."));
    auto *about = new QLabel(tr("A separate pass, never timed: the kernel is replayed once per "
                                "replay pass. Needs permission to read the GPU's performance "
                                "counters. One metric per line, as ncu --query-metrics names "
                                "them."),
                             m_metricsGroup);
    about->setWordWrap(true);
    m_metricsEdit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_metricsEdit->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_metricsEdit->setTabChangesFocus(true);
    m_metricsEdit->setFixedHeight(m_metricsEdit->fontMetrics().lineSpacing() * 6 + 12);
    m_metricsEdit->setMinimumWidth(
        m_metricsEdit->fontMetrics().horizontalAdvance(QLatin1Char('m')) * 54);
    m_metricsEdit->setAccessibleName(tr("Metrics"));
    m_passes->setWordWrap(true);
    m_passes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_passes->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // Room for an error naming a long metric, so the dialog does not jump as the line changes.
    m_passes->setMinimumHeight(m_passes->fontMetrics().lineSpacing() * 3);
    auto *defaults = new QPushButton(tr("Default Metrics"), m_metricsGroup);
    defaults->setToolTip(tr("GPU time, DRAM bytes read and written, DRAM throughput and achieved "
                            "occupancy: one replay pass on an H100 or H200"));
    m_roofline = new QCheckBox(tr("Roofline and speed of light"), m_metricsGroup);
    m_roofline->setToolTip(tr("Adds the metrics of Nsight Compute's GPU Speed Of Light section "
                              "and the FP32/FP64/FP16 instruction counts: the Measurement "
                              "panel then shows the speed of light bars and the run on the "
                              "roofline"));
    auto *defaultsRow = new QHBoxLayout;
    defaultsRow->addWidget(m_roofline);
    defaultsRow->addStretch(1);
    defaultsRow->addWidget(defaults);
    auto *metricsLayout = new QVBoxLayout(m_metricsGroup);
    metricsLayout->addWidget(about);
    metricsLayout->addWidget(m_metricsEdit);
    metricsLayout->addWidget(m_passes);
    metricsLayout->addLayout(defaultsRow);

    m_planDelay.setSingleShot(true);
    m_planDelay.setInterval(250);
    connect(&m_planDelay, &QTimer::timeout, this, &MeasureOptionsDialog::planPasses);
    connect(m_metricsEdit, &QPlainTextEdit::textChanged, this, [this] {
        m_planDelay.start();
        updateState();
        updateRooflineBox();
    });
    connect(m_roofline, &QCheckBox::clicked, this, &MeasureOptionsDialog::setRooflineMetrics);
    connect(m_metricsGroup, &QGroupBox::toggled, this, &MeasureOptionsDialog::updateState);
    connect(defaults, &QPushButton::clicked, this, [this] {
        m_metricsEdit->setPlainText(toQStringList(defaultMetrics()).join(QLatin1Char('\n')));
        planPasses();
    });
    connect(m_planner, &MetricPassPlanner::planFinished, this,
            [this](quint64, const MetricsResult &plan) {
                // Not knowing the chip is no mistake of the user's; a refused metric is.
                showPasses(MetricPassPlanner::describe(m_plannedArch, m_plannedMetrics, plan),
                           !plan.ok() && !plan.chip.empty());
            });
}

void MeasureOptionsDialog::connectFields(QDialogButtonBox *buttons)
{
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] {
                setSettings(SampleSettings{});
                setMetricsChoice(MetricsChoice{});
            });
    connect(m_fixed, &QCheckBox::toggled, this, &MeasureOptionsDialog::updateState);
    for (QSpinBox *box : {m_fixedSamples, m_minSamples})
        connect(box, &QSpinBox::valueChanged, this, &MeasureOptionsDialog::updateState);
    for (QDoubleSpinBox *box : {m_minGpuTime, m_targetNoise, m_timeCap})
        connect(box, &QDoubleSpinBox::valueChanged, this, &MeasureOptionsDialog::updateState);
}

void MeasureOptionsDialog::setSettings(const SampleSettings &settings)
{
    m_base = settings;
    m_mode->setCurrentIndex(m_mode->findData(int(settings.mode)));
    m_timer->setCurrentIndex(m_timer->findData(int(settings.timer)));
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
    settings.timer = TimingSource(m_timer->currentData().toInt());
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
    QString error;
    if (const std::optional<std::string> problem = checkSampleSettings(settings()))
        error = toQString(*problem);
    else if (m_metricsGroup->isChecked() &&
             parseMetricNames(m_metricsEdit->toPlainText()).isEmpty())
        error = tr("Name at least one metric, or turn the metrics pass off.");
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    if (m_ok)
        m_ok->setEnabled(error.isEmpty());
}

void MeasureOptionsDialog::setMetricsChoice(const MetricsChoice &choice)
{
    m_metricsGroup->setChecked(choice.collect);
    m_metricsEdit->setPlainText(toQStringList(choice.metrics).join(QLatin1Char('\n')));
    planPasses();
    updateState();
}

MetricsChoice MeasureOptionsDialog::metricsChoice() const
{
    MetricsChoice choice;
    choice.collect = m_metricsGroup->isChecked();
    choice.metrics = toStdStringList(parseMetricNames(m_metricsEdit->toPlainText()));
    return choice;
}

void MeasureOptionsDialog::setRooflineMetrics(bool on)
{
    std::vector<std::string> names =
        toStdStringList(parseMetricNames(m_metricsEdit->toPlainText()));
    if (on) {
        names = withRooflineMetrics(std::move(names));
    } else {
        const std::vector<std::string> roofline = rooflineMetrics();
        const std::vector<std::string> defaults = defaultMetrics();
        std::erase_if(names, [&](const std::string &name) {
            return std::find(roofline.begin(), roofline.end(), name) != roofline.end() &&
                   std::find(defaults.begin(), defaults.end(), name) == defaults.end();
        });
    }
    m_metricsEdit->setPlainText(toQStringList(names).join(QLatin1Char('\n')));
    planPasses();
}

void MeasureOptionsDialog::updateRooflineBox()
{
    const QStringList names = parseMetricNames(m_metricsEdit->toPlainText());
    bool all = true;
    for (const std::string &name : rooflineMetrics())
        all = all && names.contains(toQString(name));
    m_roofline->setChecked(all);
}

QStringList MeasureOptionsDialog::parseMetricNames(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[\\s,;]+"));
    QStringList names;
    for (const QString &name : text.split(separators, Qt::SkipEmptyParts)) {
        if (!names.contains(name))
            names.append(name);
    }
    return names;
}

void MeasureOptionsDialog::setArchitecture(const QString &arch)
{
    m_arch = arch;
    planPasses();
}

QString MeasureOptionsDialog::passesText() const
{
    return m_passes->text();
}

void MeasureOptionsDialog::planPasses()
{
    m_planDelay.stop();
    const QString chip = toQString(chipForArch(toStdString(m_arch)));
    showPasses(chip.isEmpty() ? tr("Counting replay passes\u2026")
                              : tr("Counting replay passes on %1\u2026").arg(chip),
               false);
    m_plannedArch = m_arch;
    m_plannedMetrics = parseMetricNames(m_metricsEdit->toPlainText());
    m_planner->plan(m_plannedArch, m_plannedMetrics);
}

void MeasureOptionsDialog::showPasses(const QString &text, bool error)
{
    m_passes->setText(text);
    m_passesError = error;
    QPalette palette = m_passes->palette();
    palette.setColor(QPalette::WindowText,
                     error ? Theme::error : this->palette().color(QPalette::WindowText));
    m_passes->setPalette(palette);
    // A longer line may need more room than the dialog has; it grows, never shrinks, so that
    // the buttons do not move under the pointer.
    if (isVisible() && layout() && layout()->totalHeightForWidth(width()) > height())
        resize(width(), layout()->totalHeightForWidth(width()));
}

} // namespace cuwb
