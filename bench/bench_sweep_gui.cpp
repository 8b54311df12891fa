// bench_sweep_gui: the Sweep dock's responsiveness while a sweep streams in, for
// docs/benchmarks.md. Runs offscreen. A SweepPanel (editor, charts and table, 1600×520) is
// shown and 1,000 synthetic points are delivered through the SweepController's signals, as
// the sweep thread delivers them (queued, one event each), at the rate a real sweep produces
// them: one point every 25 ms by default (the H200 measured 21–29 ms a point at 20 samples,
// docs/results/h200-sweep/). A 1 ms timer on the GUI thread records the gaps between its
// ticks: how long the event loop could not run. Scenarios:
//   1-D   block.x = 1 … 1000 (one line of 1,000 points, 1,000 table rows)
//   2-D   block.x (40 values) × -DTILE (25 values): 25 series
//   burst the 1-D sweep delivered all at once (the worst case: skipped points arrive so)
// Usage: bench_sweep_gui [INTERVAL_MS [POINTS [1d|2d|burst]]]
#include "gui/sweep/sweepcontroller.h"
#include "gui/sweep/sweeppanel.h"
#include "gui/sweep/sweepresultsview.h"
#include "gui/sweep/sweeptablemodel.h"
#include "gui/workspace/workspace.h"

#include "../tests/gui/sweeptestdata.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

using namespace cuwb;

