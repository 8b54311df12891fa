#include "gui/launch/verificationwidget.h"

#include "gui/common/qtconvert.h"

#include <QComboBox>
#include <QDoubleValidator>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QToolButton>

namespace cuwb {

VerificationWidget::VerificationWidget(QWidget *parent)
    : QGroupBox(tr("Verification"), parent)
    , m_output(new QComboBox(this))
    , m_kind(new QComboBox(this))
    , m_stack(new QStackedWidget(this))
    , m_expression(new QLineEdit(this))
    , m_kernel(new QComboBox(this))
    , m_file(new QLineEdit(this))
    , m_reduce(new QComboBox(this))
    , m_against(new QComboBox(this))
    , m_expected(new QLineEdit(this))
    , m_count(new QLineEdit(this))
    , m_mask(new QLineEdit(this))
    , m_tolerance(new QComboBox(this))
    , m_toleranceValue(new QLineEdit(this))
{
    // In ReferenceKind's order.
    m_kind->addItems(
        {tr("None"), tr("Expression"), tr("Other kernel"), tr("File"), tr("Sum, min or max")});
    // In Reduction's order, without None.
    m_reduce->addItems({tr("sum"), tr("min"), tr("max")});
    m_reduce->setToolTip(tr("Reduce the output (its counted elements) on the GPU"));
    m_against->setToolTip(tr("Compare with the same reduction of an input, as the kernel found "
                             "it, or with a value"));
    m_expected->setPlaceholderText(tr("N * (N - 1) / 2"));
    m_expected->setToolTip(tr("The expected value, an expression over the launch's names"));
    m_count->setPlaceholderText(tr("all"));
    m_count->setToolTip(tr("Only the first elements are checked (an expression such as grid.x "
                           "for one partial result per block); empty: all of them"));
    m_mask->setPlaceholderText(tr("every element"));
    m_mask->setToolTip(tr("Only the elements where this CUDA C++ condition over i, the buffers "
                          "(as the kernel found them) and the variables holds are compared, "
                          "e.g. i % 32 == 0; empty: all of them"));
    m_tolerance->addItems({tr("absolute"), tr("relative"), tr("ULP")});
    auto *validator = new QDoubleValidator(0.0, 1e300, 17, m_toleranceValue);
    validator->setNotation(QDoubleValidator::ScientificNotation);
    validator->setLocale(QLocale::c());
    m_toleranceValue->setValidator(validator);
    m_toleranceValue->setToolTip(tr("Absolute or relative bound, or units in the last place"));
    m_expression->setPlaceholderText(tr("a[i] + b[i]"));
    m_expression->setToolTip(tr("The expected value of element i, in CUDA C++ over the buffers "
                                "(indexed by i) and the variables"));
    m_file->setPlaceholderText(tr(".npy or raw .bin of the output's element type"));

    m_stack->addWidget(new QLabel(tr("The output is not checked."), m_stack));
    m_stack->addWidget(m_expression);
    m_stack->addWidget(m_kernel);
    auto *filePage = new QWidget(m_stack);
    auto *fileRow = new QHBoxLayout(filePage);
    fileRow->setContentsMargins(0, 0, 0, 0);
    auto *browseButton = new QToolButton(filePage);
    browseButton->setText(tr("Browse\u2026"));
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browseButton);
    m_stack->addWidget(filePage);
    auto *aggregatePage = new QWidget(m_stack);
    auto *aggregateRow = new QHBoxLayout(aggregatePage);
    aggregateRow->setContentsMargins(0, 0, 0, 0);
    aggregateRow->addWidget(m_reduce);
    aggregateRow->addWidget(new QLabel(tr("against"), aggregatePage));
    aggregateRow->addWidget(m_against);
    aggregateRow->addWidget(m_expected, 1);
    m_stack->addWidget(aggregatePage);
    m_stack->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);

    auto *toleranceRow = new QHBoxLayout;
    toleranceRow->addWidget(m_tolerance);
    toleranceRow->addWidget(m_toleranceValue, 1);

    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Output"), m_output);
    form->addRow(tr("Reference"), m_kind);
    form->addRow(QString(), m_stack);
    form->addRow(tr("Elements"), m_count);
    form->addRow(tr("Mask"), m_mask);
    form->addRow(tr("Tolerance"), toleranceRow);

    connect(m_output, &QComboBox::currentTextChanged, this, &VerificationWidget::edited);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &VerificationWidget::edited);
    connect(m_expression, &QLineEdit::textEdited, this, &VerificationWidget::edited);
    connect(m_kernel, &QComboBox::currentTextChanged, this, &VerificationWidget::edited);
    connect(m_file, &QLineEdit::textEdited, this, &VerificationWidget::edited);
    connect(m_reduce, &QComboBox::currentIndexChanged, this, &VerificationWidget::edited);
    connect(m_against, &QComboBox::currentIndexChanged, this, &VerificationWidget::edited);
    connect(m_expected, &QLineEdit::textEdited, this, &VerificationWidget::edited);
    connect(m_count, &QLineEdit::textEdited, this, &VerificationWidget::edited);
    connect(m_mask, &QLineEdit::textEdited, this, &VerificationWidget::edited);
    connect(m_tolerance, &QComboBox::currentIndexChanged, this, &VerificationWidget::edited);
    connect(m_toleranceValue, &QLineEdit::textEdited, this, &VerificationWidget::edited);
    connect(browseButton, &QToolButton::clicked, this, &VerificationWidget::browse);
    showSpec();
}

