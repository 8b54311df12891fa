// ComparePanel: the Compare dock. Two variants A and B side by side: their names and where they
// come from, what is missing from each and why (a failed side says its reason; the rest still
// compares), the verdict in one sentence, then the table of A beside B (CompareModel) with a
// "show only significant" toggle, the findings only one side has, and the per-line differences
// of two kernels of one source file (CompareLinesModel; clicking a line emits lineActivated) or
// the sentence that says why there are none. While a comparison is being collected it shows the
// progress and a Cancel button.
#pragma once

#include "compare/comparedata.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableView;
class QTextBrowser;

namespace cuwb {

class CompareLinesModel;
class CompareModel;

class ComparePanel : public QWidget
{
    Q_OBJECT

public:
    explicit ComparePanel(QWidget *parent = nullptr);

    void showComparison(const CompareData &data);
    // Collecting: "Measuring A (2 of 6)…", with Cancel; finished by showComparison or
    // showMessage.
    void showProgress(const QString &text, int step, int steps);
    void showMessage(const QString &message);
    [[nodiscard]] bool hasComparison() const { return m_hasData; }
    [[nodiscard]] const CompareData &comparison() const { return m_data; }

    [[nodiscard]] CompareModel *model() const { return m_model; }
    [[nodiscard]] CompareLinesModel *linesModel() const { return m_linesModel; }
    [[nodiscard]] QTableView *tableView() const { return m_table; }
    [[nodiscard]] QTableView *linesView() const { return m_lines; }
    [[nodiscard]] QCheckBox *significantToggle() const { return m_onlySignificant; }
    [[nodiscard]] QPushButton *cancelButton() const { return m_cancel; }
    [[nodiscard]] QString verdictText() const;
    [[nodiscard]] QString sideText(int side) const; // 0: A, 1: B
    [[nodiscard]] QString findingsText() const;
    [[nodiscard]] QString linesNoteText() const;
    [[nodiscard]] QString messageText() const;

Q_SIGNALS:
    void lineActivated(int line);
    void cancelRequested();

private:
    QString describeSide(const CompareSideInput &side, const QString &letter) const;

    CompareData m_data;
    bool m_hasData = false;
    CompareModel *m_model = nullptr;
    CompareLinesModel *m_linesModel = nullptr;
    QLabel *m_sides[2] = {nullptr, nullptr};
    QLabel *m_verdict = nullptr;
    QLabel *m_message = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    QCheckBox *m_onlySignificant = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_findings = nullptr;
    QLabel *m_linesNote = nullptr;
    QTableView *m_lines = nullptr;
    QLabel *m_notes = nullptr;
    QSplitter *m_splitter = nullptr;
};

} // namespace cuwb
