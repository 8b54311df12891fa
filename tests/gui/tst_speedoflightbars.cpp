// The speed of light bars: the five rows Nsight Compute's GPU Speed Of Light section shows,
// their values as given (the percentages here are made up for the test), and a value the
// metrics pass did not collect shown as such rather than as 0 %.
#include "gui/roofline/speedoflightbars.h"

#include <QImage>
#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_speedoflightbars {

class TestSpeedOfLightBars : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsTheFiveRowsInOrder()
    {
        SpeedOfLightBars bars;
        QVERIFY(!bars.hasValues());
        SpeedOfLight sol;
        sol.computePercent = 73.3;
        sol.memoryPercent = 93.7;
        sol.dramPercent = 0.5;
        sol.l2Percent = 17.4;
        sol.l1Percent = 93.94;
        bars.setSpeedOfLight(sol);
        QVERIFY(bars.hasValues());
        QCOMPARE(bars.bars().size(), std::size_t(5));
        QCOMPARE(bars.bars()[0].name, QStringLiteral("Compute (SM)"));
        QCOMPARE(bars.bars()[1].name, QStringLiteral("Memory"));
        QCOMPARE(bars.bars()[4].name, QStringLiteral("L1"));
        QVERIFY(!bars.bars()[1].detail);
        QVERIFY(bars.bars()[2].detail);
        QCOMPARE(*bars.bars()[0].percent, 73.3);
        QCOMPARE(*bars.bars()[3].percent, 17.4);
        QCOMPARE(bars.valueText(0), QStringLiteral("73.3 %"));
        QCOMPARE(bars.valueText(4), QStringLiteral("93.9 %"));
    }

    void missingValueIsNotZero()
    {
        SpeedOfLightBars bars;
        SpeedOfLight sol;
        sol.computePercent = 12.0;
        bars.setSpeedOfLight(sol);
        QCOMPARE(bars.valueText(0), QStringLiteral("12.0 %"));
        QCOMPARE(bars.valueText(2), QStringLiteral("not collected"));
        QVERIFY(!bars.bars()[2].percent.has_value());
        bars.clear();
        QVERIFY(!bars.hasValues());
    }

    // A full bar and an empty one differ where the bar is drawn.
    void paintsTheBarsToScale()
    {
        SpeedOfLightBars bars;
        SpeedOfLight sol;
        sol.computePercent = 100.0;
        sol.memoryPercent = 0.0;
        bars.setSpeedOfLight(sol);
        bars.resize(400, bars.sizeHint().height());
        QImage image(bars.size(), QImage::Format_ARGB32);
        image.fill(Qt::white);
        bars.render(&image);
        const int rowHeight = bars.sizeHint().height() / 5;
        const QColor full = image.pixelColor(250, rowHeight / 2 + 2);
        const QColor empty = image.pixelColor(250, rowHeight + rowHeight / 2 + 4);
        QVERIFY2(full != empty, qPrintable(full.name() + QLatin1Char(' ') + empty.name()));
    }
};

CUWB_TEST_MAIN(TestSpeedOfLightBars)
} // namespace tst_speedoflightbars
} // namespace

#include "tst_speedoflightbars.moc"
