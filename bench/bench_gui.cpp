// bench_gui: the workbench's responsiveness, for docs/benchmarks.md. Runs offscreen.
//   - cold start: MainWindow constructed and shown to its first paint (in process), and the
//     whole cuda-workbench process from exec to a written screenshot (includes one compile);
//   - typing pause to diagnostics on screen: from the moment the 400 ms debounce fires (the
//     end of the pause) to the diagnostic being shown, median over several distinct edits
//     (each edit is new source, so no compile is served from the cache);
//   - the longest GUI event-loop stall while those compiles run, from a 1 ms watchdog timer;
//   - idle memory (VmRSS) with the sample loaded.
#include "gui/compile/compilecontroller.h"
#include "gui/compile/problemsmodel.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/shell/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace cuwb;

namespace {

// Waits in the event loop until done() or the timeout; returns done().
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

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

long residentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    }
    return -1;
}

// Records the longest gap between 1 ms timer ticks: how long the GUI thread was unable to
// process events.
class StallWatchdog : public QObject
{
public:
    StallWatchdog()
    {
        m_timer.setInterval(1);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            const double now = m_clock.nsecsElapsed() / 1e6;
            const double gap = now - m_last;
            m_last = now;
            if (m_running) {
                m_longest = std::max(m_longest, gap);
                m_gaps.push_back(gap);
                if (gap > 16.0)
                    ++m_over16;
            }
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0.0;
        m_running = true;
        m_timer.start();
    }
    void stop()
    {
        m_running = false;
        m_timer.stop();
    }
    [[nodiscard]] double longestMs() const { return m_longest; }
    [[nodiscard]] int over16() const { return m_over16; }
    // The n longest gaps, longest first: one outlier reads differently from a pattern.
    [[nodiscard]] std::vector<double> longest(std::size_t n) const
    {
        std::vector<double> gaps = m_gaps;
        std::sort(gaps.begin(), gaps.end(), std::greater<>());
        gaps.resize(std::min(n, gaps.size()));
        return gaps;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_last = 0.0;
    double m_longest = 0.0;
    std::vector<double> m_gaps;
    int m_over16 = 0;
    bool m_running = false;
};

class FirstPaint : public QObject
{
public:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && !m_painted) {
            m_painted = true;
            m_ms = m_clock->nsecsElapsed() / 1e6;
        }
        return QObject::eventFilter(watched, event);
    }
    QElapsedTimer *m_clock = nullptr;
    bool m_painted = false;
    double m_ms = 0.0;
};

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

    const QString sample = QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu");
    const int edits = argc > 1 ? std::max(3, std::atoi(argv[1])) : 9;

    // Cold start, in process: construct, show, first paint.
    QElapsedTimer startClock;
    FirstPaint firstPaint;
    firstPaint.m_clock = &startClock;
    app.installEventFilter(&firstPaint);
    startClock.start();
    MainWindow::Settings settings;
    settings.restoreLayout = false;
    settings.prompts = false;
    MainWindow window(settings);
    window.resize(1600, 1000);
    Document *document = window.openPath(sample);
    window.show();
    if (!waitFor([&] { return firstPaint.m_painted; }, 10000) || !document) {
        std::fprintf(stderr, "bench_gui: the window never painted or the sample did not open\n");
        return 1;
    }
    app.removeEventFilter(&firstPaint);
    bool firstResult = false;
    QObject::connect(&window, &MainWindow::resultShown, &window, [&] { firstResult = true; });
    waitFor([&] { return firstResult || document->hasResult(); }, 30000);
    const double firstResultMs = startClock.nsecsElapsed() / 1e6;
    waitFor([] { return false; }, 300); // settle

    // Typing pause to diagnostics on screen.
    SourceEditor *editor = document->editor();
    CompileController *controller = window.compileController();
    int line = -1;
    for (int l = 0; l < editor->lines(); ++l) {
        if (editor->text(l).contains(QStringLiteral("if (i < n)")))
            line = l;
    }
    if (line < 0) {
        std::fprintf(stderr, "bench_gui: the sample has no 'if (i < n)' line\n");
        return 1;
    }
    const int column = static_cast<int>(editor->text(line).indexOf(QStringLiteral("n)")));

    QElapsedTimer clock;
    clock.start();
    double pauseEndMs = 0.0;
    double shownMs = 0.0;
    quint64 jobStarted = 0;
    QObject::connect(controller, &CompileController::compileStarted, &window,
                     [&](quint64 jobId, int) {
                         jobStarted = jobId;
                         pauseEndMs = clock.nsecsElapsed() / 1e6;
                     });
    QObject::connect(&window, &MainWindow::resultShown, &window,
                     [&] { shownMs = clock.nsecsElapsed() / 1e6; });

    StallWatchdog watchdog;
    std::vector<double> pauseToShown;
    std::vector<double> keyToShown;
    std::vector<double> compileMs;
    watchdog.start();
    for (int edit = 0; edit < edits; ++edit) {
        // A new identifier each time: every compile is a fresh NVRTC run.
        const QString typed = QStringLiteral("+undefined_%1").arg(edit);
        const double keyMs = clock.nsecsElapsed() / 1e6;
        shownMs = 0.0;
        editor->insertAt(typed, line, column + 1);
        const bool shown = waitFor(
            [&] {
                return shownMs > 0.0 && !controller->isBusy() && !controller->isDebouncing() &&
                       window.problemsModel()->rowCount() > 0;
            },
            30000);
        if (!shown) {
            std::fprintf(stderr, "bench_gui: edit %d never produced a diagnostic\n", edit);
            return 1;
        }
        pauseToShown.push_back(shownMs - pauseEndMs);
        keyToShown.push_back(shownMs - keyMs);
        compileMs.push_back(document->lastResult().compileTimeMs);
        // Remove the edit (not timed) and let the clean compile finish.
        editor->undo();
        waitFor(
            [&] {
                return window.problemsModel()->rowCount() == 0 && !controller->isBusy() &&
                       !controller->isDebouncing();
            },
            30000);
    }
    // Edits that compile cleanly: a full NVRTC + ptxas run, new PTX in the view.
    int bodyLine = -1;
    for (int l = 0; l < editor->lines(); ++l) {
        if (editor->text(l).contains(QStringLiteral("c[i] = a[i] + b[i];")) &&
            !editor->text(l).trimmed().startsWith(QStringLiteral("//")))
            bodyLine = l;
    }
    std::vector<double> cleanPauseToShown;
    std::vector<double> cleanCompileMs;
    if (bodyLine >= 0) {
        const int semicolon = static_cast<int>(editor->text(bodyLine).indexOf(QLatin1Char(';')));
        for (int edit = 0; edit < edits; ++edit) {
            const QString typed = QStringLiteral(" + %1.0f * a[0]").arg(edit + 2);
            shownMs = 0.0;
            editor->insertAt(typed, bodyLine, semicolon);
            const bool shown = waitFor(
                [&] {
                    return shownMs > 0.0 && !controller->isBusy() && !controller->isDebouncing();
                },
                30000);
            if (!shown || !document->lastResult().success) {
                std::fprintf(stderr, "bench_gui: clean edit %d did not compile\n", edit);
                return 1;
            }
            cleanPauseToShown.push_back(shownMs - pauseEndMs);
            cleanCompileMs.push_back(document->lastResult().compileTimeMs);
            editor->undo();
            waitFor([&] { return !controller->isBusy() && !controller->isDebouncing(); }, 30000);
            waitFor([] { return false; }, 50);
        }
    }
    watchdog.stop();
    Q_UNUSED(jobStarted)

    waitFor([] { return false; }, 500); // idle
    const long rssKiB = residentKiB();

    // A 50,000-line file of 2,500 kernels: opening it, its compile (seconds, off the GUI
    // thread) and putting its large PTX and kernel list on screen must not stall the GUI.
    QTemporaryDir largeDir;
    const QString largePath = largeDir.filePath(QStringLiteral("large50k.cu"));
    {
        QFile large(largePath);
        if (!large.open(QIODevice::WriteOnly)) {
            std::fprintf(stderr, "bench_gui: cannot write %s\n", qPrintable(largePath));
            return 1;
        }
        for (int k = 0; k < 2500; ++k) {
            large.write(QStringLiteral("extern \"C\" __global__ void k%1(float *x, int n)\n{\n"
                                       "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                       "    if (i < n)\n        x[i] = x[i] * %1.0f + 1.0f;\n}\n")
                            .arg(k)
                            .toUtf8());
            large.write(QByteArray(14, '\n'));
        }
    }
    StallWatchdog largeWatchdog;
    QElapsedTimer largeClock;
    largeClock.start();
    largeWatchdog.start();
    Document *largeDocument = window.openPath(largePath);
    const double largeOpenMs = largeClock.nsecsElapsed() / 1e6;
    const bool largeShown =
        largeDocument &&
        waitFor([&] { return largeDocument->hasResult() && !controller->isBusy(); }, 180000);
    const double largeResultMs = largeClock.nsecsElapsed() / 1e6;
    waitFor([] { return false; }, 300);
    largeWatchdog.stop();
    if (!largeShown) {
        std::fprintf(stderr, "bench_gui: the 50,000-line file never showed a result\n");
        return 1;
    }
    const int largeLines = largeDocument->editor()->lines();
    const std::size_t largeKernels = largeDocument->lastResult().kernels.size();
    const double largeCompileMs = largeDocument->lastResult().compileTimeMs;

    // Whole process: exec to a written screenshot of the sample (includes one compile).
    double processMs = -1.0;
    const QString gui = QCoreApplication::applicationDirPath() + QStringLiteral("/cuda-workbench");
    if (QFile::exists(gui)) {
        QTemporaryDir shotDir;
        QProcess process;
        QElapsedTimer processClock;
        processClock.start();
        process.start(gui, {QStringLiteral("--screenshot"),
                            shotDir.filePath(QStringLiteral("s.png")), sample});
        if (process.waitForFinished(60000) && process.exitCode() == 0)
            processMs = processClock.nsecsElapsed() / 1e6;
    }

    std::printf("bench_gui: CUDA Workbench GUI responsiveness (offscreen, %d edits of %s)\n\n",
                edits, "samples/vector_add/vector_add.cu");
    std::printf("| measurement | value |\n|---|---|\n");
    std::printf("| cold start: MainWindow constructed + sample opened to first paint | %.1f ms |\n",
                firstPaint.m_ms);
    std::printf("| cold start: to first compile result on screen | %.1f ms |\n", firstResultMs);
    if (processMs >= 0.0)
        std::printf(
            "| process exec to screenshot written (`cuda-workbench --screenshot`) | %.0f ms |\n",
            processMs);
    std::printf("| typing pause end (debounce fired) to diagnostic on screen, median | %.1f ms |\n",
                median(pauseToShown));
    std::printf("| typing pause end to diagnostic on screen, max | %.1f ms |\n",
                *std::max_element(pauseToShown.begin(), pauseToShown.end()));
    if (!cleanPauseToShown.empty()) {
        std::printf(
            "| typing pause end to clean result (PTX, kernels) on screen, median | %.1f ms |\n",
            median(cleanPauseToShown));
        std::printf("| NVRTC compile time of those clean edits, median | %.1f ms |\n",
                    median(cleanCompileMs));
    }
    std::printf(
        "| last keystroke to diagnostic on screen (incl. %d ms debounce), median | %.1f ms |\n",
        controller->debounceInterval(), median(keyToShown));
    std::printf("| NVRTC compile time of those erroneous edits, median | %.1f ms |\n",
                median(compileMs));
    std::printf("| longest GUI event-loop stall while compiling | %.1f ms |\n",
                watchdog.longestMs());
    std::printf("| event-loop stalls over 16 ms | %d |\n", watchdog.over16());
    QStringList top;
    for (double gap : watchdog.longest(5))
        top << QString::number(gap, 'f', 1);
    std::printf("| five longest event-loop gaps (ms) | %s |\n",
                qPrintable(top.join(QStringLiteral(", "))));
    std::printf("| idle memory (VmRSS) with the sample loaded | %.1f MiB |\n", rssKiB / 1024.0);
    std::printf("| %d-line file of %zu kernels: open (read + editor) | %.1f ms |\n", largeLines,
                largeKernels, largeOpenMs);
    std::printf("| same file: open to compile result on screen (NVRTC %.0f ms) | %.0f ms |\n",
                largeCompileMs, largeResultMs);
    std::printf("| same file: longest GUI event-loop gap from open to result shown | %.1f ms |\n",
                largeWatchdog.longestMs());
    QStringList largeTop;
    for (double gap : largeWatchdog.longest(5))
        largeTop << QString::number(gap, 'f', 1);
    std::printf("| same file: five longest gaps (ms) | %s |\n",
                qPrintable(largeTop.join(QStringLiteral(", "))));
    return 0;
}
