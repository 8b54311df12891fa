#include "gui/launch/verificationwidget.h"

#include "gui/common/qtconvert.h"

#include "project/project.h"

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
    , m_atol(new QLineEdit(this))
    , m_rtol(new QLineEdit(this))
    , m_atolLabel(new QLabel(tr("atol"), this))
    , m_rtolLabel(new QLabel(tr("rtol"), this))
    , m_checksCombo(new QComboBox(this))
    , m_addCheck(new QToolButton(this))
    , m_removeCheck(new QToolButton(this))
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
    // In ToleranceKind's order.
    m_tolerance->addItems({tr("absolute"), tr("relative"), tr("ULP"), tr("allclose")});
    m_tolerance->setToolTip(tr("allclose: |out - ref| <= atol + rtol * |ref| for every element, "
                               "as numpy's allclose"));
    for (QLineEdit *edit : {m_toleranceValue, m_atol, m_rtol}) {
        auto *validator = new QDoubleValidator(0.0, 1e300, 17, edit);
        validator->setNotation(QDoubleValidator::ScientificNotation);
        validator->setLocale(QLocale::c());
        edit->setValidator(validator);
    }
    m_toleranceValue->setToolTip(tr("Absolute or relative bound, or units in the last place"));
    m_atol->setToolTip(tr("allclose's absolute tolerance (numpy's default is 1e-08)"));
    m_rtol->setToolTip(tr("allclose's relative tolerance (numpy's default is 1e-05)"));
    m_checksCombo->setToolTip(tr("The checks of the run: each verifies one output against its "
                                 "own reference; choose one to edit it"));
    m_addCheck->setText(QStringLiteral("+"));
    m_addCheck->setToolTip(tr("Check another output"));
    m_removeCheck->setText(QStringLiteral("\u2212"));
    m_removeCheck->setToolTip(tr("Remove the chosen check"));
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
    toleranceRow->addWidget(m_atolLabel);
    toleranceRow->addWidget(m_atol, 1);
    toleranceRow->addWidget(m_rtolLabel);
    toleranceRow->addWidget(m_rtol, 1);

    auto *checksRow = new QHBoxLayout;
    checksRow->addWidget(m_checksCombo, 1);
    checksRow->addWidget(m_addCheck);
    checksRow->addWidget(m_removeCheck);

    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Check"), checksRow);
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
    connect(m_atol, &QLineEdit::textEdited, this, &VerificationWidget::edited);
    connect(m_rtol, &QLineEdit::textEdited, this, &VerificationWidget::edited);
    connect(browseButton, &QToolButton::clicked, this, &VerificationWidget::browse);
    connect(m_addCheck, &QToolButton::clicked, this, &VerificationWidget::addCheck);
    connect(m_removeCheck, &QToolButton::clicked, this, &VerificationWidget::removeCheck);
    connect(m_checksCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_updating)
            chooseCheck(index);
    });
    showChecks();
    showSpec();
}

void VerificationWidget::setVerification(const Verification &verification)
{
    m_checks = verification.checks;
    if (m_checks.empty())
        m_checks.push_back(VerificationSpec{});
    m_listForm = verification.listForm;
    m_current = 0;
    m_spec = m_checks.front();
    showChecks();
    showSpec();
}

Verification VerificationWidget::verification() const
{
    Verification verification;
    for (const VerificationSpec &check : m_checks) {
        if (check.kind != ReferenceKind::None)
            verification.checks.push_back(check);
    }
    verification.listForm = m_listForm;
    return verification;
}

void VerificationWidget::chooseCheck(int index)
{
    if (index < 0 || index >= int(m_checks.size()) || index == m_current)
        return;
    m_current = index;
    m_spec = m_checks[std::size_t(index)];
    showChecks();
    showSpec();
}

