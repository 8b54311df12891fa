// InspectPanel: the Inspect dock: why the kernel is slow, line by line. A tool bar (Inspect,
// the previous and next hot line), the kernel's summary and what the figures cannot say, a
// message for a failed or refused inspection (with the way out: how to enable the counters,
// or a button that turns on -lineinfo), and a sortable table of the source lines
// (InspectLinesModel). Double-clicking a row asks for its source line. It only shows: the
// inspection's state lives in InspectController.
#pragma once

#include "inspect/linecounters.h"

#include <QWidget>

class QAction;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QToolBar;

namespace cuwb {

class InspectLinesModel;

class InspectPanel : public QWidget
{
    Q_OBJECT

public:
    explicit InspectPanel(QWidget *parent = nullptr);

    // The action that starts an inspection (the Launch panel's), shown in the tool bar.
    void setInspectAction(QAction *action);
    [[nodiscard]] QAction *previousHotLineAction() const { return m_previous; }
    [[nodiscard]] QAction *nextHotLineAction() const { return m_next; }

    void showInspecting(const QString &kernel);
    // A finished inspection; `source` is the inspected text by line, `fileName` the name it
    // was compiled under. `bySamples`: the heat follows the PC samples, not the instructions.
    void showResult(const InspectResult &result, const InspectSummary &summary,
                    const QStringList &source, const std::string &fileName, bool bySamples);
    // An inspection that failed or was refused; what was shown before stays below the message.
    void showFailure(const QString &message, bool permissionDenied);
    // The source was edited since the inspection shown: its lines may no longer match.
    void setStale(bool stale);
    void setNavigationEnabled(bool enabled);
    // Selects and shows the row of a 1-based source line.
    void selectLine(int line);

    [[nodiscard]] InspectLinesModel *model() const { return m_model; }
    [[nodiscard]] QTableView *view() const { return m_view; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QString messageText() const;
    [[nodiscard]] QString notesText() const;
    [[nodiscard]] QPushButton *lineInfoButton() const { return m_lineInfoButton; }
    [[nodiscard]] bool isStale() const { return m_stale; }

Q_SIGNALS:
    // A row was double-clicked: its 1-based line of the main source.
    void lineActivated(int line);
    // Turn on the compile option -lineinfo (and inspect again).
    void lineInfoFixRequested();

private:
    void showMessage(const QString &text, const QString &color);
    void hideMessage();

    QToolBar *m_toolBar = nullptr;
    QAction *m_previous = nullptr;
    QAction *m_next = nullptr;
    QLabel *m_summary = nullptr;
    QWidget *m_messageBox = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_lineInfoButton = nullptr;
    QLabel *m_notes = nullptr;
    InspectLinesModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    bool m_stale = false;
    QString m_resultMessage; // the message that belongs to the result shown (no line info)
};

} // namespace cuwb
