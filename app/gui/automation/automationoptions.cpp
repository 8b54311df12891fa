#include "gui/automation/automationoptions.h"

#include "gui/automation/comparescreenshotrunner.h"
#include "gui/automation/inspectscreenshotrunner.h"
#include "gui/automation/lessonscreenshotrunner.h"
#include "gui/automation/screenshotrunner.h"
#include "gui/automation/sessionscript.h"
#include "gui/automation/sweepscreenshotrunner.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/recovery/autosavecontroller.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRect>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

namespace cuwb {

struct AutomationOptions::Options
{
    Options();
    QCommandLineOption screenshotOption;
    QCommandLineOption sizeOption;
    QCommandLineOption screenOption;
    QCommandLineOption cursorOption;
    QCommandLineOption runOption;
    QCommandLineOption measureOption;
    QCommandLineOption metricsOption;
    QCommandLineOption rooflineOption;
    QCommandLineOption sweepOption;
    QCommandLineOption presetOption;
    QCommandLineOption sweepGpusOption;
    QCommandLineOption openSweepOption;
    QCommandLineOption baselineOption;
    QCommandLineOption sweepPageOption;
    QCommandLineOption lessonOption;
    QCommandLineOption predictOption;
    QCommandLineOption reportOption;
    QCommandLineOption inspectOption;
    QCommandLineOption inspectResultOption;
    QCommandLineOption compareOption;
    QCommandLineOption compareAOption;
    QCommandLineOption compareBOption;
    QCommandLineOption compareResultOption;
    QCommandLineOption scriptRecoveryOption;
    QCommandLineOption scriptTypeOption;
    QCommandLineOption scriptEditProjectOption;
    QCommandLineOption scriptReportOption;
};

AutomationOptions::Options::Options()
    : screenshotOption(
          QStringLiteral("screenshot"),
          QObject::tr(
              "Render the main window to a PNG once the first compile is shown, then exit."),
          QStringLiteral("file.png"))
    , sizeOption(QStringLiteral("size"), QObject::tr("Window size for the screenshot."),
                 QStringLiteral("WxH"), QStringLiteral("1600x1000"))
    , screenOption(
          QStringLiteral("screen"),
          QObject::tr("With --screenshot: lay the window out as a first start does on a screen "
                      "whose free area is WxH (instead of --size)."),
          QStringLiteral("WxH"))
    , cursorOption(
          QStringLiteral("cursor-line"),
          QObject::tr("Put the cursor on this source line (shows its PTX) before the screenshot."),
          QStringLiteral("line"))
    , runOption(
          QStringLiteral("run"),
          QObject::tr("With --screenshot: run the launch once the first compile is shown, and "
                      "take the screenshot when its result and first values are on screen."))
    , measureOption(
          QStringLiteral("measure"),
          QObject::tr("With --screenshot: measure the launch once the first compile is shown, and "
                      "take the screenshot when the Measurement dock shows the result card and "
                      "histogram. Exits 1 with a message when the measurement cannot run or "
                      "stops on a fault."))
    , metricsOption(
          QStringLiteral("metrics"),
          QObject::tr("With --measure: collect the hardware metrics (a separate, untimed pass) "
                      "after the timing and wait for them too."))
    , rooflineOption(
          QStringLiteral("roofline"),
          QObject::tr("With --measure: the metrics pass also collects speed of light and the "
                      "roofline's metrics (implies --metrics); the Measurement dock shows them on "
                      "its Roofline tab."))
    , sweepOption(
          QStringLiteral("sweep"),
          QObject::tr("With --screenshot: run the project's sweep (or --preset) once its kernel is "
                      "compiled, and take the screenshot when the Sweep dock shows the finished "
                      "sweep's chart and table. Exits 1 with a message when the sweep cannot run, "
                      "measures nothing or does not finish in time."))
    , presetOption(QStringLiteral("preset"),
                   QObject::tr("With --sweep: sweep this preset instead of the project's sweep: "
                               "block-32-step-32 or block-pow2."),
                   QStringLiteral("id"))
    , sweepGpusOption(
          QStringLiteral("sweep-gpus"),
          QObject::tr("With --sweep: the Sweep dock's choice of GPUs, as the dock remembers it: "
                      "this, all or a list such as 0,1 (it applies when the machine has more "
                      "than one GPU)."),
          QStringLiteral("gpus"))
    , openSweepOption(
          QStringLiteral("open-sweep"),
          QObject::tr("With --screenshot: show this stored sweep result (cuwb sweep --json) in the "
                      "Sweep dock and take the screenshot."),
          QStringLiteral("result.json"))
    , baselineOption(
          QStringLiteral("baseline"),
          QObject::tr("With --open-sweep: draw this stored result beside it as the baseline."),
          QStringLiteral("other.json"))
    , sweepPageOption(
          QStringLiteral("sweep-page"),
          QObject::tr("With --sweep or --open-sweep: the chart to capture: time, bandwidth (with "
                      "occupancy), heatmap or roofline (with --sweep, roofline also turns the "
                      "sweep's Roofline metrics on)."),
          QStringLiteral("page"))
    , lessonOption(
          QStringLiteral("lesson"),
          QObject::tr(
              "With --screenshot: fill in the project's lesson predictions (--predict), run "
              "the lesson's experiment once its kernel is compiled, and take the screenshot "
              "when the Lesson dock shows the measurement beside each prediction. Exits 1 "
              "with a message when the experiment cannot run or measures nothing."))
    , predictOption(
          QStringLiteral("predict"),
          QObject::tr("With --lesson: the prediction for ID (repeatable), e.g. best-block=256."),
          QStringLiteral("id=value"))
    , reportOption(QStringLiteral("report"),
                   QObject::tr("With --lesson: also write the lab report (HTML) to this file."),
                   QStringLiteral("report.html"))
    , inspectOption(
          QStringLiteral("inspect"),
          QObject::tr("With --screenshot: inspect the launch once the first compile is shown "
                      "(counters per instruction and where the warps wait, on the GPU), and take "
                      "the screenshot when the editor, the Inspect dock and the SASS tab show it. "
                      "Exits 1 with a message when the inspection fails or is refused."))
    , inspectResultOption(
          QStringLiteral("inspect-result"),
          QObject::tr("With --screenshot: show this recorded inspection (cuwb inspect --json) on "
                      "the project's source, as --inspect would, without a GPU."),
          QStringLiteral("result.json"))
    , compareOption(
          QStringLiteral("compare"),
          QObject::tr("With --screenshot: compare the project with this one (B), each measured, "
                      "profiled and inspected on the GPU, and take the screenshot when the "
                      "Compare dock shows them. Exits 1 when a side could not be collected."),
          QStringLiteral("B.cuwb"))
    , compareAOption(QStringLiteral("compare-a"),
                     QObject::tr("With --screenshot: side A from recorded files, comma-separated "
                                 "(cuwb measure --json, cuwb inspect --json), without a GPU."),
                     QStringLiteral("files"))
    , compareBOption(QStringLiteral("compare-b"), QObject::tr("The same for side B."),
                     QStringLiteral("files"))
    , compareResultOption(
          QStringLiteral("compare-result"),
          QObject::tr("With --screenshot: both sides' measurements from cuwb compare --json "
                      "(with --compare-a/--compare-b for their inspections)."),
          QStringLiteral("compare.json"))
    , scriptRecoveryOption(QStringLiteral("script-recovery"),
                           QObject::tr("Answer the restore offer with restore, discard or later."),
                           QStringLiteral("answer"))
    , scriptTypeOption(QStringLiteral("script-type"),
                       QObject::tr("Type this text at the end of the current buffer once started."),
                       QStringLiteral("text"))
    , scriptEditProjectOption(
          QStringLiteral("script-edit-project"),
          QObject::tr("Edit the open project's launch, options and sweep once it is compiled."))
    , scriptReportOption(
          QStringLiteral("script-report"),
          QObject::tr("Write what the window shows, as JSON, to this file once started."),
          QStringLiteral("file.json"))
{
    // Hidden: the session script of tests that run this program and kill it (SessionScript).
    for (QCommandLineOption *option : {&scriptRecoveryOption, &scriptTypeOption,
                                       &scriptEditProjectOption, &scriptReportOption}) {
        option->setFlags(QCommandLineOption::HiddenFromHelp);
    }
}

AutomationOptions::AutomationOptions()
    : m_o(std::make_unique<Options>())
{}

AutomationOptions::~AutomationOptions() = default;

void AutomationOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions({m_o->screenshotOption,    m_o->sizeOption,
                       m_o->screenOption,        m_o->cursorOption,
                       m_o->runOption,           m_o->measureOption,
                       m_o->metricsOption,       m_o->sweepOption,
                       m_o->presetOption,        m_o->openSweepOption,
                       m_o->baselineOption,      m_o->sweepPageOption,
                       m_o->lessonOption,        m_o->predictOption,
                       m_o->reportOption,        m_o->inspectOption,
                       m_o->inspectResultOption, m_o->compareOption,
                       m_o->compareAOption,      m_o->compareBOption,
                       m_o->compareResultOption, m_o->rooflineOption,
                       m_o->sweepGpusOption,     m_o->scriptRecoveryOption,
                       m_o->scriptTypeOption,    m_o->scriptEditProjectOption,
                       m_o->scriptReportOption});
}