namespace {

template <typename Predicate> bool waitFor(Predicate done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// The longest gaps between 1 ms timer ticks: how long the GUI thread could not process events.
class StallWatchdog : public QObject
{
public:
    StallWatchdog()
    {
        m_timer.setInterval(1);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            const double now = m_clock.nsecsElapsed() / 1e6;
            m_gaps.push_back(now - m_last);
            m_last = now;
        });
    }
    void start()
    {
        m_gaps.clear();
        m_clock.start();
        m_last = 0.0;
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    [[nodiscard]] std::vector<double> longest(std::size_t n) const
    {
        std::vector<double> gaps = m_gaps;
        std::sort(gaps.begin(), gaps.end(), std::greater<>());
        gaps.resize(std::min(n, gaps.size()));
        return gaps;
    }
    [[nodiscard]] int over(double ms) const
    {
        return int(std::count_if(m_gaps.begin(), m_gaps.end(), [ms](double g) { return g > ms; }));
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_last = 0.0;
    std::vector<double> m_gaps;
};

SweepResult oneDimensional(int points)
{
    SweepResult result;
    result.spec.axes = {testdata::blockAxis("block.x", AxisValues::Range, 1, points, 1)};
    for (int block = 1; block <= points; ++block) {
        const double gbps = testdata::copyGBps(block) * (1.0 + 0.015 * std::sin(block * 0.37));
        result.points.push_back(testdata::copyPoint({{"block.x", std::to_string(block)}}, block,
                                                    double(1 << 26), gbps));
    }
    return testdata::withHeader(std::move(result));
}

SweepResult twoDimensional(int points)
{
    SweepResult result;
    const int tiles = 25;
    const int blocks = std::max(1, points / tiles);
    SweepAxis tile;
    tile.target = "-DTILE";
    for (int t = 1; t <= tiles; ++t)
        tile.values.push_back(std::to_string(t));
    result.spec.axes = {testdata::blockAxis("block.x", AxisValues::Range, 32, 32 * blocks, 32),
                        tile};
    for (int b = 1; b <= blocks; ++b) {
        for (int t = 1; t <= tiles; ++t) {
            const int block = 32 * b;
            const double gbps = std::min(testdata::kCeilingGBps * 0.95,
                                         testdata::copyGBps(block) * (1.0 + 0.02 * t));
            result.points.push_back(testdata::copyPoint(
                {{"block.x", std::to_string(block)}, {"-DTILE", std::to_string(t)}}, block,
                double(1 << 26), gbps));
        }
    }
    return testdata::withHeader(std::move(result));
}

struct Outcome
{
    double wallMs = 0.0;
    std::vector<double> longest;
    int over16 = 0;
    int rows = 0;
};

// Shows the sweep's skeleton, then delivers its points every `intervalMs` (all at once when
// 0), as queued events from the controller, and waits until the last is drawn.
Outcome stream(SweepController &controller, SweepPanel &panel, const SweepResult &sweep,
               int intervalMs)
{
    SweepResult skeleton = sweep;
    for (SweepPointResult &p : skeleton.points) {
        p.status = PointStatus::Pending;
        p.measurement.reset();
        p.metrics.reset();
    }
    Q_EMIT controller.sweepStarted(skeleton);
    waitFor([] { return false; }, 300);

    StallWatchdog watchdog;
    QElapsedTimer clock;
    clock.start();
    watchdog.start();
    const std::size_t total = sweep.points.size();
    std::size_t next = 0;
    const auto deliver = [&](std::size_t k) {
        SweepProgress progress;
        progress.done = k + 1;
        progress.total = total;
        progress.measured = k + 1;
        progress.elapsedSeconds = clock.nsecsElapsed() / 1e9;
        progress.secondsLeft = double(total - k - 1) * intervalMs / 1000.0;
        // Queued, as the sweep thread's signals arrive.
        QMetaObject::invokeMethod(
            &controller,
            [&controller, point = sweep.points[k], progress] {
                Q_EMIT controller.pointFinished(point, progress);
            },
            Qt::QueuedConnection);
    };
    QTimer pacer;
    pacer.setTimerType(Qt::PreciseTimer);
    if (intervalMs > 0) {
        pacer.setInterval(intervalMs);
        QObject::connect(&pacer, &QTimer::timeout, &pacer, [&] {
            if (next < total)
                deliver(next++);
            else
                pacer.stop();
        });
        pacer.start();
    } else {
        for (; next < total; ++next)
            deliver(next);
    }
    SweepTableModel *table = panel.sweepResultsView()->tableModel();
    const int status = table->column(SweepTableModel::StatusColumn);
    const int last = int(total) - 1;
    waitFor(
        [&] {
            return next == total &&
                   table->index(last, status).data().toString() == QStringLiteral("measured");
        },
        600000);
    waitFor([] { return false; }, 200); // the last redraw
    watchdog.stop();
    Outcome outcome;
    outcome.wallMs = clock.nsecsElapsed() / 1e6;
    outcome.longest = watchdog.longest(5);
    outcome.over16 = watchdog.over(16.0);
    outcome.rows = table->rowCount();
    Q_EMIT controller.sweepFinished(sweep);
    waitFor([] { return false; }, 300);
    return outcome;
}

// What one redraw costs once the sweep is on screen: the data update of one point
// (SweepResultsView::setPoints: builder, table, series) and the events that follow it (the charts'
// layout and the repaint), each the median of `repeats`.
std::pair<double, double> redrawCost(SweepPanel &panel, const SweepResult &sweep, int repeats)
{
    std::vector<double> update;
    std::vector<double> paint;
    for (int k = 0; k < repeats; ++k) {
        // A new figure for a point in the middle, as a sweep measured again would give.
        SweepPointResult point = sweep.points[sweep.points.size() / 2 + std::size_t(k % 2)];
        point.measurement->statistics.medianNs *= 1.0 + 0.01 * (k + 1);
        QElapsedTimer clock;
        clock.start();
        panel.sweepResultsView()->setPoints({point});
        update.push_back(clock.nsecsElapsed() / 1e6);
        // Qt Charts lays out the changed series and the scene repaints them in events of
        // their own: all of it is what the event loop spends after the update.
        clock.restart();
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        paint.push_back(clock.nsecsElapsed() / 1e6);
    }
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    return {median(update), median(paint)};
}

QString gapsText(const std::vector<double> &gaps)
{
    QStringList text;
    for (double gap : gaps)
        text << QString::number(gap, 'f', 1);
    return text.join(QStringLiteral(", "));
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir settingsDir;
    QCoreApplication::setOrganizationName(QStringLiteral("cuwb-bench"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());

    const int intervalMs = argc > 1 ? std::max(0, std::atoi(argv[1])) : 25;
    const int points = argc > 2 ? std::max(10, std::atoi(argv[2])) : 1000;
    const QString only = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString();

    SweepController controller; // never started: the bench delivers the points itself
    Workspace workspace;
    SweepPanel panel(&controller, &workspace);
    panel.resize(1600, 520);
    panel.show();
    waitFor([] { return false; }, 500);

    struct Scenario
    {
        const char *id;
        const char *name;
        SweepResult sweep;
        int intervalMs;
    };
    const Scenario scenarios[] = {
        {"1d", "1-D: block.x = 1 … N", oneDimensional(points), intervalMs},
        {"2d", "2-D: block.x × -DTILE (25 series)", twoDimensional(points), intervalMs},
        {"burst", "burst: the 1-D sweep at once", oneDimensional(points), 0},
    };
    std::printf("bench_sweep_gui: %d points streamed into the Sweep dock (offscreen, 1600x520), "
                "one every %d ms\n\n",
                points, intervalMs);
    std::printf("| scenario | points | wall | longest gaps (ms) | gaps over 16 ms |\n"
                "|---|---:|---:|---|---:|\n");
    std::vector<std::pair<const char *, std::pair<double, double>>> costs;
    for (const Scenario &s : scenarios) {
        if (!only.isEmpty() && only != QLatin1String(s.id))
            continue;
        const Outcome o = stream(controller, panel, s.sweep, s.intervalMs);
        std::printf("| %s | %d | %.1f s | %s | %d |\n", s.name, o.rows, o.wallMs / 1000.0,
                    qPrintable(gapsText(o.longest)), o.over16);
        std::fflush(stdout);
        costs.push_back({s.name, redrawCost(panel, s.sweep, 21)});
    }
    std::printf(
        "\n| scenario, all points shown | one point's data update | layout and repaint after it |\n"
        "|---|---:|---:|\n");
    for (const auto &[name, cost] : costs)
        std::printf("| %s | %.2f ms | %.1f ms |\n", name, cost.first, cost.second);
    return 0;
}
