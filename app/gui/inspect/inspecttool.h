// InspectTool: Inspect and the SASS tab, plugged into the window (gui/workspace/toolhost.h).
// It adds the SASS tab beside the PTX, the Inspect dock beside the Measurement dock, and the
// hot-line navigation to the Run menu; it sends Inspect through the window's run controller and
// shows the result on the editor, in the dock and on the SASS listing; an edit takes the
// counters off the lines; and its -lineinfo fix turns the option on, waits for the compile and
// inspects again.
#pragma once

#include <QObject>

#include <memory>

class QDockWidget;

namespace cuwb {

class Document;
class InspectController;
class InspectPanel;
class SassController;
class SassDocument;
class SassView;
class ToolHost;
struct InspectResult;

class InspectTool : public QObject
{
    Q_OBJECT

public:
    explicit InspectTool(ToolHost *host);

    [[nodiscard]] InspectPanel *panel() const { return m_panel; }
    [[nodiscard]] InspectController *controller() const { return m_controller; }
    [[nodiscard]] QDockWidget *dock() const { return m_dock; }
    [[nodiscard]] SassView *sassView() const { return m_sassView; }
    [[nodiscard]] SassController *sassController() const { return m_sassController; }

    // Brings the Inspect dock to the front, the first time tall enough for its summary and
    // several rows.
    void showDock();
    // Brings the SASS tab to the front (its listing is made when it is first shown).
    void showSassTab();
    // Disassembles the current compile whether or not the SASS tab is in front (a comparison's
    // instruction mix), or back to only while it is.
    void keepSassCurrent(bool always);
    // Shows a recorded inspection (the result of `cuwb inspect --json`) for the current
    // document as it is now, as if it had just come from the worker (the --inspect-result
    // screenshot).
    void showResult(const InspectResult &result);

Q_SIGNALS:
    // An inspection's result or failure is on screen (the Inspect dock and the editor).
    void shown();
    // The SASS view shows the listing of the current compile, or why there is none.
    void sassShown();

private:
    void createSassTab();
    void createDock();
    void connectSass();
    void connectInspection();
    void onDocumentShown(Document *document);
    void onInspectRequested();
    // Turns on -lineinfo and inspects again once the kernel is compiled with it.
    void onLineInfoFixRequested();
    // The inspection's figures on the SASS view, when they fit its listing.
    void updateSassCounters();

    ToolHost *m_host;
    SassView *m_sassView = nullptr;
    SassController *m_sassController = nullptr;
    InspectPanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
    InspectController *m_controller = nullptr;
    bool m_inspectWhenCompiled = false; // the -lineinfo fix: inspect once it is compiled in
    bool m_dockSized = false;           // the dock was given room once
    bool m_sassAlways = false;          // keepSassCurrent(true)
};

} // namespace cuwb
