// ResultsPanel: the Results dock: what the last run produced. A status line (coloured by
// outcome) with the kernel time (each kernel's too, for a sequence) and the device; the
// verification verdict with its largest error and first mismatches, one line per check when
// there are several, each with its largest absolute and relative errors; one summary row per buffer
// (guard bands, unwritten outputs, statistics) with the findings spelled out; and the selected
// buffer's values, read page by page from the worker, with export to .npy, .bin or CSV.
#pragma once

#include "run/runresult.h"
#include "worker/protocol.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QLineEdit;
class QTableView;

namespace cuwb {

class BufferPageModel;
class BufferSummaryModel;
class BufferValuesView;
class MismatchesModel;

class ResultsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ResultsPanel(QWidget *parent = nullptr);

    // typeNames: parameter -> element type name, for the values header.
    void showResult(const RunResult &result, const QHash<QString, QString> &typeNames = {});
    void showRunning(const QString &kernel);
    void clear();

    [[nodiscard]] bool hasResult() const { return m_hasResult; }
    [[nodiscard]] const RunResult &result() const { return m_result; }
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] QString verificationText() const;
    // "Kernel time 125 µs · scale 100 µs · finish 25 µs · on NVIDIA H200 (sm_90)".
    [[nodiscard]] QString detailsText() const;
    [[nodiscard]] QString findingsText() const;
    // The line under the values: an export's outcome, or why values are unavailable.
    [[nodiscard]] QString valuesStatusText() const;
    [[nodiscard]] BufferPageModel *pageModel() const { return m_pageModel; }
    [[nodiscard]] BufferSummaryModel *summaryModel() const { return m_summaryModel; }
    [[nodiscard]] MismatchesModel *mismatchesModel() const { return m_mismatchesModel; }
    [[nodiscard]] BufferValuesView *valuesView() const { return m_valuesView; }
    // The buffer whose values are shown, by index in the result.
    void selectBuffer(int index);
    [[nodiscard]] int selectedBuffer() const;

    // Where a format's export goes, chosen from the file name's suffix (csv, bin, else npy).
    static ExportFormat formatForPath(const QString &path);

Q_SIGNALS:
    void exportRequested(const QString &handle, const QString &path, cuwb::ExportFormat format);
    // A page of the shown buffer arrived after a new result: its values are on screen.
    void valuesShown();

public:
    // Feedback on an export (from RunController::exportFinished).
    void showExportResult(const QString &path, bool ok, const QString &message);

private:
    // showResult()'s parts: the verdict line, the times and device, the checks with their
    // first mismatches, and the buffers' summary, findings and the buffer shown.
    void showStatus(const RunResult &result);
    void showDetails(const RunResult &result);
    void showVerification(const RunResult &result);
    void showBuffers(const RunResult &result);
    // One check's line: PASS or FAIL, what was compared and the largest errors.
    static QString checkText(const VerificationResult &check);
    // The constructor's connections: the buffer chosen, the summary clicked, export, go to, and
    // the pages' answers.
    void connectViews();
    void onBufferChosen(int index);
    void exportSelected();
    void goToElement();

    QLabel *m_status = nullptr;
    QLabel *m_details = nullptr;
    QLabel *m_verification = nullptr;
    QTableView *m_mismatchesView = nullptr;
    QTableView *m_summaryView = nullptr;
    QLabel *m_findings = nullptr;
    QComboBox *m_bufferChoice = nullptr;
    QLineEdit *m_goTo = nullptr;
    QPushButton *m_export = nullptr;
    QLabel *m_exportStatus = nullptr;
    BufferValuesView *m_valuesView = nullptr;
    BufferPageModel *m_pageModel = nullptr;
    BufferSummaryModel *m_summaryModel = nullptr;
    MismatchesModel *m_mismatchesModel = nullptr;
    RunResult m_result;
    QHash<QString, QString> m_typeNames;
    bool m_hasResult = false;
    bool m_waitingForValues = false;
};

} // namespace cuwb
