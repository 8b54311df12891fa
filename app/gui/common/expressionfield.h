// ExpressionField: a one-line editor for an expression (buffer size, scalar, grid, block,
// shared memory) that shows what it evaluates to beside it, or its error: the message in red,
// a wavy underline from the error's position to the end, and the full text in the tooltip.
#pragma once

#include "launch/expression.h"

#include <QWidget>

class QLabel;
class QLineEdit;

namespace cuwb {

class ExpressionField : public QWidget
{
    Q_OBJECT

public:
    explicit ExpressionField(QWidget *parent = nullptr);

    [[nodiscard]] QString expression() const;
    // Does not emit expressionEdited.
    void setExpression(const QString &expression);

    void showValue(double value, const QString &unit = {});
    void showError(const ExpressionError &error);
    void showNothing();

    [[nodiscard]] bool hasError() const { return m_hasError; }
    [[nodiscard]] QString resultText() const;
    [[nodiscard]] QLineEdit *lineEdit() const { return m_edit; }

    // "unknown variable 'M' at 5": the message and the 0-based position, as shown to the user.
    static QString errorText(const ExpressionError &error);
    // "1048576", "0.5", "1.2e+10".
    static QString valueText(double value);

Q_SIGNALS:
    void expressionEdited(const QString &expression);

private:
    void underline(int from, int length);

    QLineEdit *m_edit = nullptr;
    QLabel *m_result = nullptr;
    bool m_hasError = false;
};

} // namespace cuwb
