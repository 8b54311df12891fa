// SweepDeviceBox: the Sweep dock's choice of GPUs — "This GPU" (the window's, GPU 0: a sweep
// as before, on the shared worker), "All N GPUs", or "GPUs:" with a list typed as `cuwb sweep
// --devices` takes it ("0,2"). Shown only when the machine has more than one GPU: with one
// there is nothing to choose. The choice is remembered in QSettings ("sweep/gpus": "this",
// "all" or the list) and is the sweep's GPUs in the Workspace's placement (SweepPanel).
#pragma once

#include "device/deviceinfo.h"

#include <QString>
#include <QWidget>

#include <vector>

class QComboBox;
class QLineEdit;

namespace cuwb {

class SweepDeviceBox : public QWidget
{
    Q_OBJECT

public:
    explicit SweepDeviceBox(QWidget *parent = nullptr);

    // The GPUs the window knows (DeviceProbe's query); the box shows itself for two or more.
    void setDevices(const std::vector<DeviceInfo> &devices);
    [[nodiscard]] int deviceCount() const { return int(m_devices.size()); }

    // The GPUs of the next sweep, as `--device N` names them: empty for this GPU, also when
    // the machine has one GPU or the list names none it has; the indices otherwise.
    [[nodiscard]] std::vector<int> chosenDevices() const;
    // Why the typed list cannot be used (a GPU the machine lacks, a word that is no number);
    // empty when it can.
    [[nodiscard]] QString problem() const;
    // "this", "all" or a list such as "0,2": as remembered.
    [[nodiscard]] QString choice() const;
    // Emits choiceChanged when the choice differs from the one before.
    void setChoice(const QString &choice);

    [[nodiscard]] QComboBox *combo() const { return m_combo; }
    [[nodiscard]] QLineEdit *listEdit() const { return m_list; }

Q_SIGNALS:
    void choiceChanged();

private:
    void rebuild();
    void remember() const;
    void onChanged();

    QComboBox *m_combo = nullptr;
    QLineEdit *m_list = nullptr;
    std::vector<DeviceInfo> m_devices;
};

} // namespace cuwb
