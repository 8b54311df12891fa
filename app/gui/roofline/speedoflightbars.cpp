#include "gui/roofline/speedoflightbars.h"

#include <QPainter>
#include <QPalette>

#include <algorithm>

namespace cuwb {

namespace {

constexpr int kRowHeight = 20;
constexpr int kGap = 4;
constexpr int kIndent = 14;

QColor barColor(double percent)
{
    // Nsight Compute's reading: above 80 % the unit is the limiter, above 60 % it is busy.
    if (percent >= 80.0)
        return {0x2e, 0x7d, 0x32};
    if (percent >= 60.0)
        return {0x1f, 0x77, 0xb4};
    return {0x90, 0xa4, 0xae};
}

} // namespace

SpeedOfLightBars::SpeedOfLightBars(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("speedOfLightBars"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    clear();
}

void SpeedOfLightBars::setSpeedOfLight(const SpeedOfLight &sol)
{
    m_bars = {{tr("Compute (SM)"), sol.computePercent, false},
              {tr("Memory"), sol.memoryPercent, false},
              {tr("DRAM"), sol.dramPercent, true},
              {tr("L2"), sol.l2Percent, true},
              {tr("L1"), sol.l1Percent, true}};
    setToolTip(tr("GPU speed of light: throughput in % of each unit's peak during the metrics "
                  "pass. Memory is the busiest of DRAM, L2 and L1."));
    updateGeometry();
    update();
}

void SpeedOfLightBars::clear()
{
    setSpeedOfLight(SpeedOfLight{});
}

bool SpeedOfLightBars::hasValues() const
{
    return std::any_of(m_bars.begin(), m_bars.end(),
                       [](const Bar &b) { return b.percent.has_value(); });
}

QString SpeedOfLightBars::valueText(std::size_t index) const
{
    if (index >= m_bars.size())
        return {};
    const std::optional<double> p = m_bars[index].percent;
    return p ? tr("%1 %").arg(QString::number(*p, 'f', 1)) : tr("not collected");
}

QSize SpeedOfLightBars::sizeHint() const
{
    return {320, int(m_bars.size()) * (kRowHeight + kGap) + kGap};
}

QSize SpeedOfLightBars::minimumSizeHint() const
{
    return {200, sizeHint().height()};
}

void SpeedOfLightBars::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event)
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics(font());
    int nameWidth = 0;
    for (const Bar &b : m_bars)
        nameWidth =
            std::max(nameWidth, metrics.horizontalAdvance(b.name) + (b.detail ? kIndent : 0));
    const int valueWidth = metrics.horizontalAdvance(tr("not collected")) + 8;
    const int barLeft = nameWidth + 10;
    const int barWidth = std::max(20, width() - barLeft - valueWidth - 4);
    const QColor text = palette().color(QPalette::WindowText);
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        const Bar &b = m_bars[i];
        const int top = kGap + int(i) * (kRowHeight + kGap);
        painter.setPen(text);
        painter.drawText(QRect(b.detail ? kIndent : 0, top, nameWidth, kRowHeight),
                         Qt::AlignLeft | Qt::AlignVCenter, b.name);
        const QRect track(barLeft, top + 3, barWidth, kRowHeight - 6);
        painter.setPen(Qt::NoPen);
        painter.setBrush(palette().color(QPalette::AlternateBase).darker(105));
        painter.drawRect(track);
        if (b.percent) {
            const double p = std::clamp(*b.percent, 0.0, 100.0);
            QRect filled = track;
            filled.setWidth(int(track.width() * p / 100.0 + 0.5));
            painter.setBrush(barColor(*b.percent));
            painter.drawRect(filled);
        }
        painter.setPen(b.percent ? text : palette().color(QPalette::PlaceholderText));
        painter.drawText(QRect(barLeft + barWidth + 6, top, valueWidth, kRowHeight),
                         Qt::AlignLeft | Qt::AlignVCenter, valueText(i));
    }
}

} // namespace cuwb
