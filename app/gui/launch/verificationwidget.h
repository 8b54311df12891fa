// VerificationWidget: how the run's output is checked: which output buffer, against what (a
// per-element expression over the inputs, another kernel of the same source, a file, or an
// aggregate: the sum, min or max against an input's or a value), how many of its elements
// count, which of them a mask selects, and with which tolerance (absolute, relative or ULP).
// Edits a VerificationSpec.
#pragma once

#include "launch/verificationspec.h"

#include <QGroupBox>

class QComboBox;
class QLineEdit;
class QStackedWidget;

namespace cuwb {

class VerificationWidget : public QGroupBox
{
    Q_OBJECT

public:
    explicit VerificationWidget(QWidget *parent = nullptr);

    // buffers: names of the kernel's buffer parameters; kernels: the other kernels of the source.
    void setChoices(const QStringList &buffers, const QStringList &kernels);
    void setSpec(const VerificationSpec &spec);
    [[nodiscard]] const VerificationSpec &spec() const { return m_spec; }

    [[nodiscard]] QComboBox *referenceKindCombo() const { return m_kind; }
    [[nodiscard]] QLineEdit *expressionEdit() const { return m_expression; }
    [[nodiscard]] QLineEdit *countEdit() const { return m_count; }
    [[nodiscard]] QLineEdit *maskEdit() const { return m_mask; }
    [[nodiscard]] QComboBox *againstCombo() const { return m_against; }

Q_SIGNALS:
    void specEdited(const cuwb::VerificationSpec &spec);

private:
    void showSpec();
    void edited();
    void browse();

    QComboBox *m_output = nullptr;
    QComboBox *m_kind = nullptr;
    QStackedWidget *m_stack = nullptr;
    QLineEdit *m_expression = nullptr;
    QComboBox *m_kernel = nullptr;
    QLineEdit *m_file = nullptr;
    QComboBox *m_reduce = nullptr;   // aggregate: sum, min, max
    QComboBox *m_against = nullptr;  // aggregate: an input buffer, or "a value"
    QLineEdit *m_expected = nullptr; // aggregate: the expected value, an expression
    QLineEdit *m_count = nullptr;    // the elements that count: empty for all
    QLineEdit *m_mask = nullptr;     // element-wise checks: the condition selecting elements
    QComboBox *m_tolerance = nullptr;
    QLineEdit *m_toleranceValue = nullptr;
    VerificationSpec m_spec;
    bool m_updating = false;
};

} // namespace cuwb
