// DeviceSelector: where kernels run, above the Device panel — "This machine", an SSH host the
// user added (user@host[:port]) or a target of the targets file (docs/remote.md). The choice and
// the hosts added are remembered in QSettings ("device/target", "device/sshHosts"). It only
// says what was chosen (targetChanged); the main window restarts the shared worker and the
// device query with it. An address that is not valid is refused with a message, never added.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QComboBox;

namespace cuwb {

class DeviceSelector : public QWidget
{
    Q_OBJECT

public:
    explicit DeviceSelector(QWidget *parent = nullptr);

    // The chosen target: empty for this machine, else an address or a target's name.
    [[nodiscard]] QString target() const;
    // Chooses a target (adding an address not yet listed); false, changing nothing, for one
    // that is not valid.
    bool setTarget(const QString &target);
    [[nodiscard]] QComboBox *combo() const { return m_combo; }

    // The sentence that says why `text` is not a target; empty when it is one.
    static QString problemWith(const QString &text);

Q_SIGNALS:
    void targetChanged(const QString &target);

private:
    void rebuild(const QString &selected);
    void onActivated(int index);
    void remember() const;

    QComboBox *m_combo = nullptr;
    QStringList m_hosts; // added by the user
    QString m_current;
};

} // namespace cuwb
