// HistoryTool: the History dock, plugged into the window (gui/workspace/toolhost.h). Every
// measurement that took samples (the window's run controller) and every finished sweep (the
// Sweep tool) is recorded under the open project's name; an entry opened again goes back to
// the Sweep dock (as a result or as a baseline to overlay) or, for a measurement, to whoever
// shows measurements (measurementOpened). "Compare with current" is a signal of the panel the
// shell connects to Compare.
#pragma once

#include "gui/common/metatypes.h"

#include <QObject>

class QDockWidget;

namespace cuwb {

class HistoryPanel;
class ToolHost;
struct Measurement;
struct SweepResult;

class HistoryTool : public QObject
{
    Q_OBJECT

public:
    explicit HistoryTool(ToolHost *host);

    [[nodiscard]] HistoryPanel *panel() const { return m_panel; }
    [[nodiscard]] QDockWidget *dock() const { return m_dock; }

Q_SIGNALS:
    // A stored measurement was opened: show it (the Measurement dock).
    void measurementOpened(const cuwb::Measurement &measurement);

private:
    void record(const Measurement &measurement);
    void recordSweep(const SweepResult &result);
    void open(qint64 id, const QString &jsonText, const QString &kind, bool baseline);

    ToolHost *m_host;
    HistoryPanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
};

} // namespace cuwb