QString AutomationOptions::check(const QCommandLineParser &parser)
{
    m_parser = &parser;
    QString problem = checkActions(parser);
    if (problem.isEmpty())
        problem = checkLessonAndSweep(parser);
    if (problem.isEmpty())
        problem = checkGeometry(parser);
    return problem;
}

// What to do before the screenshot: run, measure, inspect or compare, and the session script.
QString AutomationOptions::checkActions(const QCommandLineParser &parser)
{
    m_screenshotPath = parser.value(m_o->screenshotOption);
    m_scripted = parser.isSet(m_o->scriptRecoveryOption) || parser.isSet(m_o->scriptTypeOption) ||
                 parser.isSet(m_o->scriptEditProjectOption) ||
                 parser.isSet(m_o->scriptReportOption);
    if (m_scripted && !m_screenshotPath.isEmpty()) {
        return QObject::tr("--script-recovery, --script-type, --script-edit-project and "
                           "--script-report drive an interactive window: leave out "
                           "--screenshot");
    }
    if (parser.isSet(m_o->measureOption) && m_screenshotPath.isEmpty()) {
        return QObject::tr("--measure needs --screenshot FILE");
    }
    if (parser.isSet(m_o->runOption) && parser.isSet(m_o->measureOption)) {
        return QObject::tr("choose one of --run and --measure");
    }
    if (parser.isSet(m_o->metricsOption) && !parser.isSet(m_o->measureOption)) {
        return QObject::tr("--metrics needs --measure");
    }
    if (parser.isSet(m_o->rooflineOption) && !parser.isSet(m_o->measureOption)) {
        return QObject::tr("--roofline needs --measure");
    }
    m_sweep = parser.isSet(m_o->sweepOption);
    m_openSweep = parser.isSet(m_o->openSweepOption);
    m_lesson = parser.isSet(m_o->lessonOption);
    m_inspect = parser.isSet(m_o->inspectOption) || parser.isSet(m_o->inspectResultOption);
    if (m_inspect) {
        if (m_screenshotPath.isEmpty()) {
            return QObject::tr("--inspect and --inspect-result need --screenshot FILE");
        }
        if (parser.isSet(m_o->inspectOption) && parser.isSet(m_o->inspectResultOption)) {
            return QObject::tr("choose one of --inspect and --inspect-result");
        }
        if (m_sweep || m_openSweep || m_lesson || parser.isSet(m_o->runOption) ||
            parser.isSet(m_o->measureOption)) {
            return QObject::tr("--inspect and --inspect-result leave out --run, --measure, "
                               "--sweep, --open-sweep and --lesson");
        }
        if (parser.positionalArguments().isEmpty()) {
            return QObject::tr("--inspect needs a project: cuda-workbench --inspect "
                               "--screenshot FILE PROJECT.cuwb");
        }
    }
    m_compareRecorded = parser.isSet(m_o->compareAOption) || parser.isSet(m_o->compareBOption) ||
                        parser.isSet(m_o->compareResultOption);
    m_compare = parser.isSet(m_o->compareOption) || m_compareRecorded;
    if (m_compare) {
        if (m_screenshotPath.isEmpty()) {
            return QObject::tr("--compare and --compare-a/-b/-result need --screenshot FILE");
        }
        if (parser.isSet(m_o->compareOption) && m_compareRecorded) {
            return QObject::tr("choose one of --compare and the recorded --compare-a/-b");
        }
        if (m_inspect || m_sweep || m_openSweep || m_lesson || parser.isSet(m_o->runOption) ||
            parser.isSet(m_o->measureOption)) {
            return QObject::tr("--compare leaves out --inspect, --run, --measure, --sweep, "
                               "--open-sweep and --lesson");
        }
        if (parser.positionalArguments().isEmpty()) {
            return QObject::tr("--compare needs a project: cuda-workbench --compare B.cuwb "
                               "--screenshot FILE A.cuwb");
        }
    }
    return QString();
}

