// RunTool: the Results dock, plugged into the window (gui/workspace/toolhost.h). The Launch
// dock's Run (run()) sends the Workspace's run request through the window's run controller; the
// result (verdict, buffers, mismatches) comes back to the dock, whose pages of buffer values
// and exports are asked of the same controller, one request at a time.
#pragma once

#include <QObject>

class QDockWidget;

namespace cuwb {

class ResultsPanel;
class ToolHost;
struct RunResult;

class RunTool : public QObject
{
    Q_OBJECT

public:
    explicit RunTool(ToolHost *host);

    [[nodiscard]] ResultsPanel *panel() const { return m_panel; }
    [[nodiscard]] QDockWidget *dock() const { return m_dock; }
    // Brings the Launch and Results docks to the front.
    void showDocks();

public Q_SLOTS:
    // Runs the launch as it is set up (the Launch dock's Run, which checks first that it can).
    void run();

Q_SIGNALS:
    // A run's result is on screen in the Results dock.
    void shown();

private:
    void onFinished(const RunResult &result);

    ToolHost *m_host;
    ResultsPanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
};

} // namespace cuwb
