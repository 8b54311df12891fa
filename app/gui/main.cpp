// cuda-workbench: the CUDA Workbench GUI. See --help for the command line.
#include "gui/automation/automationoptions.h"
#include "gui/editor/documenttabs.h"
#include "gui/history/historypanel.h"
#include "gui/recovery/autosavecontroller.h"
#include "gui/recovery/autosavestore.h"
#include "gui/shell/mainwindow.h"
#include "gui/shell/samplesmenu.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

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
    const QCommandLineOption samplesOption(QStringLiteral("samples-dir"),
                                           QObject::tr("The folder of samples to list."),
                                           QStringLiteral("dir"));
    parser.addOption(samplesOption);
    cuwb::AutomationOptions automation;
    automation.addTo(parser);
    parser.process(app);

    if (const QString problem = automation.check(parser); !problem.isEmpty()) {
        printError(problem);
        return 2;
    }
    cuwb::MainWindow::Settings settings;
    settings.samplesDir = parser.value(samplesOption);
    settings.historyPath = cuwb::defaultHistoryPath();
    settings.autosaveRoot = cuwb::defaultAutosaveRoot();
    automation.isolate(settings);
    cuwb::MainWindow window(settings);
    if (const QString problem = automation.attach(window); !problem.isEmpty()) {
        printError(problem);
        return 2;
    }

    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) {
        for (const QString &file : files) {
            if (!QFileInfo::exists(file)) {
                printError(QObject::tr("%1 does not exist").arg(file));
                if (automation.screenshot())
                    return 1;
                continue;
            }
            if (!window.openPath(file) && automation.screenshot()) {
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
    if (!window.currentDocument() && !automation.screenshot())
        window.documentTabs()->newDocument();

    automation.start(window);
    window.show();
    automation.shown(window);
    // Once the window is up: offer what a session that did not end cleanly left unsaved.
    if (cuwb::AutosaveController *autosave = window.autosaveController())
        QTimer::singleShot(0, &window, [&window, autosave] { autosave->offerRecovery(&window); });
    const int status = app.exec();
    automation.finish();
    return status;
}
