#include "gui/sweep/sweepdevicebox.h"

#include "gui/common/qtconvert.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>

#include <algorithm>

namespace cuwb {

namespace {

const QString kSettingsKey = QStringLiteral("sweep/gpus");
enum Item { ThisGpu, AllGpus, ListedGpus };

} // namespace

SweepDeviceBox::SweepDeviceBox(QWidget *parent)
    : QWidget(parent)
    , m_combo(new QComboBox(this))
    , m_list(new QLineEdit(this))
{
    m_combo->setObjectName(QStringLiteral("sweepGpus"));
    m_list->setObjectName(QStringLiteral("sweepGpuList"));
    m_list->setPlaceholderText(tr("0,2"));
    m_list->setToolTip(tr("The GPUs to sweep on, by number as the Device dock lists them"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("GPUs:"), this));
    layout->addWidget(m_combo, 1);
    layout->addWidget(m_list);
    rebuild();
    setChoice(QSettings().value(kSettingsKey, QStringLiteral("this")).toString());
    connect(m_combo, &QComboBox::activated, this, &SweepDeviceBox::onChanged);
    connect(m_list, &QLineEdit::textEdited, this, &SweepDeviceBox::onChanged);
}

void SweepDeviceBox::setDevices(const std::vector<DeviceInfo> &devices)
{
    const QString kept = choice();
    m_devices = devices;
    rebuild();
    setChoice(kept);
}

void SweepDeviceBox::rebuild()
{
    m_combo->clear();
    const QString first = m_devices.empty()
                              ? tr("This GPU")
                              : tr("This GPU (GPU 0, %1)").arg(toQString(m_devices.front().name));
    m_combo->addItem(first);
    m_combo->addItem(tr("All %n GPUs at once", nullptr, int(m_devices.size())));
    m_combo->addItem(tr("These GPUs at once:"));
    m_combo->setToolTip(tr("Several GPUs measure the points at once, one worker each; GPUs of "
                           "different models give a best point per GPU"));
    setVisible(m_devices.size() > 1);
}

QString SweepDeviceBox::choice() const
{
    switch (m_combo->currentIndex()) {
    case AllGpus:
        return QStringLiteral("all");
    case ListedGpus:
        return m_list->text().trimmed().isEmpty() ? QStringLiteral("this")
                                                  : m_list->text().trimmed();
    default:
        return QStringLiteral("this");
    }
}

void SweepDeviceBox::setChoice(const QString &choice)
{
    const QString before = this->choice();
    if (choice == QLatin1String("all")) {
        m_combo->setCurrentIndex(AllGpus);
    } else if (choice == QLatin1String("this") || choice.isEmpty()) {
        m_combo->setCurrentIndex(ThisGpu);
    } else {
        m_combo->setCurrentIndex(ListedGpus);
        m_list->setText(choice);
    }
    m_list->setVisible(m_combo->currentIndex() == ListedGpus);
    if (this->choice() != before)
        Q_EMIT choiceChanged();
}

void SweepDeviceBox::onChanged()
{
    m_list->setVisible(m_combo->currentIndex() == ListedGpus);
    remember();
    Q_EMIT choiceChanged();
}

void SweepDeviceBox::remember() const
{
    QSettings().setValue(kSettingsKey, choice());
}

QString SweepDeviceBox::problem() const
{
    if (m_devices.size() < 2 || m_combo->currentIndex() != ListedGpus)
        return {};
    const QStringList words = m_list->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (words.isEmpty())
        return tr("Name the GPUs to sweep on, such as 0,1.");
    std::vector<int> seen;
    for (const QString &word : words) {
        bool ok = false;
        const int index = word.trimmed().toInt(&ok);
        if (!ok || index < 0 || index >= int(m_devices.size()))
            return tr("There is no GPU %1 here: this machine has GPUs 0 to %2.")
                .arg(word.trimmed())
                .arg(m_devices.size() - 1);
        if (std::find(seen.begin(), seen.end(), index) != seen.end())
            return tr("GPU %1 is named twice.").arg(index);
        seen.push_back(index);
    }
    return {};
}

std::vector<int> SweepDeviceBox::chosenDevices() const
{
    std::vector<int> devices;
    if (m_devices.size() < 2 || !problem().isEmpty())
        return devices;
    if (m_combo->currentIndex() == AllGpus) {
        for (int k = 0; k < int(m_devices.size()); ++k)
            devices.push_back(k);
    } else if (m_combo->currentIndex() == ListedGpus) {
        for (const QString &word : m_list->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
            devices.push_back(word.trimmed().toInt());
    }
    return devices;
}

} // namespace cuwb
