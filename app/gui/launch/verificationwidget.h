// VerificationWidget: how the run's outputs are checked, one check at a time: the checks list
// above (add one per output to verify, remove, choose which to edit), then for the chosen
// check which output (a buffer or a global), against what (a per-element expression over the
// inputs, another kernel of the same source, a file, or an aggregate: the sum, min or max
// against an input's or a value), how many of its elements count, which of them a mask
// selects, and with which tolerance (absolute, relative, ULP, or allclose's atol and rtol).
// Edits a Verification; spec() is the chosen check.
#pragma once

#include "launch/verificationspec.h"

#include <QGroupBox>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QToolButton;

namespace cuwb {

class VerificationWidget : public QGroupBox
{
    Q_OBJECT

public:
    explicit VerificationWidget(QWidget *parent = nullptr);

    // buffers: names of the launch's buffers (and the module's globals an output may be);
    // kernels: the other kernels of the source.
    void setChoices(const QStringList &buffers, const QStringList &kernels);
    // All the checks; the first is chosen.
    void setVerification(const Verification &verification);
    // The checks, without those whose reference is None.
    [[nodiscard]] Verification verification() const;
    // The chosen check.
    void setSpec(const VerificationSpec &spec);
    [[nodiscard]] const VerificationSpec &spec() const { return m_spec; }
    [[nodiscard]] int checkCount() const { return int(m_checks.size()); }
    [[nodiscard]] int currentCheck() const { return m_current; }
    // Adds a check of the first buffer by an expression and chooses it; removes the chosen one
    // (the last one becomes "None" instead).
    void addCheck();
    void removeCheck();
    void chooseCheck(int index);

    [[nodiscard]] QComboBox *referenceKindCombo() const { return m_kind; }
    [[nodiscard]] QLineEdit *expressionEdit() const { return m_expression; }
    [[nodiscard]] QLineEdit *countEdit() const { return m_count; }
    [[nodiscard]] QLineEdit *maskEdit() const { return m_mask; }
    [[nodiscard]] QComboBox *againstCombo() const { return m_against; }
    [[nodiscard]] QComboBox *toleranceCombo() const { return m_tolerance; }
    [[nodiscard]] QLineEdit *atolEdit() const { return m_atol; }
    [[nodiscard]] QLineEdit *rtolEdit() const { return m_rtol; }
    [[nodiscard]] QComboBox *checksCombo() const { return m_checksCombo; }

Q_SIGNALS:
    // The chosen check changed; verificationEdited follows with all of them.
    void specEdited(const cuwb::VerificationSpec &spec);
    void verificationEdited(const cuwb::Verification &verification);

private:
    void showSpec();
    void showChecks();
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
    QLineEdit *m_atol = nullptr; // allclose
    QLineEdit *m_rtol = nullptr;
    QLabel *m_atolLabel = nullptr;
    QLabel *m_rtolLabel = nullptr;
    QComboBox *m_checksCombo = nullptr;
    QToolButton *m_addCheck = nullptr;
    QToolButton *m_removeCheck = nullptr;
    std::vector<VerificationSpec> m_checks{VerificationSpec{}}; // never empty; None: no check
    int m_current = 0;
    bool m_listForm = false;
    VerificationSpec m_spec; // m_checks[m_current] as edited
    bool m_updating = false;
};

} // namespace cuwb