void VerificationWidget::addCheck()
{
    if (m_checks.size() >= kMaxVerificationChecks)
        return;
    VerificationSpec check;
    check.kind = ReferenceKind::Expression;
    check.output = m_output->count() > 0 ? toStdString(m_output->itemText(0)) : std::string();
    if (m_checks.size() == 1 && m_checks.front().kind == ReferenceKind::None) {
        m_checks.front() = check; // the first check replaces "none"
    } else {
        m_checks.push_back(check);
    }
    m_current = int(m_checks.size()) - 1;
    m_spec = m_checks.back();
    showChecks();
    showSpec();
    Q_EMIT specEdited(m_spec);
    Q_EMIT verificationEdited(verification());
}

void VerificationWidget::removeCheck()
{
    if (m_checks.size() <= 1) {
        m_checks.front() = VerificationSpec{};
        m_current = 0;
    } else {
        m_checks.erase(m_checks.begin() + m_current);
        m_current = std::min(m_current, int(m_checks.size()) - 1);
    }
    m_spec = m_checks[std::size_t(m_current)];
    showChecks();
    showSpec();
    Q_EMIT specEdited(m_spec);
    Q_EMIT verificationEdited(verification());
}

// The checks list: "1: `c` (expression)" for each, the chosen one current.
void VerificationWidget::showChecks()
{
    m_updating = true;
    m_checksCombo->clear();
    for (std::size_t k = 0; k < m_checks.size(); ++k) {
        const VerificationSpec &check = m_checks[k];
        m_checksCombo->addItem(check.kind == ReferenceKind::None
                                   ? tr("%1: none").arg(k + 1)
                                   : tr("%1: %2").arg(k + 1).arg(toQString(check.label())));
    }
    m_checksCombo->setCurrentIndex(m_current);
    const bool full = m_checks.size() >= kMaxVerificationChecks;
    m_addCheck->setEnabled(!full);
    m_addCheck->setToolTip(full
                               ? tr("A project holds at most %1 checks").arg(kMaxVerificationChecks)
                               : tr("Check another output"));
    m_removeCheck->setEnabled(m_checks.size() > 1 || m_checks.front().kind != ReferenceKind::None);
    m_updating = false;
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
    m_checks[std::size_t(m_current)] = spec;
    showChecks();
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
    const auto showNumber = [](QLineEdit *edit, double value) {
        bool ok = false;
        if (QLocale::c().toDouble(edit->text(), &ok) != value || !ok)
            edit->setText(QString::number(value, 'g', 6));
    };
    showNumber(m_toleranceValue, m_spec.toleranceValue);
    showNumber(m_atol, m_spec.atol);
    showNumber(m_rtol, m_spec.rtol);
    const bool allclose = m_spec.tolerance == ToleranceKind::AllClose;
    m_toleranceValue->setVisible(!allclose);
    for (QWidget *widget :
         std::initializer_list<QWidget *>{m_atol, m_rtol, m_atolLabel, m_rtolLabel})
        widget->setVisible(allclose);
    const bool on = m_spec.kind != ReferenceKind::None;
    m_output->setEnabled(on);
    m_count->setEnabled(on);
    // A reduction sums the first elements; the mask selects elements to compare one by one.
    m_mask->setEnabled(on && m_spec.kind != ReferenceKind::Aggregate);
    m_tolerance->setEnabled(on);
    m_toleranceValue->setEnabled(on);
    m_atol->setEnabled(on);
    m_rtol->setEnabled(on);
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
    const auto readNumber = [](QLineEdit *edit, double &value) {
        bool ok = false;
        const double number = QLocale::c().toDouble(edit->text(), &ok);
        if (ok)
            value = number;
    };
    readNumber(m_toleranceValue, m_spec.toleranceValue);
    readNumber(m_atol, m_spec.atol);
    readNumber(m_rtol, m_spec.rtol);
    if (m_spec.kind == ReferenceKind::Kernel && m_spec.referenceKernel.empty() &&
        m_kernel->count() > 0)
        m_spec.referenceKernel = toStdString(m_kernel->itemText(0));
    m_checks[std::size_t(m_current)] = m_spec;
    showChecks();
    showSpec();
    Q_EMIT specEdited(m_spec);
    Q_EMIT verificationEdited(verification());
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
