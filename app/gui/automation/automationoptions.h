// AutomationOptions: the window's command line for automation, beside the runners of this
// folder that it starts: --screenshot and what to do before it (--run, --measure, --sweep,
// --open-sweep, --lesson, --inspect, --compare and their companions), the window's size or the
// screen a first start lays it out for, the cursor's line, and the hidden session script of the
// recovery tests. main() adds the options to its parser, asks check() once the command line is
// processed, lets them isolate the window's settings, and hands them the window: attach() once
// it is made, start() once its files are open, shown() once it is on screen.
#pragma once

#include "gui/shell/mainwindow.h"

#include <QList>
#include <QPair>
#include <QSize>
#include <QString>

#include <memory>

class QCommandLineParser;
class QObject;
class QTemporaryDir;

namespace cuwb {

class SessionScript;

class AutomationOptions
{
public:
    AutomationOptions();
    ~AutomationOptions();
    AutomationOptions(const AutomationOptions &) = delete;
    AutomationOptions &operator=(const AutomationOptions &) = delete;

    void addTo(QCommandLineParser &parser) const;
    // Once `parser` has processed the command line (it is kept until the window is shown): why
    // the options cannot go together, a sentence for stderr and exit status 2, or empty.
    QString check(const QCommandLineParser &parser);
    [[nodiscard]] bool screenshot() const { return !m_screenshotPath.isEmpty(); }

    // The window's settings: a screenshot neither depends on nor changes the user's layout,
    // options, history or autosaves (a scratch folder holds them while the process lives), and
    // it prompts for nothing.
    void isolate(MainWindow::Settings &settings);
    // The window made: the session script, if asked for; why not, or empty.
    QString attach(MainWindow &window);
    // The window's files open: the runner asked for, started (it ends the application with its
    // exit code when done), or the cursor placed on its line after the first result.
    void start(MainWindow &window);
    // The window on screen: the session script starts.
    void shown(MainWindow &window);
    // Before the window goes: the runner and the script that drive it go first.
    void finish();

private:
    struct Options;

    QString checkActions(const QCommandLineParser &parser);
    QString checkLessonAndSweep(const QCommandLineParser &parser);
    QString checkGeometry(const QCommandLineParser &parser);

    std::unique_ptr<Options> m_o;
    const QCommandLineParser *m_parser = nullptr;
    QString m_screenshotPath;
    bool m_scripted = false;
    bool m_sweep = false;
    bool m_openSweep = false;
    bool m_lesson = false;
    bool m_inspect = false;
    bool m_compare = false;
    bool m_compareRecorded = false;
    QList<QPair<QString, QString>> m_predictions; // --predict ID=VALUE
    QSize m_size{1600, 1000};
    QSize m_screen;
    int m_cursorLine = 0;
    std::unique_ptr<QTemporaryDir> m_scratch;
    std::unique_ptr<SessionScript> m_script;
    std::unique_ptr<QObject> m_runner;
};

} // namespace cuwb
