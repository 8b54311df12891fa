#include "gui/device/deviceselector.h"

#include "gui/common/qtconvert.h"
#include "worker/workertarget.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>

namespace cuwb {

namespace {

const QString kAddHost = QStringLiteral("\x01add");

} // namespace

DeviceSelector::DeviceSelector(QWidget *parent)
    : QWidget(parent)
    , m_combo(new QComboBox(this))
{
    m_combo->setObjectName(QStringLiteral("deviceTargetCombo"));
    m_combo->setToolTip(tr("Where kernels run: this machine, or a GPU reached over SSH "
                           "(your own ssh keys and known_hosts; never a password)"));
    auto *label = new QLabel(tr("Run on:"), this);
    label->setBuddy(m_combo);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(label);
    layout->addWidget(m_combo, 1);

    const QSettings settings;
    m_hosts = settings.value(QStringLiteral("device/sshHosts")).toStringList();
    QString remembered = settings.value(QStringLiteral("device/target")).toString();
    if (!remembered.isEmpty() && !problemWith(remembered).isEmpty())
        remembered.clear(); // a target file entry that is gone: back to this machine
    m_current = remembered;
    rebuild(m_current);
    connect(m_combo, &QComboBox::activated, this, &DeviceSelector::onActivated);
}

QString DeviceSelector::target() const
{
    return m_current;
}

QString DeviceSelector::problemWith(const QString &text)
{
    const auto resolved = resolveTarget(toStdString(text), defaultTargetsPath());
    if (const auto *problem = std::get_if<std::string>(&resolved))
        return toQString(*problem);
    return {};
}

bool DeviceSelector::setTarget(const QString &target)
{
    if (!target.isEmpty() && !problemWith(target).isEmpty())
        return false;
    if (!target.isEmpty() && m_combo->findData(target) < 0 && !m_hosts.contains(target))
        m_hosts.append(target);
    const bool changed = target != m_current;
    m_current = target;
    rebuild(target);
    remember();
    if (changed)
        Q_EMIT targetChanged(target);
    return true;
}

void DeviceSelector::rebuild(const QString &selected)
{
    const QSignalBlocker blocker(m_combo);
    m_combo->clear();
    m_combo->addItem(tr("This machine"), QString());
    for (const QString &host : std::as_const(m_hosts))
        m_combo->addItem(tr("%1 (SSH)").arg(host), host);
    const auto file = readTargetsFile(defaultTargetsPath());
    if (const auto *targets = std::get_if<std::vector<WorkerTarget>>(&file)) {
        for (const WorkerTarget &target : *targets) {
            const QString name = toQString(target.name);
            if (m_combo->findData(name) < 0)
                m_combo->addItem(tr("%1 (%2)").arg(name, toQString(target.address())), name);
        }
    }
    m_combo->addItem(tr("Add SSH host\u2026"), kAddHost);
    const int index = m_combo->findData(selected);
    m_combo->setCurrentIndex(index < 0 ? 0 : index);
}

void DeviceSelector::onActivated(int index)
{
    const QString data = m_combo->itemData(index).toString();
    if (data != kAddHost) {
        setTarget(data);
        return;
    }
    bool ok = false;
    const QString text =
        QInputDialog::getText(this, tr("Add SSH host"),
                              tr("user@host[:port] \u2014 ssh logs in with your own keys and "
                                 "known_hosts:"),
                              QLineEdit::Normal, QString(), &ok)
            .trimmed();
    if (ok && !text.isEmpty()) {
        const QString problem = problemWith(text);
        if (problem.isEmpty()) {
            setTarget(text);
            return;
        }
        QMessageBox::warning(this, tr("Add SSH host"), problem);
    }
    rebuild(m_current); // back to what was chosen
}

void DeviceSelector::remember() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("device/sshHosts"), m_hosts);
    settings.setValue(QStringLiteral("device/target"), m_current);
}

} // namespace cuwb
