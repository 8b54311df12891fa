// MeasureOptionsDialog: how Measure samples — cold or hot, a fixed sample count or adaptive
// sampling (minimum samples, minimum GPU time, target relative noise), and the time cap. The
// settings are kept in QSettings under "measure/"; load() gives the defaults of SampleSettings
// for anything not stored yet.
#pragma once

#include "measure/measurement.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace cuwb {

class MeasureOptionsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit MeasureOptionsDialog(QWidget *parent = nullptr);

    void setSettings(const SampleSettings &settings);
    [[nodiscard]] SampleSettings settings() const;

    static SampleSettings load();
    static void store(const SampleSettings &settings);

private:
    void updateState();

    QComboBox *m_mode = nullptr;
    QCheckBox *m_fixed = nullptr;
    QSpinBox *m_fixedSamples = nullptr;
    QSpinBox *m_minSamples = nullptr;
    QDoubleSpinBox *m_minGpuTime = nullptr;
    QDoubleSpinBox *m_targetNoise = nullptr;
    QDoubleSpinBox *m_timeCap = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_ok = nullptr;
    SampleSettings m_base; // fields the dialog does not show keep their values
};

} // namespace cuwb
