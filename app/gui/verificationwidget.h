// VerificationWidget: how the run's output is checked: which output buffer, against what (a
// per-element expression over the inputs, another kernel of the same source, or a file), and
// with which tolerance (absolute, relative or ULP). Edits a VerificationSpec.
#pragma once

#include "run/verification.h"

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
    QComboBox *m_tolerance = nullptr;
    QLineEdit *m_toleranceValue = nullptr;
    VerificationSpec m_spec;
    bool m_updating = false;
};

} // namespace cuwb
