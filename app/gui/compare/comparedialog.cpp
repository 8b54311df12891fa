#include "gui/compare/comparedialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace cuwb {

CompareDialog::CompareDialog(const QString &aName, const QStringList &tabs, QWidget *parent)
    : QDialog(parent)
    , m_tabChoice(new QRadioButton(tr("Another open tab, launched like A:"), this))
    , m_fileChoice(new QRadioButton(tr("A project file (.cuwb), with its own launch:"), this))
    , m_tabs(new QComboBox(this))
    , m_path(new QLineEdit(this))
{
    setWindowTitle(tr("Compare"));
    auto *intro = new QLabel(
        tr("<b>A:</b> %1<br>Each side is measured, profiled and inspected on the GPU, one "
           "after the other; the Compare dock shows them side by side.")
            .arg(aName.toHtmlEscaped()),
        this);
    intro->setWordWrap(true);
    m_tabs->addItems(tabs);
    m_tabChoice->setEnabled(!tabs.isEmpty());
    m_tabs->setEnabled(!tabs.isEmpty());
    m_path->setPlaceholderText(tr("samples/transpose/transpose_shared.cuwb"));
    auto *browse = new QPushButton(tr("Browse\u2026"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Compare with"), QFileInfo(m_path->text()).path(),
                                         tr("CUDA Workbench projects (*.cuwb)"));
        if (!path.isEmpty()) {
            m_path->setText(path);
            m_fileChoice->setChecked(true);
        }
    });
    (tabs.isEmpty() ? m_fileChoice : m_tabChoice)->setChecked(true);

    auto *file = new QHBoxLayout;
    file->addWidget(m_path, 1);
    file->addWidget(browse);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_tabChoice, &QRadioButton::toggled, this, &CompareDialog::updateOk);
    connect(m_path, &QLineEdit::textChanged, this, &CompareDialog::updateOk);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(new QLabel(tr("<b>B:</b>"), this));
    layout->addWidget(m_tabChoice);
    layout->addWidget(m_tabs);
    layout->addWidget(m_fileChoice);
    layout->addLayout(file);
    layout->addWidget(buttons);
    updateOk();
}

bool CompareDialog::choosesTab() const
{
    return m_tabChoice->isChecked();
}

int CompareDialog::tabIndex() const
{
    return choosesTab() ? m_tabs->currentIndex() : -1;
}

QString CompareDialog::projectPath() const
{
    return choosesTab() ? QString() : m_path->text().trimmed();
}

void CompareDialog::setProjectPath(const QString &path)
{
    m_path->setText(path);
    m_fileChoice->setChecked(true);
}

void CompareDialog::updateOk()
{
    auto *buttons = findChild<QDialogButtonBox *>();
    if (buttons)
        buttons->button(QDialogButtonBox::Ok)
            ->setEnabled(choosesTab() ? m_tabs->count() > 0 : !m_path->text().trimmed().isEmpty());
}

} // namespace cuwb