QString AutomationOptions::checkLessonAndSweep(const QCommandLineParser &parser)
{
    if (m_lesson) {
        if (m_screenshotPath.isEmpty()) {
            return QObject::tr("--lesson needs --screenshot FILE");
        }
        if (m_sweep || m_openSweep || parser.isSet(m_o->runOption) ||
            parser.isSet(m_o->measureOption)) {
            return QObject::tr("--lesson runs the m_lesson's own experiment: leave out --run, "
                               "--measure, --sweep and --open-sweep");
        }
        if (parser.positionalArguments().isEmpty()) {
            return QObject::tr("--lesson needs a project: cuda-workbench --lesson --screenshot "
                               "FILE PROJECT.cuwb");
        }
        for (const QString &value : parser.values(m_o->predictOption)) {
            const qsizetype equals = value.indexOf(QLatin1Char('='));
            if (equals <= 0) {
                return QObject::tr("--predict expects ID=VALUE, not '%1'").arg(value);
            }
            m_predictions.append({value.left(equals), value.mid(equals + 1)});
        }
    } else if (parser.isSet(m_o->predictOption) || parser.isSet(m_o->reportOption)) {
        return QObject::tr("--predict and --report need --lesson");
    }
    if ((m_sweep || m_openSweep) && m_screenshotPath.isEmpty()) {
        return m_sweep ? QObject::tr("--sweep needs --screenshot FILE")
                       : QObject::tr("--open-sweep needs --screenshot FILE");
    }
    if (int(m_sweep) + int(m_openSweep) + int(parser.isSet(m_o->runOption)) +
            int(parser.isSet(m_o->measureOption)) >
        1) {
        return QObject::tr("choose one of --run, --measure, --sweep and --open-sweep");
    }
    if (parser.isSet(m_o->presetOption) && !m_sweep) {
        return QObject::tr("--preset needs --sweep");
    }
    if (parser.isSet(m_o->sweepGpusOption) && !m_sweep) {
        return QObject::tr("--sweep-gpus needs --sweep");
    }
    if (parser.isSet(m_o->sweepPageOption)) {
        if (!m_sweep && !m_openSweep) {
            return QObject::tr("--sweep-page needs --sweep or --open-sweep");
        }
        if (!SweepScreenshotRunner::pageNames().contains(parser.value(m_o->sweepPageOption))) {
            return QObject::tr("--sweep-page takes %1, not '%2'")
                .arg(SweepScreenshotRunner::pageNames().join(QStringLiteral(", ")),
                     parser.value(m_o->sweepPageOption));
        }
    }
    if (parser.isSet(m_o->baselineOption) && !m_openSweep) {
        return QObject::tr("--baseline needs --open-sweep");
    }
    if (m_sweep && parser.positionalArguments().isEmpty()) {
        return QObject::tr("--sweep needs a project: cuda-workbench --sweep --screenshot "
                           "FILE PROJECT.cuwb");
    }
    return QString();
}

