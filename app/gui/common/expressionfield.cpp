#include "gui/common/expressionfield.h"

#include "gui/common/qtconvert.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QInputMethodEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTextCharFormat>

#include <cmath>

namespace cuwb {

ExpressionField::ExpressionField(QWidget *parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(this))
    , m_result(new QLabel(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(m_edit, 3);
    layout->addWidget(m_result, 2);
    m_result->setMinimumWidth(
        m_result->fontMetrics().horizontalAdvance(QStringLiteral("= 00000000")));
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_edit, &QLineEdit::textEdited, this, &ExpressionField::expressionEdited);
}

QString ExpressionField::expression() const
{
    return m_edit->text();
}

void ExpressionField::setExpression(const QString &expression)
{
    if (m_edit->text() != expression)
        m_edit->setText(expression);
}

QString ExpressionField::valueText(double value)
{
    if (std::isfinite(value) && std::abs(value) < 1e15 && value == std::trunc(value))
        return QString::number(qint64(value));
    return QString::number(value, 'g', 6);
}

QString ExpressionField::errorText(const ExpressionError &error)
{
    if (error.position >= 0)
        return tr("%1 at %2").arg(toQString(error.message)).arg(error.position);
    return toQString(error.message);
}

void ExpressionField::showValue(double value, const QString &unit)
{
    m_hasError = false;
    m_result->setStyleSheet(QString());
    m_result->setText(unit.isEmpty() ? tr("= %1").arg(valueText(value))
                                     : tr("= %1 %2").arg(valueText(value), unit));
    m_result->setToolTip(QString());
    m_edit->setToolTip(QString());
    underline(0, 0);
}

void ExpressionField::showError(const ExpressionError &error)
{
    m_hasError = true;
    const QString text = errorText(error);
    m_result->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_result->setText(text);
    m_result->setToolTip(text);
    m_edit->setToolTip(text);
    const int length = int(m_edit->text().size());
    if (error.position >= 0 && error.position < length)
        underline(error.position, length - error.position);
    else
        underline(0, length);
}

void ExpressionField::showNothing()
{
    m_hasError = false;
    m_result->clear();
    m_result->setToolTip(QString());
    m_edit->setToolTip(QString());
    underline(0, 0);
}

QString ExpressionField::resultText() const
{
    return m_result->text();
}

void ExpressionField::underline(int from, int length)
{
    // QLineEdit has no API for formatting a range; an input-method event with attributes and
    // no preedit text sets formats without touching the text or the undo stack.
    QList<QInputMethodEvent::Attribute> attributes;
    if (length > 0) {
        QTextCharFormat format;
        format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        format.setUnderlineColor(QColor(0xc6, 0x28, 0x28));
        attributes.append(QInputMethodEvent::Attribute(
            QInputMethodEvent::TextFormat, from - m_edit->cursorPosition(), length, format));
    }
    QInputMethodEvent event(QString(), attributes);
    QCoreApplication::sendEvent(m_edit, &event);
}

} // namespace cuwb
