// InspectController: the inspection on screen and what follows from it. It remembers which
// document and which text an inspection was sent for, turns the worker's result into the
// summary (core/inspect/linecounters.h) and its overlay, and puts them on that document's
// editor (heat gutter, annotations) and in the Inspect dock. It keeps them honest: a result
// for a text the user has since changed, and any edit after it is shown, take the overlay off
// the editor and mark the dock's figures stale, so counters never sit on the wrong lines; a
// failed or refused inspection is reported and leaves the editor as it was. It also walks the
// hot lines (next and previous, hottest first).
#pragma once

#include "gui/inspect/inspectoverlay.h"
#include "inspect/instructioncounters.h"
#include "inspect/linecounters.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <string>

namespace cuwb {

class Document;
class InspectPanel;
struct RunRequest;

class InspectController : public QObject
{
    Q_OBJECT

public:
    explicit InspectController(InspectPanel *panel, QObject *parent = nullptr);

    // An inspection of `document`'s kernel, as `request` carries it, was sent.
    void started(Document *document, const RunRequest &request);
    // Its result. Also for a recorded result: with no inspection started, it is taken for the
    // current document as it is now.
    void finished(const InspectResult &result);
    // A recorded result (cuwb inspect --json) for `document` as it is now.
    void showRecorded(Document *document, const InspectResult &result);
    // Any edit of any document; only the inspected one's matters.
    void documentEdited(Document *document);
    void nextHotLine();
    void previousHotLine();
    // Moves the inspected document's editor to a 1-based line (a row of the dock).
    void goToLine(int line);

    [[nodiscard]] bool hasResult() const { return m_hasResult; }
    // The result and summary shown; valid when hasResult().
    [[nodiscard]] const InspectResult &result() const { return m_result; }
    [[nodiscard]] const InspectSummary &summary() const { return m_summary; }
    [[nodiscard]] const InspectOverlay &overlay() const { return m_overlay; }
    // The document whose lines the result is for (null once closed).
    [[nodiscard]] Document *document() const { return m_document; }
    // The inspected text has been edited since: no line of it may be trusted.
    [[nodiscard]] bool isStale() const { return m_stale; }
    // The result fits `document` as it is now: shown, current, not stale.
    [[nodiscard]] bool appliesTo(const Document *document) const;
    // The index into overlay().hotLines that the navigator last went to; -1 before.
    [[nodiscard]] int hotIndex() const { return m_hotIndex; }

Q_SIGNALS:
    // A result or a failure is on screen in the dock (and, for a result, on the editor).
    void shown();
    // The result's applicability changed (a new result, a stale one): the SASS view's figures
    // follow it.
    void applicabilityChanged();
    void statusMessage(const QString &message);

private:
    void show(Document *document, const std::string &source, const std::string &fileName,
              const InspectResult &result);
    void clearEditor();
    void goToHotLine(int step);
    void updateNavigation();

    InspectPanel *m_panel = nullptr;
    // The inspection in flight.
    QPointer<Document> m_pendingDocument;
    std::string m_pendingSource;
    std::string m_pendingFileName;
    bool m_pending = false;
    // The inspection shown.
    QPointer<Document> m_document;
    std::string m_fileName;
    bool m_hasResult = false;
    InspectResult m_result;
    InspectSummary m_summary;
    InspectOverlay m_overlay;
    bool m_stale = false;
    int m_hotIndex = -1;
};

} // namespace cuwb