// The window's size, the screen a first start lays it out for, the cursor's line.
QString AutomationOptions::checkGeometry(const QCommandLineParser &parser)
{
    // WIDTHxHEIGHT, or an empty size when malformed.
    const auto parseSize = [](const QString &text) {
        static const QRegularExpression sizePattern(QStringLiteral("^(\\d+)[xX](\\d+)$"));
        const QRegularExpressionMatch match = sizePattern.match(text);
        if (!match.hasMatch() || match.captured(1).toInt() < 200 || match.captured(2).toInt() < 150)
            return QSize();
        return QSize(match.captured(1).toInt(), match.captured(2).toInt());
    };
    if (parser.isSet(m_o->sizeOption)) {
        const QSize size = parseSize(parser.value(m_o->sizeOption));
        if (size.isEmpty()) {
            return QObject::tr("--size expects WIDTHxHEIGHT, e.g. 1600x1000");
        }
        m_size = size;
    }
    if (parser.isSet(m_o->screenOption)) {
        m_screen = parseSize(parser.value(m_o->screenOption));
        if (m_screen.isEmpty() || m_screenshotPath.isEmpty()) {
            return QObject::tr("--screen expects WIDTHxHEIGHT, e.g. 1366x768, and "
                               "--screenshot FILE");
        }
    }
    if (parser.isSet(m_o->cursorOption)) {
        bool ok = false;
        m_cursorLine = parser.value(m_o->cursorOption).toInt(&ok);
        if (!ok || m_cursorLine < 1) {
            return QObject::tr("--cursor-line expects a line number from 1");
        }
    }

    return QString();
}

