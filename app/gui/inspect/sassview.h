// SassView: the SASS of the current compile beside the source, in the place of the PTX view (a
// tab beside it). One function at a time, chosen above the listing, with its instruction mix
// in one line; local-memory accesses are marked in the margin (register spills apart). Linked
// both ways like the PTX view: the instructions generated from the source line under the
// cursor are highlighted (switching to the function that has them), and moving to an
// instruction says which source line it came from. When an inspection's counters fit the
// listing (core/inspect/listingcounters.h), a margin beside each instruction shows what it
// executed, its memory traffic against the ideal and its share of the PC stall samples. Without
// a listing (no nvdisasm, no machine code) it says why and what to do.
#pragma once

#include "gui/inspect/sassdocument.h"
#include "inspect/listingcounters.h"

#include <QWidget>

#include <map>
#include <memory>
#include <set>
#include <vector>

class QComboBox;
class QLabel;
class QStackedWidget;
class QsciScintilla;

namespace cuwb {

class SassLexer;

class SassView : public QWidget
{
    Q_OBJECT

public:
    enum Marker { CorrelatedBackground = 1, CorrelatedArrow = 2, SpillMarker = 3, LocalMarker = 4 };

    explicit SassView(QWidget *parent = nullptr);

    // The listing to show; a document without one shows its message.
    void setDocument(const std::shared_ptr<const SassDocument> &document);
    // A message instead of a listing ("Disassembling…", "No SASS: the source did not compile").
    void showMessage(const QString &message);
    // Highlights the instructions generated from a 1-based line of the main source (and of
    // code inlined there), switching to the function that has them, and scrolls to them.
    void showSourceLine(int sourceLine);
    // Per-instruction figures of an inspection, shown when they fit this listing; the label
    // above the listing says why when they do not.
    void setCounters(const ListingCounters &counters);
    void clearCounters();

    [[nodiscard]] const std::shared_ptr<const SassDocument> &document() const { return m_document; }
    [[nodiscard]] bool hasListing() const;
    // The function shown: an index into SassDocument::functions, -1 when none.
    [[nodiscard]] int currentFunction() const { return m_function; }
    void setCurrentFunction(int index);
    [[nodiscard]] QsciScintilla *listing() const { return m_listing; }
    [[nodiscard]] QComboBox *functionChooser() const { return m_functions; }
    [[nodiscard]] QString mixText() const;
    [[nodiscard]] QString messageText() const;
    [[nodiscard]] QString countersText() const;
    // 1-based lines of the listing currently highlighted.
    [[nodiscard]] const std::vector<int> &highlightedLines() const { return m_highlighted; }
    // The figures in the margin of a 1-based line of the listing; empty when none.
    [[nodiscard]] QString countersAt(int listingLine) const;
    [[nodiscard]] bool countersShown() const { return m_countersShown; }

Q_SIGNALS:
    // The user moved to an instruction (or its source line) generated from this source line.
    void sourceLineActivated(int sourceLine);
    // A listing or a message is on screen for the document last given.
    void documentShown();

private:
    void showFunction(int index);
    void highlight();
    void showCounters();
    void onCursorPositionChanged(int line, int index);
    [[nodiscard]] const SassFunctionText *functionText() const;

    QComboBox *m_functions = nullptr;
    QLabel *m_mix = nullptr;
    QLabel *m_counters = nullptr;
    QStackedWidget *m_stack = nullptr;
    QsciScintilla *m_listing = nullptr;
    SassLexer *m_lexer = nullptr;
    QLabel *m_message = nullptr;
    std::shared_ptr<const SassDocument> m_document;
    int m_function = -1;
    int m_sourceLine = 0;
    std::vector<int> m_highlighted;
    bool m_settingText = false;
    int m_cursorLine = 0; // 0-based line of the listing's cursor, as last reported
    ListingCounters m_listingCounters;
    bool m_haveCounters = false;
    bool m_countersShown = false;
    std::map<int, QString> m_marginTexts; // by 1-based line of the listing
    std::set<int> m_excessLines;          // lines whose memory figure exceeds the ideal
};

} // namespace cuwb
