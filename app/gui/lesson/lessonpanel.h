// LessonPanel: the Lesson dock. A sample's lesson.md (core/lesson/): the title, the intro and
// what to try (Markdown), a prediction form (one field per prediction), "Run the experiment",
// which locks the predictions (to keep the student honest) and asks the main window to run the
// lesson's sweep, measurement or run; when that finishes, what was measured stands beside each
// prediction: for a [best-block]-style id the best point's label and median, for [speedup] the
// slowest point's median over the best's, for a measurement its median and GB/s. Then the
// questions and a notes box, and "Export lab report…" (labreport.h). A lesson with an
// ## Inspect section adds a box below: "Open the comparison" (compareRequested, the two
// projects of the lesson's folder) and the questions that Inspect and Compare answer, each
// with a field and Check, which says whether the answer is what they show.
#pragma once

#include "gui/common/metatypes.h"
#include "gui/lesson/lessonbrowser.h"
#include "lesson/lesson.h"
#include "sweep/sweep.h"

#include <QImage>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QGridLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;

namespace cuwb {

struct LabReportInput;

class LessonPanel : public QWidget
{
    Q_OBJECT

public:
    explicit LessonPanel(QWidget *parent = nullptr);

    // Reads and shows the lesson at `lessonPath` for the project at `projectPath`; an empty
    // string on success, else why not (the panel then says so).
    QString loadLesson(const QString &lessonPath, const QString &projectPath = {});
    void setLesson(const Lesson &lesson, const QString &markdown, const QString &projectPath = {});
    // No lesson: the panel says why.
    void clearLesson(const QString &reason);
    [[nodiscard]] bool hasLesson() const { return m_lesson.has_value(); }
    [[nodiscard]] const std::optional<Lesson> &lesson() const { return m_lesson; }
    [[nodiscard]] QString projectPath() const { return m_projectPath; }

    // The student's prediction for `id`; false when the lesson has no such prediction.
    bool setPrediction(const QString &id, const QString &value);
    [[nodiscard]] QString prediction(const QString &id) const;
    // What was measured beside prediction `id`; empty before the experiment finished.
    [[nodiscard]] QString measuredText(const QString &id) const;
    [[nodiscard]] bool predictionsLocked() const { return m_locked; }

    // Locks the predictions and emits experimentRequested (the "Run the experiment" button).
    void startExperiment();

    // Where the report's source, kernel, device, configuration and chart come from (the main
    // window fills them in).
    void setReportContext(std::function<void(LabReportInput &)> fill);
    // Writes the lab report to `path`; an empty string on success, else why not.
    QString exportReport(const QString &path) const;

    [[nodiscard]] QLabel *titleLabel() const { return m_title; }
    [[nodiscard]] QTextBrowser *textBrowser() const { return m_text; }
    [[nodiscard]] const std::vector<QLineEdit *> &predictionEdits() const { return m_edits; }
    [[nodiscard]] const std::vector<QLabel *> &measuredLabels() const { return m_measured; }
    [[nodiscard]] QPushButton *runButton() const { return m_run; }
    [[nodiscard]] QPushButton *exportButton() const { return m_export; }
    [[nodiscard]] QLabel *statusLabel() const { return m_status; }
    [[nodiscard]] QTextBrowser *questionsView() const { return m_questions; }
    [[nodiscard]] QPlainTextEdit *notesEdit() const { return m_notes; }
    [[nodiscard]] QWidget *inspectBox() const { return m_inspectBox; }
    [[nodiscard]] QPushButton *compareButton() const { return m_compare; }
    // Checks `answer` to the ## Inspect question `id` as the Check button does; returns
    // whether it is right (false too when there is no such question).
    bool checkInspectAnswer(const QString &id, const QString &answer);
    // What Check said beside question `id`; empty before.
    [[nodiscard]] QString inspectVerdict(const QString &id) const;

public Q_SLOTS:
    // The experiment's result: what was measured goes beside each prediction.
    void showSweepResult(const cuwb::SweepResult &result);
    void showMeasurement(const cuwb::Measurement &measurement);
    // The experiment could not run or failed; the predictions stay locked.
    void showExperimentFailed(const QString &reason);

Q_SIGNALS:
    void experimentRequested(cuwb::LessonExperiment experiment);
    // The measured values are on screen beside the predictions.
    void resultShown();
    void statusMessage(const QString &message);
    // "Open the comparison": the two projects of ## Inspect's compare line, as paths.
    void compareRequested(const QString &projectA, const QString &projectB);

private:
    void rebuildForm();
    void rebuildInspect();
    void setMeasured(const QString &id, const QString &text);
    void exportWithDialog();

    std::optional<Lesson> m_lesson;
    QString m_markdown;
    QString m_projectPath;
    bool m_locked = false;
    std::optional<SweepResult> m_sweep;
    std::optional<Measurement> m_measurement;
    std::function<void(LabReportInput &)> m_fillReport;

    QLabel *m_title = nullptr;
    LessonBrowser *m_text = nullptr;
    QWidget *m_form = nullptr;
    QGridLayout *m_grid = nullptr;
    std::vector<QLabel *> m_questionLabels;
    std::vector<QLineEdit *> m_edits;
    std::vector<QLabel *> m_measured;
    QPushButton *m_run = nullptr;
    QLabel *m_status = nullptr;
    LessonBrowser *m_questions = nullptr;
    QPlainTextEdit *m_notes = nullptr;
    QPushButton *m_export = nullptr;
    QString m_lessonDir; // where the compare line's projects are
    QWidget *m_inspectBox = nullptr;
    QLabel *m_inspectText = nullptr;
    QPushButton *m_compare = nullptr;
    QGridLayout *m_inspectGrid = nullptr;
    std::vector<QWidget *> m_inspectWidgets;   // the questions' rows, rebuilt per lesson
    std::vector<QLineEdit *> m_inspectAnswers; // by inspect question
    std::vector<QLabel *> m_inspectVerdicts;
};

} // namespace cuwb