void AutomationOptions::isolate(MainWindow::Settings &settings)
{
    settings.restoreLayout = !screenshot();
    settings.prompts = !screenshot();
    settings.runDocksFirst = m_parser->isSet(m_o->runOption);
    if (!screenshot())
        return;
    m_scratch = std::make_unique<QTemporaryDir>();
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_scratch->path());
    // Read by the Sweep dock when the window is made (SweepDeviceBox).
    if (m_parser->isSet(m_o->sweepGpusOption))
        QSettings().setValue(QStringLiteral("sweep/gpus"), m_parser->value(m_o->sweepGpusOption));
    // Its measurements and sweeps go to the scratch folder's history; it leaves no autosaves
    // behind and offers none.
    settings.historyPath = m_scratch->filePath(QStringLiteral("history.sqlite"));
    settings.autosaveRoot.clear();
}

QString AutomationOptions::attach(MainWindow &window)
{
    if (!m_scripted)
        return QString();
    const QCommandLineParser &parser = *m_parser;
    m_script = std::make_unique<SessionScript>(&window);
    if (parser.isSet(m_o->scriptRecoveryOption) &&
        !m_script->setRecoveryAnswer(parser.value(m_o->scriptRecoveryOption))) {
        return QObject::tr("--script-recovery takes restore, discard or later, not '%1'")
            .arg(parser.value(m_o->scriptRecoveryOption));
    }
    m_script->setTypedText(parser.value(m_o->scriptTypeOption));
    m_script->setEditProject(parser.isSet(m_o->scriptEditProjectOption));
    m_script->setReportPath(parser.value(m_o->scriptReportOption));
    return QString();
}

namespace {

// Starts `runner`, which ends the application with its exit code when it is done.
template <typename Runner> std::unique_ptr<QObject> started(std::unique_ptr<Runner> runner)
{
    QObject::connect(runner.get(), &Runner::finished, QCoreApplication::instance(),
                     [](int code) { QCoreApplication::exit(code); });
    runner->start();
    return runner;
}

} // namespace

