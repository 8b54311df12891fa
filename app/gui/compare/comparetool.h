// CompareTool: Compare, plugged into the window (gui/workspace/toolhost.h). It adds the Compare
// dock beside Inspect and Run ▸ Compare… to the menu, and offers the ways to pick the two sides
// (the current kernel against another tab or a project file, a history entry against the
// current kernel, two points of a sweep, a lesson's two projects) as slots the shell connects
// those features to. The sides are collected on a worker of their own (CompareController) that
// follows the window's cuwb and GPU verdict; the instruction mix comes from the SASS listing
// (the Inspect tool's) when it is the sides' code.
#pragma once

#include "gui/compare/comparecontroller.h"

#include <QObject>

class QAction;
class QDockWidget;

namespace cuwb {

class ComparePanel;
class SweepCompareAction;
class SweepResultsView;
class ToolHost;

class CompareTool : public QObject
{
    Q_OBJECT

public:
    explicit CompareTool(ToolHost *host);

    [[nodiscard]] ComparePanel *panel() const { return m_panel; }
    [[nodiscard]] CompareController *controller() const { return m_controller; }
    [[nodiscard]] QDockWidget *dock() const { return m_dock; }
    // Run ▸ Compare…: the current kernel against another tab or a project file.
    [[nodiscard]] QAction *compareAction() const { return m_compareAction; }
    // The sweep table's "Compare the two selected points", once attachSweepResults() made it.
    [[nodiscard]] SweepCompareAction *sweepCompareAction() const { return m_sweepCompareAction; }

    // Puts "Compare the two selected points" on a sweep's results table.
    void attachSweepResults(SweepResultsView *view);
    void showDock();

public Q_SLOTS:
    // Two sides already collected or read back (the --compare-a/--compare-b screenshot): the
    // instruction mix is added from the SASS listing on screen when it is the sides' source.
    void showComparison(cuwb::CompareSideInput a, cuwb::CompareSideInput b);
    // The current kernel against a project file, and two project files (a lesson's); both
    // collected on the worker.
    void compareWithProject(const QString &projectPath);
    void compareProjects(const QString &projectA, const QString &projectB);
    // A history entry (its stored document) as A against a fresh collection of the current
    // kernel as B.
    void compareWithHistoryEntry(qint64 id, const QString &jsonText, const QString &kind);

Q_SIGNALS:
    // A comparison (or its cancellation) is on screen in the Compare dock.
    void shown();

private:
    void createDock();
    void connectController();
    void onCompareRequested();
    void compareSweepPoints();
    void startComparison(CompareController::Job a, CompareController::Job b);
    [[nodiscard]] CompareController::Job currentJob() const;
    [[nodiscard]] CompareController::Job projectJob(const QString &path) const;
    void addInstructionMix(CompareSideInput &side) const;
    void onSassShown();

    ToolHost *m_host;
    ComparePanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
    CompareController *m_controller = nullptr;
    QAction *m_compareAction = nullptr;
    SweepCompareAction *m_sweepCompareAction = nullptr;
    bool m_dockSized = false;
    bool m_wantsMix = false; // the SASS is disassembled for a comparison's mix
};

} // namespace cuwb
