// cuda-workbench: the CUDA Workbench GUI. See --help for the command line.
#include "gui/automation/comparescreenshotrunner.h"
#include "gui/automation/inspectscreenshotrunner.h"
#include "gui/automation/lessonscreenshotrunner.h"
#include "gui/automation/screenshotrunner.h"
#include "gui/automation/sessionscript.h"
#include "gui/automation/sweepscreenshotrunner.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/sourceeditor.h"
#include "gui/history/historypanel.h"
#include "gui/recovery/autosavecontroller.h"
#include "gui/recovery/autosavestore.h"
#include "gui/shell/mainwindow.h"
#include "gui/shell/samplesmenu.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QRect>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace {

bool haveDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

void printError(const QString &message)
{
    std::fprintf(stderr, "cuda-workbench: %s\n", qPrintable(message));
}

} // namespace

int main(int argc, char *argv[])
{
    // Look for --screenshot before QApplication exists: without a display it picks the
    // offscreen platform, and an interactive start explains what to do instead of failing in
    // the platform plugin.
    bool offscreenIsEnough = false; // a screenshot, --help or --version
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        // --help and --version print and exit: they need no display either.
        if (arg == "--screenshot" || arg.startsWith("--screenshot=") || arg == "--help" ||
            arg == "-h" || arg == "--help-all" || arg == "--version" || arg == "-v")
            offscreenIsEnough = true;
    }
    if (!haveDisplay()) {
        if (offscreenIsEnough) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
        } else {
            std::fprintf(stderr,
                         "cuda-workbench: no display found (DISPLAY and WAYLAND_DISPLAY are "
                         "unset).\nRun it on a desktop, or render a screenshot offscreen:\n"
                         "  QT_QPA_PLATFORM=offscreen cuda-workbench --screenshot shot.png "
                         "FILE.cu\n");
            return 1;
        }
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("CUDA Workbench"));
    QApplication::setApplicationName(QStringLiteral("cuda-workbench"));
    QApplication::setApplicationDisplayName(QObject::tr("CUDA Workbench"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QObject::tr("CUDA Workbench: write, compile and inspect CUDA kernels."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QObject::tr("A .cu source or a .cuwb project to open."),
                                 QStringLiteral("[file]"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QObject::tr("Render the main window to a PNG once the first compile is shown, then exit."),
        QStringLiteral("file.png"));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
                                        QObject::tr("Window size for the screenshot."),
                                        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption screenOption(
        QStringLiteral("screen"),
        QObject::tr("With --screenshot: lay the window out as a first start does on a screen "
                    "whose free area is WxH (instead of --size)."),
        QStringLiteral("WxH"));
    const QCommandLineOption cursorOption(
        QStringLiteral("cursor-line"),
        QObject::tr("Put the cursor on this source line (shows its PTX) before the screenshot."),
        QStringLiteral("line"));
    const QCommandLineOption samplesOption(QStringLiteral("samples-dir"),
                                           QObject::tr("The folder of samples to list."),
                                           QStringLiteral("dir"));
    const QCommandLineOption runOption(
        QStringLiteral("run"),
        QObject::tr("With --screenshot: run the launch once the first compile is shown, and "
                    "take the screenshot when its result and first values are on screen."));
    const QCommandLineOption measureOption(
        QStringLiteral("measure"),
        QObject::tr("With --screenshot: measure the launch once the first compile is shown, and "
                    "take the screenshot when the Measurement dock shows the result card and "
                    "histogram. Exits 1 with a message when the measurement cannot run or "
                    "stops on a fault."));
    const QCommandLineOption metricsOption(
        QStringLiteral("metrics"),
        QObject::tr("With --measure: collect the hardware metrics (a separate, untimed pass) "
                    "after the timing and wait for them too."));
    const QCommandLineOption rooflineOption(
        QStringLiteral("roofline"),
        QObject::tr("With --measure: the metrics pass also collects speed of light and the "
                    "roofline's metrics (implies --metrics); the Measurement dock shows them on "
                    "its Roofline tab."));
    const QCommandLineOption sweepOption(
        QStringLiteral("sweep"),
        QObject::tr("With --screenshot: run the project's sweep (or --preset) once its kernel is "
                    "compiled, and take the screenshot when the Sweep dock shows the finished "
                    "sweep's chart and table. Exits 1 with a message when the sweep cannot run, "
                    "measures nothing or does not finish in time."));
    const QCommandLineOption presetOption(
        QStringLiteral("preset"),
        QObject::tr("With --sweep: sweep this preset instead of the project's sweep: "
                    "block-32-step-32 or block-pow2."),
        QStringLiteral("id"));
    const QCommandLineOption sweepGpusOption(
        QStringLiteral("sweep-gpus"),
        QObject::tr("With --sweep: the Sweep dock's choice of GPUs, as the dock remembers it: "
                    "this, all or a list such as 0,1 (it applies when the machine has more "
                    "than one GPU)."),
        QStringLiteral("gpus"));
    const QCommandLineOption openSweepOption(
        QStringLiteral("open-sweep"),
        QObject::tr("With --screenshot: show this stored sweep result (cuwb sweep --json) in the "
                    "Sweep dock and take the screenshot."),
        QStringLiteral("result.json"));
    const QCommandLineOption baselineOption(
        QStringLiteral("baseline"),
        QObject::tr("With --open-sweep: draw this stored result beside it as the baseline."),
        QStringLiteral("other.json"));
    const QCommandLineOption sweepPageOption(
        QStringLiteral("sweep-page"),
        QObject::tr("With --sweep or --open-sweep: the chart to capture: time, bandwidth (with "
                    "occupancy), heatmap or roofline (with --sweep, roofline also turns the "
                    "sweep's Roofline metrics on)."),
        QStringLiteral("page"));
    const QCommandLineOption lessonOption(
        QStringLiteral("lesson"),
        QObject::tr("With --screenshot: fill in the project's lesson predictions (--predict), run "
                    "the lesson's experiment once its kernel is compiled, and take the screenshot "
                    "when the Lesson dock shows the measurement beside each prediction. Exits 1 "
                    "with a message when the experiment cannot run or measures nothing."));
    const QCommandLineOption predictOption(
        QStringLiteral("predict"),
        QObject::tr("With --lesson: the prediction for ID (repeatable), e.g. best-block=256."),
        QStringLiteral("id=value"));
    const QCommandLineOption reportOption(
        QStringLiteral("report"),
        QObject::tr("With --lesson: also write the lab report (HTML) to this file."),
        QStringLiteral("report.html"));
    const QCommandLineOption inspectOption(
        QStringLiteral("inspect"),
        QObject::tr("With --screenshot: inspect the launch once the first compile is shown "
                    "(counters per instruction and where the warps wait, on the GPU), and take "
                    "the screenshot when the editor, the Inspect dock and the SASS tab show it. "
                    "Exits 1 with a message when the inspection fails or is refused."));
    const QCommandLineOption inspectResultOption(
        QStringLiteral("inspect-result"),
        QObject::tr("With --screenshot: show this recorded inspection (cuwb inspect --json) on "
                    "the project's source, as --inspect would, without a GPU."),
        QStringLiteral("result.json"));
    const QCommandLineOption compareOption(
        QStringLiteral("compare"),
        QObject::tr("With --screenshot: compare the project with this one (B), each measured, "
                    "profiled and inspected on the GPU, and take the screenshot when the "
                    "Compare dock shows them. Exits 1 when a side could not be collected."),
        QStringLiteral("B.cuwb"));
    const QCommandLineOption compareAOption(
        QStringLiteral("compare-a"),
        QObject::tr("With --screenshot: side A from recorded files, comma-separated "
                    "(cuwb measure --json, cuwb inspect --json), without a GPU."),
        QStringLiteral("files"));
    const QCommandLineOption compareBOption(
        QStringLiteral("compare-b"), QObject::tr("The same for side B."), QStringLiteral("files"));
    const QCommandLineOption compareResultOption(
        QStringLiteral("compare-result"),
        QObject::tr("With --screenshot: both sides' measurements from cuwb compare --json "
                    "(with --compare-a/--compare-b for their inspections)."),
        QStringLiteral("compare.json"));
    // Hidden: the session script of tests that run this program and kill it (SessionScript).
    QCommandLineOption scriptRecoveryOption(
        QStringLiteral("script-recovery"),
        QObject::tr("Answer the restore offer with restore, discard or later."),
        QStringLiteral("answer"));
    QCommandLineOption scriptTypeOption(
        QStringLiteral("script-type"),
        QObject::tr("Type this text at the end of the current buffer once started."),
        QStringLiteral("text"));
    QCommandLineOption scriptEditProjectOption(
        QStringLiteral("script-edit-project"),
        QObject::tr("Edit the open project's launch, options and sweep once it is compiled."));
    QCommandLineOption scriptReportOption(
        QStringLiteral("script-report"),
        QObject::tr("Write what the window shows, as JSON, to this file once started."),
        QStringLiteral("file.json"));
    for (QCommandLineOption *option : {&scriptRecoveryOption, &scriptTypeOption,
                                       &scriptEditProjectOption, &scriptReportOption}) {
        option->setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(*option);
    }
    parser.addOptions({screenshotOption, sizeOption,          screenOption,    cursorOption,
                       samplesOption,    runOption,           measureOption,   metricsOption,
                       sweepOption,      presetOption,        openSweepOption, baselineOption,
                       sweepPageOption,  lessonOption,        predictOption,   reportOption,
                       inspectOption,    inspectResultOption, compareOption,   compareAOption,
                       compareBOption,   compareResultOption, rooflineOption,  sweepGpusOption});
    parser.process(app);

    const QString screenshotPath = parser.value(screenshotOption);
    const bool scripted = parser.isSet(scriptRecoveryOption) || parser.isSet(scriptTypeOption) ||
                          parser.isSet(scriptEditProjectOption) || parser.isSet(scriptReportOption);
    if (scripted && !screenshotPath.isEmpty()) {
        printError(QObject::tr("--script-recovery, --script-type, --script-edit-project and "
                               "--script-report drive an interactive window: leave out "
                               "--screenshot"));
        return 2;
    }
    if (parser.isSet(measureOption) && screenshotPath.isEmpty()) {
        printError(QObject::tr("--measure needs --screenshot FILE"));
        return 2;
    }
    if (parser.isSet(runOption) && parser.isSet(measureOption)) {
        printError(QObject::tr("choose one of --run and --measure"));
        return 2;
    }
    if (parser.isSet(metricsOption) && !parser.isSet(measureOption)) {
        printError(QObject::tr("--metrics needs --measure"));
        return 2;
    }
    if (parser.isSet(rooflineOption) && !parser.isSet(measureOption)) {
        printError(QObject::tr("--roofline needs --measure"));
        return 2;
    }
    const bool sweep = parser.isSet(sweepOption);
    const bool openSweep = parser.isSet(openSweepOption);
    const bool lesson = parser.isSet(lessonOption);
    const bool inspect = parser.isSet(inspectOption) || parser.isSet(inspectResultOption);
    if (inspect) {
        if (screenshotPath.isEmpty()) {
            printError(QObject::tr("--inspect and --inspect-result need --screenshot FILE"));
            return 2;
        }
        if (parser.isSet(inspectOption) && parser.isSet(inspectResultOption)) {
            printError(QObject::tr("choose one of --inspect and --inspect-result"));
            return 2;
        }
        if (sweep || openSweep || lesson || parser.isSet(runOption) ||
            parser.isSet(measureOption)) {
            printError(QObject::tr("--inspect and --inspect-result leave out --run, --measure, "
                                   "--sweep, --open-sweep and --lesson"));
            return 2;
        }
        if (parser.positionalArguments().isEmpty()) {
            printError(QObject::tr("--inspect needs a project: cuda-workbench --inspect "
                                   "--screenshot FILE PROJECT.cuwb"));
            return 2;
        }
    }
    const bool compareRecorded = parser.isSet(compareAOption) || parser.isSet(compareBOption) ||
                                 parser.isSet(compareResultOption);
    const bool compare = parser.isSet(compareOption) || compareRecorded;
    if (compare) {
        if (screenshotPath.isEmpty()) {
            printError(QObject::tr("--compare and --compare-a/-b/-result need --screenshot FILE"));
            return 2;
        }
        if (parser.isSet(compareOption) && compareRecorded) {
            printError(QObject::tr("choose one of --compare and the recorded --compare-a/-b"));
            return 2;
        }
        if (inspect || sweep || openSweep || lesson || parser.isSet(runOption) ||
            parser.isSet(measureOption)) {
            printError(QObject::tr("--compare leaves out --inspect, --run, --measure, --sweep, "
                                   "--open-sweep and --lesson"));
            return 2;
        }
        if (parser.positionalArguments().isEmpty()) {
            printError(QObject::tr("--compare needs a project: cuda-workbench --compare B.cuwb "
                                   "--screenshot FILE A.cuwb"));
            return 2;
        }
    }
    QList<QPair<QString, QString>> predictions;
    if (lesson) {
        if (screenshotPath.isEmpty()) {
            printError(QObject::tr("--lesson needs --screenshot FILE"));
            return 2;
        }
        if (sweep || openSweep || parser.isSet(runOption) || parser.isSet(measureOption)) {
            printError(QObject::tr("--lesson runs the lesson's own experiment: leave out --run, "
                                   "--measure, --sweep and --open-sweep"));
            return 2;
        }
        if (parser.positionalArguments().isEmpty()) {
            printError(QObject::tr("--lesson needs a project: cuda-workbench --lesson --screenshot "
                                   "FILE PROJECT.cuwb"));
            return 2;
        }
        for (const QString &value : parser.values(predictOption)) {
            const qsizetype equals = value.indexOf(QLatin1Char('='));
            if (equals <= 0) {
                printError(QObject::tr("--predict expects ID=VALUE, not '%1'").arg(value));
                return 2;
            }
            predictions.append({value.left(equals), value.mid(equals + 1)});
        }
    } else if (parser.isSet(predictOption) || parser.isSet(reportOption)) {
        printError(QObject::tr("--predict and --report need --lesson"));
        return 2;
    }
    if ((sweep || openSweep) && screenshotPath.isEmpty()) {
        printError(sweep ? QObject::tr("--sweep needs --screenshot FILE")
                         : QObject::tr("--open-sweep needs --screenshot FILE"));
        return 2;
    }
    if (int(sweep) + int(openSweep) + int(parser.isSet(runOption)) +
            int(parser.isSet(measureOption)) >
        1) {
        printError(QObject::tr("choose one of --run, --measure, --sweep and --open-sweep"));
        return 2;
    }
    if (parser.isSet(presetOption) && !sweep) {
        printError(QObject::tr("--preset needs --sweep"));
        return 2;
    }
    if (parser.isSet(sweepGpusOption) && !sweep) {
        printError(QObject::tr("--sweep-gpus needs --sweep"));
        return 2;
    }
    if (parser.isSet(sweepPageOption)) {
        if (!sweep && !openSweep) {
            printError(QObject::tr("--sweep-page needs --sweep or --open-sweep"));
            return 2;
        }
        if (!cuwb::SweepScreenshotRunner::pageNames().contains(parser.value(sweepPageOption))) {
            printError(QObject::tr("--sweep-page takes %1, not '%2'")
                           .arg(cuwb::SweepScreenshotRunner::pageNames().join(QStringLiteral(", ")),
                                parser.value(sweepPageOption)));
            return 2;
        }
    }
    if (parser.isSet(baselineOption) && !openSweep) {
        printError(QObject::tr("--baseline needs --open-sweep"));
        return 2;
    }
    if (sweep && parser.positionalArguments().isEmpty()) {
        printError(QObject::tr("--sweep needs a project: cuda-workbench --sweep --screenshot "
                               "FILE PROJECT.cuwb"));
        return 2;
    }
    // WIDTHxHEIGHT, or an empty size when malformed.
    const auto parseSize = [](const QString &text) {
        static const QRegularExpression sizePattern(QStringLiteral("^(\\d+)[xX](\\d+)$"));
        const QRegularExpressionMatch match = sizePattern.match(text);
        if (!match.hasMatch() || match.captured(1).toInt() < 200 || match.captured(2).toInt() < 150)
            return QSize();
        return QSize(match.captured(1).toInt(), match.captured(2).toInt());
    };
    int width = 1600;
    int height = 1000;
    if (parser.isSet(sizeOption)) {
        const QSize size = parseSize(parser.value(sizeOption));
        if (size.isEmpty()) {
            printError(QObject::tr("--size expects WIDTHxHEIGHT, e.g. 1600x1000"));
            return 2;
        }
        width = size.width();
        height = size.height();
    }
    QSize screen;
    if (parser.isSet(screenOption)) {
        screen = parseSize(parser.value(screenOption));
        if (screen.isEmpty() || screenshotPath.isEmpty()) {
            printError(QObject::tr("--screen expects WIDTHxHEIGHT, e.g. 1366x768, and "
                                   "--screenshot FILE"));
            return 2;
        }
    }
    int cursorLine = 0;
    if (parser.isSet(cursorOption)) {
        bool ok = false;
        cursorLine = parser.value(cursorOption).toInt(&ok);
        if (!ok || cursorLine < 1) {
            printError(QObject::tr("--cursor-line expects a line number from 1"));
            return 2;
        }
    }

    // A screenshot must neither depend on nor change the user's saved layout and options.
    std::unique_ptr<QTemporaryDir> scratchSettings;
    if (!screenshotPath.isEmpty()) {
        scratchSettings = std::make_unique<QTemporaryDir>();
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, scratchSettings->path());
        // Read by the Sweep dock when the window is made (SweepDeviceBox).
        if (parser.isSet(sweepGpusOption))
            QSettings().setValue(QStringLiteral("sweep/gpus"), parser.value(sweepGpusOption));
    }

    cuwb::MainWindow::Settings settings;
    settings.samplesDir = parser.value(samplesOption);
    settings.restoreLayout = screenshotPath.isEmpty();
    settings.prompts = screenshotPath.isEmpty();
    settings.runDocksFirst = parser.isSet(runOption);
    // A screenshot keeps its measurements and sweeps in its scratch folder's history.
    settings.historyPath = scratchSettings
                               ? scratchSettings->filePath(QStringLiteral("history.sqlite"))
                               : cuwb::defaultHistoryPath();
    // A screenshot leaves no autosaves behind and offers none.
    settings.autosaveRoot = screenshotPath.isEmpty() ? cuwb::defaultAutosaveRoot() : QString();
    cuwb::MainWindow window(settings);
    std::unique_ptr<cuwb::SessionScript> script;
    if (scripted) {
        script = std::make_unique<cuwb::SessionScript>(&window);
        if (parser.isSet(scriptRecoveryOption) &&
            !script->setRecoveryAnswer(parser.value(scriptRecoveryOption))) {
            printError(QObject::tr("--script-recovery takes restore, discard or later, not '%1'")
                           .arg(parser.value(scriptRecoveryOption)));
            return 2;
        }
        script->setTypedText(parser.value(scriptTypeOption));
        script->setEditProject(parser.isSet(scriptEditProjectOption));
        script->setReportPath(parser.value(scriptReportOption));
    }

    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) {
        for (const QString &file : files) {
            if (!QFileInfo::exists(file)) {
                printError(QObject::tr("%1 does not exist").arg(file));
                if (!screenshotPath.isEmpty())
                    return 1;
                continue;
            }
            if (!window.openPath(file) && !screenshotPath.isEmpty()) {
                QString reason = window.lastOpenError(); // the CLI's reason, said once
                if (reason.startsWith(file + QStringLiteral(": ")))
                    reason.remove(0, file.size() + 2);
                printError(QObject::tr("cannot open %1: %2").arg(file, reason));
                return 1;
            }
        }
    } else {
        const QString sample = cuwb::SamplesMenu::mainSourceOf(
            QDir(window.samplesDir()).filePath(QStringLiteral("vector_add")));
        if (!window.samplesDir().isEmpty() && !sample.isEmpty())
            window.openPath(sample);
    }
    if (!window.currentDocument() && screenshotPath.isEmpty())
        window.documentTabs()->newDocument();

    std::unique_ptr<cuwb::ScreenshotRunner> runner;
    std::unique_ptr<cuwb::SweepScreenshotRunner> sweepRunner;
    std::unique_ptr<cuwb::LessonScreenshotRunner> lessonRunner;
    std::unique_ptr<cuwb::InspectScreenshotRunner> inspectRunner;
    std::unique_ptr<cuwb::CompareScreenshotRunner> compareRunner;
    if (compare) {
        window.resize(width, height);
        using Mode = cuwb::CompareScreenshotRunner::Mode;
        compareRunner = std::make_unique<cuwb::CompareScreenshotRunner>(
            &window, screenshotPath, compareRecorded ? Mode::Open : Mode::Run);
        compareRunner->setProjectB(parser.value(compareOption));
        const auto files = [&parser](const QCommandLineOption &option) {
            return parser.value(option).split(QLatin1Char(','), Qt::SkipEmptyParts);
        };
        compareRunner->setRecorded(files(compareAOption), files(compareBOption),
                                   parser.value(compareResultOption));
        QObject::connect(compareRunner.get(), &cuwb::CompareScreenshotRunner::finished, &app,
                         [](int code) { QCoreApplication::exit(code); });
        compareRunner->start();
    } else if (inspect) {
        window.resize(width, height);
        using Mode = cuwb::InspectScreenshotRunner::Mode;
        inspectRunner = std::make_unique<cuwb::InspectScreenshotRunner>(
            &window, screenshotPath, parser.isSet(inspectOption) ? Mode::Run : Mode::Open);
        inspectRunner->setResultFile(parser.value(inspectResultOption));
        inspectRunner->setCursorLine(cursorLine);
        QObject::connect(inspectRunner.get(), &cuwb::InspectScreenshotRunner::finished, &app,
                         [](int code) { QCoreApplication::exit(code); });
        inspectRunner->start();
    } else if (lesson) {
        window.resize(width, height);
        lessonRunner = std::make_unique<cuwb::LessonScreenshotRunner>(&window, screenshotPath);
        lessonRunner->setPredictions(predictions);
        lessonRunner->setReportPath(parser.value(reportOption));
        QObject::connect(lessonRunner.get(), &cuwb::LessonScreenshotRunner::finished, &app,
                         [](int code) { QCoreApplication::exit(code); });
        lessonRunner->start();
    } else if (sweep || openSweep) {
        window.resize(width, height);
        using Mode = cuwb::SweepScreenshotRunner::Mode;
        sweepRunner = std::make_unique<cuwb::SweepScreenshotRunner>(&window, screenshotPath,
                                                                    sweep ? Mode::Run : Mode::Open);
        sweepRunner->setPreset(parser.value(presetOption));
        sweepRunner->setResultFiles(parser.value(openSweepOption), parser.value(baselineOption));
        sweepRunner->setPage(parser.value(sweepPageOption));
        QObject::connect(sweepRunner.get(), &cuwb::SweepScreenshotRunner::finished, &app,
                         [](int code) { QCoreApplication::exit(code); });
        sweepRunner->start();
    } else if (!screenshotPath.isEmpty()) {
        if (screen.isEmpty())
            window.resize(width, height);
        else
            window.applyDefaultLayout(QRect(QPoint(0, 0), screen));
        using Action = cuwb::ScreenshotRunner::Action;
        const Action action = parser.isSet(measureOption) ? Action::Measure
                              : parser.isSet(runOption)   ? Action::Run
                                                          : Action::None;
        runner =
            std::make_unique<cuwb::ScreenshotRunner>(&window, screenshotPath, cursorLine, action);
        runner->setCollectMetrics(parser.isSet(metricsOption) || parser.isSet(rooflineOption));
        runner->setRooflineMetrics(parser.isSet(rooflineOption));
        QObject::connect(runner.get(), &cuwb::ScreenshotRunner::finished, &app,
                         [](int code) { QCoreApplication::exit(code); });
        runner->start();
    } else if (cursorLine > 0) {
        QObject::connect(&window, &cuwb::MainWindow::resultShown, &window, [&window, cursorLine] {
            static bool placed = false;
            if (!placed && window.currentDocument())
                window.currentDocument()->editor()->goToLocation(cursorLine, 1);
            placed = true;
        });
    }
    window.show();
    // Once the window is up: offer what a session that did not end cleanly left unsaved.
    cuwb::AutosaveController *autosave = window.autosaveController();
    if (script) {
        script->start();
        const auto scriptNext = [&script] {
            const QString error = script->recoveryChecked();
            if (!error.isEmpty()) {
                printError(error);
                QCoreApplication::exit(1);
            }
        };
        if (autosave)
            QObject::connect(autosave, &cuwb::AutosaveController::recoveryChecked, &window,
                             scriptNext);
        else
            QTimer::singleShot(0, &window, scriptNext);
    }
    if (autosave)
        QTimer::singleShot(0, &window, [&window, autosave] { autosave->offerRecovery(&window); });
    return app.exec();
}
