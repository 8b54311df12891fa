#include "gui/launch/bufferinitwidget.h"

#include "gui/common/qtconvert.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <limits>

namespace cuwb {

namespace {

QWidget *makePage(QStackedWidget *stack)
{
    auto *page = new QWidget(stack);
    auto *form = new QFormLayout(page);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    stack->addWidget(page);
    return page;
}

} // namespace

BufferInitWidget::BufferInitWidget(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_hint(new QLabel(this))
{
    // One page per InitKind, in the enum's order.
    QWidget *zeros = makePage(m_stack);
    static_cast<QFormLayout *>(zeros->layout())
        ->addRow(new QLabel(tr("Every element starts as 0."), zeros));

    QWidget *constant = makePage(m_stack);
    addField(constant, tr("Value"), &BufferInit::value);

    QWidget *range = makePage(m_stack);
    addField(range, tr("Start"), &BufferInit::start);
    addField(range, tr("Step"), &BufferInit::step);

    QWidget *uniform = makePage(m_stack);
    addField(uniform, tr("Low"), &BufferInit::low);
    addField(uniform, tr("High"), &BufferInit::high);
    addSeed(uniform);

    QWidget *normal = makePage(m_stack);
    addField(normal, tr("Mean"), &BufferInit::mean);
    addField(normal, tr("Std. dev."), &BufferInit::stddev);
    addSeed(normal);

    QWidget *file = makePage(m_stack);
    auto *fileRow = new QHBoxLayout;
    m_file = new QLineEdit(file);
    m_file->setPlaceholderText(tr(".npy or raw .bin of the element type"));
    auto *browseButton = new QToolButton(file);
    browseButton->setText(tr("Browse\u2026"));
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browseButton);
    static_cast<QFormLayout *>(file->layout())->addRow(tr("File"), fileRow);
    connect(m_file, &QLineEdit::textEdited, this, [this](const QString &text) {
        m_init.file = toStdString(text);
        emitEdited();
    });
    connect(browseButton, &QToolButton::clicked, this, &BufferInitWidget::browse);

    QWidget *copy = makePage(m_stack);
    m_copyOf = new QComboBox(copy);
    static_cast<QFormLayout *>(copy->layout())->addRow(tr("Copy of"), m_copyOf);
    connect(m_copyOf, &QComboBox::currentTextChanged, this, [this](const QString &text) {
        m_init.copyOf = toStdString(text);
        emitEdited();
    });

    m_hint->setWordWrap(true);
    m_hint->setEnabled(false);
    m_stack->addWidget(m_hint);

    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_stack);
    showHint(tr("Select a buffer to edit its initial contents."));
}

QLineEdit *BufferInitWidget::addField(QWidget *page, const QString &label,
                                      std::string BufferInit::*member)
{
    auto *edit = new QLineEdit(page);
    edit->setToolTip(tr("An expression over the variables"));
    static_cast<QFormLayout *>(page->layout())->addRow(label, edit);
    m_fields.append({edit, member});
    connect(edit, &QLineEdit::textEdited, this, [this, member](const QString &text) {
        m_init.*member = toStdString(text.trimmed());
        emitEdited();
    });
    return edit;
}

QSpinBox *BufferInitWidget::addSeed(QWidget *page)
{
    auto *seed = new QSpinBox(page);
    seed->setRange(0, std::numeric_limits<int>::max());
    static_cast<QFormLayout *>(page->layout())->addRow(tr("Seed"), seed);
    m_seeds.append(seed);
    connect(seed, &QSpinBox::valueChanged, this, [this](int value) {
        m_init.seed = std::uint64_t(value);
        emitEdited();
    });
    return seed;
}

void BufferInitWidget::setInit(const QString &name, const BufferInit &init,
                               const QStringList &otherBuffers)
{
    m_updating = true;
    m_init = init;
    m_title->setText(tr("Initial contents of %1").arg(name));
    m_title->show();
    for (const auto &[edit, member] : std::as_const(m_fields)) {
        const QString text = toQString(init.*member);
        if (edit->text() != text)
            edit->setText(text);
    }
    for (QSpinBox *seed : std::as_const(m_seeds))
        seed->setValue(int(std::min<std::uint64_t>(init.seed, std::uint64_t(seed->maximum()))));
    m_file->setText(toQString(init.file));
    m_copyOf->clear();
    m_copyOf->addItems(otherBuffers);
    m_copyOf->setCurrentText(toQString(init.copyOf));
    m_stack->setCurrentIndex(int(init.kind));
    fitToPage();
    m_updating = false;
}

void BufferInitWidget::showHint(const QString &hint)
{
    m_title->hide();
    m_hint->setText(hint);
    m_stack->setCurrentWidget(m_hint);
    fitToPage();
}

void BufferInitWidget::fitToPage()
{
    // Only as tall as the page shown, not as the tallest page.
    m_stack->setFixedHeight(m_stack->currentWidget()->sizeHint().height());
}

void BufferInitWidget::browse()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Initial contents"),
                                                      QFileInfo(m_file->text()).absolutePath(),
                                                      tr("Arrays (*.npy *.bin);;All files (*)"));
    if (path.isEmpty())
        return;
    m_file->setText(path);
    m_init.file = toStdString(path);
    emitEdited();
}

void BufferInitWidget::emitEdited()
{
    if (!m_updating)
        Q_EMIT initEdited(m_init);
}

} // namespace cuwb
