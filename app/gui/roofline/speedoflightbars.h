// SpeedOfLightBars: Nsight Compute's "GPU Speed Of Light Throughput" as horizontal bars:
// compute (SM) and memory throughput in % of their peaks, then the memory units the memory
// figure is the busiest of (DRAM, L2, L1). Values come from speedOfLight() of a metrics pass;
// a value the pass did not collect is shown as such, not as 0 %.
#pragma once

#include "measure/roofline.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace cuwb {

class SpeedOfLightBars : public QWidget
{
    Q_OBJECT

public:
    explicit SpeedOfLightBars(QWidget *parent = nullptr);

    void setSpeedOfLight(const SpeedOfLight &sol);
    void clear();

    struct Bar
    {
        QString name;                  // "Compute (SM)", "Memory", "DRAM", "L2", "L1"
        std::optional<double> percent; // absent: not collected
        bool detail = false;           // a memory unit, drawn indented under Memory
    };
    [[nodiscard]] const std::vector<Bar> &bars() const { return m_bars; }
    // "73.3 %" or "not collected", as drawn beside bar `index`.
    [[nodiscard]] QString valueText(std::size_t index) const;
    [[nodiscard]] bool hasValues() const;

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::vector<Bar> m_bars;
};

} // namespace cuwb
