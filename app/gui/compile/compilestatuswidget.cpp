#include "gui/compile/compilestatuswidget.h"

#include "gui/common/qtconvert.h"
#include "gui/common/severityicons.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>

namespace cuwb {

namespace {

QString count(int n, const QString &one, const QString &many)
{
    return n == 1 ? one : many.arg(n);
}

} // namespace

CompileStatusWidget::CompileStatusWidget(QWidget *parent)
    : QWidget(parent)
    , m_icon(new QLabel(this))
    , m_label(new QLabel(this))
    , m_busy(new QProgressBar(this))
{
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(70);
    m_busy->setMaximumHeight(12);
    m_busy->setTextVisible(false);
    m_busy->setToolTip(tr("Compiling\u2026"));
    m_busy->hide();
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->setSpacing(6);
    layout->addWidget(m_busy);
    layout->addWidget(m_icon);
    layout->addWidget(m_label);
}

void CompileStatusWidget::setBusy(bool busy)
{
    m_busy->setVisible(busy);
}

QString CompileStatusWidget::summary(const CompileResult &result)
{
    if (!result.failureMessage.empty())
        return tr("Compile failed: %1").arg(toQString(result.failureMessage));
    const DiagnosticCounts counts = result.counts();
    QStringList parts;
    parts << count(counts.errors, tr("1 error"), tr("%1 errors"));
    parts << count(counts.warnings, tr("1 warning"), tr("%1 warnings"));
    if (counts.remarks > 0)
        parts << count(counts.remarks, tr("1 remark"), tr("%1 remarks"));
    QString text = tr("%1 \u2014 %2 ms")
                       .arg(parts.join(QStringLiteral(", ")),
                            QLocale().toString(result.compileTimeMs, 'f', 0));
    if (result.fromCache)
        text += tr(" (cached)");
    if (!result.compiledBy.empty())
        text += tr(" \u2014 %1").arg(toQString(result.compiledBy.label()));
    return text;
}

void CompileStatusWidget::showResult(const CompileResult &result)
{
    const DiagnosticCounts counts = result.counts();
    m_label->setText(summary(result));
    // The command a user types for the same build, and what the compile set aside.
    QString tip = toQString(result.compiledBy.command);
    for (const std::string &note : result.notes)
        tip += QStringLiteral("\n") + toQString(note);
    m_label->setToolTip(tip.trimmed());
    Severity worst = Severity::Note;
    if (counts.errors > 0 || !result.failureMessage.empty())
        worst = Severity::Error;
    else if (counts.warnings > 0)
        worst = Severity::Warning;
    m_icon->setPixmap(worst == Severity::Note ? QPixmap() : SeverityIcons::pixmap(worst, 14));
    m_icon->setVisible(worst != Severity::Note);
}

void CompileStatusWidget::clear()
{
    m_label->clear();
    m_icon->hide();
}

QString CompileStatusWidget::text() const
{
    return m_label->text();
}

} // namespace cuwb