void AutomationOptions::start(MainWindow &window)
{
    const QCommandLineParser &parser = *m_parser;
    if (m_compare || m_inspect || m_lesson || m_sweep || m_openSweep ||
        (screenshot() && m_screen.isEmpty()))
        window.resize(m_size);
    if (m_compare) {
        using Mode = CompareScreenshotRunner::Mode;
        auto runner = std::make_unique<CompareScreenshotRunner>(
            &window, m_screenshotPath, m_compareRecorded ? Mode::Open : Mode::Run);
        runner->setProjectB(parser.value(m_o->compareOption));
        const auto files = [&parser](const QCommandLineOption &option) {
            return parser.value(option).split(QLatin1Char(','), Qt::SkipEmptyParts);
        };
        runner->setRecorded(files(m_o->compareAOption), files(m_o->compareBOption),
                            parser.value(m_o->compareResultOption));
        m_runner = started(std::move(runner));
    } else if (m_inspect) {
        using Mode = InspectScreenshotRunner::Mode;
        auto runner = std::make_unique<InspectScreenshotRunner>(
            &window, m_screenshotPath, parser.isSet(m_o->inspectOption) ? Mode::Run : Mode::Open);
        runner->setResultFile(parser.value(m_o->inspectResultOption));
        runner->setCursorLine(m_cursorLine);
        m_runner = started(std::move(runner));
    } else if (m_lesson) {
        auto runner = std::make_unique<LessonScreenshotRunner>(&window, m_screenshotPath);
        runner->setPredictions(m_predictions);
        runner->setReportPath(parser.value(m_o->reportOption));
        m_runner = started(std::move(runner));
    } else if (m_sweep || m_openSweep) {
        using Mode = SweepScreenshotRunner::Mode;
        auto runner = std::make_unique<SweepScreenshotRunner>(&window, m_screenshotPath,
                                                              m_sweep ? Mode::Run : Mode::Open);
        runner->setPreset(parser.value(m_o->presetOption));
        runner->setResultFiles(parser.value(m_o->openSweepOption),
                               parser.value(m_o->baselineOption));
        runner->setPage(parser.value(m_o->sweepPageOption));
        m_runner = started(std::move(runner));
    } else if (screenshot()) {
        if (!m_screen.isEmpty())
            window.applyDefaultLayout(QRect(QPoint(0, 0), m_screen));
        using Action = ScreenshotRunner::Action;
        const Action action = parser.isSet(m_o->measureOption) ? Action::Measure
                              : parser.isSet(m_o->runOption)   ? Action::Run
                                                               : Action::None;
        auto runner =
            std::make_unique<ScreenshotRunner>(&window, m_screenshotPath, m_cursorLine, action);
        runner->setCollectMetrics(parser.isSet(m_o->metricsOption) ||
                                  parser.isSet(m_o->rooflineOption));
        runner->setRooflineMetrics(parser.isSet(m_o->rooflineOption));
        m_runner = started(std::move(runner));
    } else if (m_cursorLine > 0) {
        const int line = m_cursorLine;
        QObject::connect(&window, &MainWindow::resultShown, &window, [&window, line] {
            static bool placed = false;
            if (!placed && window.currentDocument())
                window.currentDocument()->editor()->goToLocation(line, 1);
            placed = true;
        });
    }
}

void AutomationOptions::shown(MainWindow &window)
{
    if (!m_script)
        return;
    m_script->start();
    SessionScript *script = m_script.get();
    const auto next = [script] {
        const QString error = script->recoveryChecked();
        if (!error.isEmpty()) {
            std::fprintf(stderr, "cuda-workbench: %s\n", qPrintable(error));
            QCoreApplication::exit(1);
        }
    };
    if (AutosaveController *autosave = window.autosaveController())
        QObject::connect(autosave, &AutosaveController::recoveryChecked, &window, next);
    else
        QTimer::singleShot(0, &window, next);
}

void AutomationOptions::finish()
{
    m_runner.reset();
    m_script.reset();
}

} // namespace cuwb