void VerificationWidget::setChoices(const QStringList &buffers, const QStringList &kernels)
{
    m_updating = true;
    m_output->clear();
    m_output->addItems(buffers);
    m_kernel->clear();
    m_kernel->addItems(kernels);
    m_against->clear();
    m_against->addItem(tr("a value"));
    m_against->addItems(buffers);
    m_updating = false;
    showSpec();
}

void VerificationWidget::setSpec(const VerificationSpec &spec)
{
    m_spec = spec;
    showSpec();
}

void VerificationWidget::showSpec()
{
    m_updating = true;
    const QString output = toQString(m_spec.output);
    if (!output.isEmpty() && m_output->findText(output) < 0)
        m_output->addItem(output);
    m_output->setCurrentText(output);
    m_kind->setCurrentIndex(int(m_spec.kind));
    m_stack->setCurrentIndex(int(m_spec.kind));
    if (m_expression->text() != toQString(m_spec.expression))
        m_expression->setText(toQString(m_spec.expression));
    const QString kernel = toQString(m_spec.referenceKernel);
    if (!kernel.isEmpty() && m_kernel->findText(kernel) < 0)
        m_kernel->addItem(kernel);
    m_kernel->setCurrentText(kernel);
    if (m_file->text() != toQString(m_spec.file))
        m_file->setText(toQString(m_spec.file));
    m_reduce->setCurrentIndex(std::max(0, int(m_spec.reduce) - 1));
    const QString of = toQString(m_spec.of);
    if (!of.isEmpty() && m_against->findText(of) < 0)
        m_against->addItem(of);
    m_against->setCurrentIndex(of.isEmpty() ? 0 : m_against->findText(of));
    m_expected->setVisible(of.isEmpty());
    if (m_expected->text() != toQString(m_spec.expected))
        m_expected->setText(toQString(m_spec.expected));
    if (m_count->text() != toQString(m_spec.count))
        m_count->setText(toQString(m_spec.count));
    if (m_mask->text() != toQString(m_spec.mask))
        m_mask->setText(toQString(m_spec.mask));
    m_tolerance->setCurrentIndex(int(m_spec.tolerance));
    bool ok = false;
    if (QLocale::c().toDouble(m_toleranceValue->text(), &ok) != m_spec.toleranceValue || !ok)
        m_toleranceValue->setText(QString::number(m_spec.toleranceValue, 'g', 6));
    const bool on = m_spec.kind != ReferenceKind::None;
    m_output->setEnabled(on);
    m_count->setEnabled(on);
    // A reduction sums the first elements; the mask selects elements to compare one by one.
    m_mask->setEnabled(on && m_spec.kind != ReferenceKind::Aggregate);
    m_tolerance->setEnabled(on);
    m_toleranceValue->setEnabled(on);
    m_updating = false;
}

void VerificationWidget::edited()
{
    if (m_updating)
        return;
    const ReferenceKind before = m_spec.kind;
    m_spec.output = toStdString(m_output->currentText());
    m_spec.kind = ReferenceKind(std::max(0, m_kind->currentIndex()));
    m_spec.expression = toStdString(m_expression->text().trimmed());
    m_spec.referenceKernel = toStdString(m_kernel->currentText());
    m_spec.file = toStdString(m_file->text().trimmed());
    m_spec.count = toStdString(m_count->text().trimmed());
    m_spec.mask = m_spec.kind == ReferenceKind::Aggregate ? std::string()
                                                          : toStdString(m_mask->text().trimmed());
    if (m_spec.kind == ReferenceKind::Aggregate) {
        m_spec.reduce = Reduction(std::max(0, m_reduce->currentIndex()) + 1);
        m_spec.of =
            m_against->currentIndex() > 0 ? toStdString(m_against->currentText()) : std::string();
        m_spec.expected =
            m_spec.of.empty() ? toStdString(m_expected->text().trimmed()) : std::string();
    } else if (m_spec.kind != ReferenceKind::Kernel || before != ReferenceKind::Kernel) {
        // A reduction left over from the aggregate page would silently turn an element-wise
        // check into a reduced one; a project's reduced kernel check keeps its own.
        m_spec.reduce = Reduction::None;
    }
    m_spec.tolerance = ToleranceKind(std::max(0, m_tolerance->currentIndex()));
    bool ok = false;
    const double tolerance = QLocale::c().toDouble(m_toleranceValue->text(), &ok);
    if (ok)
        m_spec.toleranceValue = tolerance;
    if (m_spec.kind == ReferenceKind::Kernel && m_spec.referenceKernel.empty() &&
        m_kernel->count() > 0)
        m_spec.referenceKernel = toStdString(m_kernel->itemText(0));
    showSpec();
    Q_EMIT specEdited(m_spec);
}

void VerificationWidget::browse()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Reference values"),
                                                      QFileInfo(m_file->text()).absolutePath(),
                                                      tr("Arrays (*.npy *.bin);;All files (*)"));
    if (path.isEmpty())
        return;
    m_file->setText(path);
    edited();
}

} // namespace cuwb
