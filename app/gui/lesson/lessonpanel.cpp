#include "gui/lesson/lessonpanel.h"

#include "util/boundedfile.h"

#include "gui/common/qtconvert.h"
#include "gui/common/theme.h"
#include "gui/lesson/labreport.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace cuwb {

namespace {

QString formatNs(double ns)
{
    if (ns < 1e3)
        return QStringLiteral("%1 ns").arg(ns, 0, 'f', 0);
    if (ns < 1e6)
        return QStringLiteral("%1 \u00b5s").arg(ns / 1e3, 0, 'f', ns < 1e4 ? 2 : 1);
    return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', ns < 1e7 ? 3 : 2);
}

bool isSpeedup(const std::string &id)
{
    return id.find("speedup") != std::string::npos || id.find("speed-up") != std::string::npos;
}

} // namespace

LessonPanel::LessonPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("lessonTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    m_text = new LessonBrowser(splitter);
    m_text->setOpenExternalLinks(true);
    m_text->setMinimumHeight(80);
    splitter->addWidget(m_text);

    // The predictions, the run and the questions scroll rather than set the dock's minimum
    // height: tabbed beside the Launch dock on a 1366×768 screen, a lesson with several
    // predictions would otherwise make the window taller than the screen.
    auto *formScroll = new QScrollArea(splitter);
    formScroll->setWidgetResizable(true);
    formScroll->setFrameShape(QFrame::NoFrame);
    formScroll->setMinimumHeight(120);
    m_form = new QWidget(formScroll);
    auto *formLayout = new QVBoxLayout(m_form);
    formLayout->setContentsMargins(0, 0, 0, 0);
    auto *predict = new QGroupBox(tr("Predict, then run"), m_form);
    m_grid = new QGridLayout(predict);
    m_grid->setColumnStretch(0, 3);
    m_grid->setColumnStretch(1, 2);
    m_grid->setColumnStretch(2, 3);
    formLayout->addWidget(predict);

    auto *runRow = new QHBoxLayout;
    m_run = new QPushButton(tr("Run the experiment"), m_form);
    m_run->setObjectName(QStringLiteral("lessonRun"));
    runRow->addWidget(m_run);
    m_status = new QLabel(m_form);
    m_status->setWordWrap(true);
    runRow->addWidget(m_status, 1);
    formLayout->addLayout(runRow);

    auto *questions = new QGroupBox(tr("Questions"), m_form);
    auto *questionsLayout = new QVBoxLayout(questions);
    m_questions = new LessonBrowser(questions);
    m_questions->setFrameShape(QFrame::NoFrame);
    m_questions->setMinimumHeight(70);
    m_questions->viewport()->setAutoFillBackground(false);
    questionsLayout->addWidget(m_questions, 2);
    m_notes = new QPlainTextEdit(questions);
    m_notes->setPlaceholderText(tr("Your answers and notes"));
    m_notes->setMinimumHeight(50);
    m_notes->setMaximumHeight(120);
    questionsLayout->addWidget(m_notes, 1);
    formLayout->addWidget(questions, 1);

    auto *inspect = new QGroupBox(tr("Inspect and compare"), m_form);
    m_inspectBox = inspect;
    auto *inspectLayout = new QVBoxLayout(inspect);
    m_inspectText = new QLabel(inspect);
    m_inspectText->setTextFormat(Qt::MarkdownText);
    m_inspectText->setWordWrap(true);
    inspectLayout->addWidget(m_inspectText);
    m_compare = new QPushButton(inspect);
    m_compare->setObjectName(QStringLiteral("lessonCompare"));
    inspectLayout->addWidget(m_compare, 0, Qt::AlignLeft);
    m_inspectGrid = new QGridLayout;
    m_inspectGrid->setColumnStretch(0, 3);
    m_inspectGrid->setColumnStretch(1, 1);
    inspectLayout->addLayout(m_inspectGrid);
    formLayout->addWidget(inspect);
    connect(m_compare, &QPushButton::clicked, this, [this] {
        if (!m_lesson || !m_lesson->comparison)
            return;
        const QDir dir(m_lessonDir);
        Q_EMIT compareRequested(dir.filePath(toQString(m_lesson->comparison->a)),
                                dir.filePath(toQString(m_lesson->comparison->b)));
    });

    auto *exportRow = new QHBoxLayout;
    exportRow->addStretch(1);
    m_export = new QPushButton(tr("Export lab report\u2026"), m_form);
    exportRow->addWidget(m_export);
    formLayout->addLayout(exportRow);

    formScroll->setWidget(m_form);
    splitter->addWidget(formScroll);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter, 1);

    connect(m_run, &QPushButton::clicked, this, &LessonPanel::startExperiment);
    connect(m_export, &QPushButton::clicked, this, &LessonPanel::exportWithDialog);
    clearLesson(tr("Open a sample project with a lesson (File \u25b8 Samples)."));
}

QString LessonPanel::loadLesson(const QString &lessonPath, const QString &projectPath)
{
    // Only a regular file of a lesson's size: a lesson.md that is /dev/zero, a FIFO or 50 MB
    // must not freeze the window (util/boundedfile.h).
    const BoundedRead read = readBoundedFile(lessonPath.toStdString(), kMaxLessonBytes, "lesson");
    if (!read.ok()) {
        const QString error = QString::fromStdString(read.error);
        clearLesson(error);
        return error;
    }
    const QByteArray bytes = QByteArray::fromStdString(read.text);
    const LessonParse parse = parseLesson(std::string_view(bytes.constData(), bytes.size()));
    if (!parse.ok()) {
        const QString error =
            tr("%1: %2").arg(QFileInfo(lessonPath).fileName(), toQString(parse.error));
        clearLesson(error);
        return error;
    }
    // Its images come from its own folder, known before the text is laid out.
    for (LessonBrowser *browser : {m_text, m_questions})
        browser->setLessonFolder(QFileInfo(lessonPath).path());
    setLesson(*parse.lesson, QString::fromUtf8(bytes), projectPath);
    m_lessonDir = QFileInfo(lessonPath).path();
    return {};
}

void LessonPanel::setLesson(const Lesson &lesson, const QString &markdown,
                            const QString &projectPath)
{
    m_lesson = lesson;
    m_markdown = markdown;
    m_projectPath = projectPath;
    m_lessonDir = projectPath.isEmpty() ? QString() : QFileInfo(projectPath).path();
    if (!m_lessonDir.isEmpty()) {
        for (LessonBrowser *browser : {m_text, m_questions})
            browser->setLessonFolder(m_lessonDir);
    }
    m_locked = false;
    m_sweep.reset();
    m_measurement.reset();
    m_title->setText(toQString(lesson.title));
    m_text->setMarkdown(toQString(lesson.intro) + QStringLiteral("\n\n### Try\n\n") +
                        toQString(lesson.tryText));
    QString questions;
    for (std::size_t i = 0; i < lesson.questions.size(); ++i)
        questions += QStringLiteral("%1. %2\n").arg(i + 1).arg(toQString(lesson.questions[i]));
    m_questions->setMarkdown(questions);
    m_notes->clear();
    m_form->setEnabled(true);
    rebuildForm();
    rebuildInspect();
    m_status->setText(tr("Write your predictions, then run the %1.")
                          .arg(toQString(lessonExperimentName(lesson.experiment))));
}

void LessonPanel::clearLesson(const QString &reason)
{
    m_lesson.reset();
    m_markdown.clear();
    m_projectPath.clear();
    m_locked = false;
    m_sweep.reset();
    m_measurement.reset();
    m_title->setText(tr("No lesson"));
    m_text->setPlainText(reason);
    m_questions->clear();
    m_notes->clear();
    rebuildForm();
    rebuildInspect();
    m_status->clear();
    m_form->setEnabled(false);
}

void LessonPanel::rebuildInspect()
{
    for (QWidget *widget : m_inspectWidgets)
        delete widget;
    m_inspectWidgets.clear();
    m_inspectAnswers.clear();
    m_inspectVerdicts.clear();
    const bool shown = m_lesson && (m_lesson->comparison || !m_lesson->inspectQuestions.empty());
    m_inspectBox->setVisible(shown);
    if (!shown)
        return;
    m_inspectText->setText(toQString(m_lesson->inspectText));
    m_inspectText->setVisible(!m_lesson->inspectText.empty());
    m_compare->setVisible(m_lesson->comparison.has_value());
    if (m_lesson->comparison)
        m_compare->setText(
            tr("Open the comparison: %1 against %2")
                .arg(toQString(m_lesson->comparison->a), toQString(m_lesson->comparison->b)));
    int row = 0;
    for (const InspectQuestion &question : m_lesson->inspectQuestions) {
        auto *label = new QLabel(toQString(question.question), m_inspectBox);
        label->setWordWrap(true);
        auto *answer = new QLineEdit(m_inspectBox);
        answer->setObjectName(QStringLiteral("inspectAnswer_") + toQString(question.id));
        answer->setPlaceholderText(tr("what Inspect shows"));
        auto *check = new QPushButton(tr("Check"), m_inspectBox);
        auto *verdict = new QLabel(m_inspectBox);
        verdict->setWordWrap(true);
        m_inspectGrid->addWidget(label, row, 0);
        m_inspectGrid->addWidget(answer, row, 1);
        m_inspectGrid->addWidget(check, row, 2);
        m_inspectGrid->addWidget(verdict, row + 1, 0, 1, 3);
        m_inspectWidgets.insert(m_inspectWidgets.end(), {label, answer, check, verdict});
        m_inspectAnswers.push_back(answer);
        m_inspectVerdicts.push_back(verdict);
        const QString id = toQString(question.id);
        connect(check, &QPushButton::clicked, this,
                [this, id, answer] { checkInspectAnswer(id, answer->text()); });
        connect(answer, &QLineEdit::returnPressed, this,
                [this, id, answer] { checkInspectAnswer(id, answer->text()); });
        row += 2;
    }
}

bool LessonPanel::checkInspectAnswer(const QString &id, const QString &answer)
{
    if (!m_lesson)
        return false;
    for (std::size_t i = 0; i < m_lesson->inspectQuestions.size(); ++i) {
        const InspectQuestion &question = m_lesson->inspectQuestions[i];
        if (toQString(question.id) != id)
            continue;
        if (m_inspectAnswers[i]->text() != answer)
            m_inspectAnswers[i]->setText(answer);
        const bool right = checkAnswer(question, toStdString(answer));
        QPalette palette = m_inspectVerdicts[i]->palette();
        palette.setColor(QPalette::WindowText, right ? Theme::string : Theme::error);
        m_inspectVerdicts[i]->setPalette(palette);
        m_inspectVerdicts[i]->setText(
            right ? tr("Right: that is what Inspect shows.")
                  : tr("Not what Inspect shows: open the comparison and look at the "
                       "findings and the lines again."));
        return right;
    }
    return false;
}

QString LessonPanel::inspectVerdict(const QString &id) const
{
    if (!m_lesson)
        return {};
    for (std::size_t i = 0; i < m_lesson->inspectQuestions.size(); ++i) {
        if (toQString(m_lesson->inspectQuestions[i].id) == id)
            return m_inspectVerdicts[i]->text();
    }
    return {};
}

void LessonPanel::rebuildForm()
{
    for (QLabel *label : m_questionLabels)
        delete label;
    for (QLineEdit *edit : m_edits)
        delete edit;
    for (QLabel *label : m_measured)
        delete label;
    m_questionLabels.clear();
    m_edits.clear();
    m_measured.clear();
    if (!m_lesson)
        return;
    QWidget *box = m_grid->parentWidget();
    const QStringList headers{tr("<b>Question</b>"), tr("<b>Your prediction</b>"),
                              tr("<b>Measured</b>")};
    for (int column = 0; column < headers.size(); ++column) {
        auto *header = new QLabel(headers[column], box);
        m_questionLabels.push_back(header);
        m_grid->addWidget(header, 0, column);
    }
    int row = 1;
    for (const Prediction &prediction : m_lesson->predictions) {
        auto *question = new QLabel(box);
        question->setTextFormat(Qt::MarkdownText);
        question->setText(toQString(prediction.question));
        question->setWordWrap(true);
        // A word longer than the column is cut, never widens the window (the whole text is
        // in the tooltip).
        question->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        question->setMinimumWidth(120);
        question->setToolTip(QStringLiteral("[%1] %2").arg(toQString(prediction.id),
                                                           toQString(prediction.question)));
        auto *edit = new QLineEdit(box);
        edit->setObjectName(QStringLiteral("prediction_") + toQString(prediction.id));
        edit->setPlaceholderText(tr("your prediction"));
        auto *measured = new QLabel(QStringLiteral("\u2014"), box);
        measured->setObjectName(QStringLiteral("measured_") + toQString(prediction.id));
        measured->setWordWrap(true);
        measured->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_grid->addWidget(question, row, 0);
        m_grid->addWidget(edit, row, 1);
        m_grid->addWidget(measured, row, 2);
        m_questionLabels.push_back(question);
        m_edits.push_back(edit);
        m_measured.push_back(measured);
        ++row;
    }
}

bool LessonPanel::setPrediction(const QString &id, const QString &value)
{
    if (!m_lesson)
        return false;
    for (std::size_t i = 0; i < m_lesson->predictions.size(); ++i)
        if (toQString(m_lesson->predictions[i].id) == id) {
            m_edits[i]->setText(value);
            return true;
        }
    return false;
}

QString LessonPanel::prediction(const QString &id) const
{
    if (m_lesson)
        for (std::size_t i = 0; i < m_lesson->predictions.size(); ++i)
            if (toQString(m_lesson->predictions[i].id) == id)
                return m_edits[i]->text();
    return {};
}

QString LessonPanel::measuredText(const QString &id) const
{
    if (m_lesson)
        for (std::size_t i = 0; i < m_lesson->predictions.size(); ++i)
            if (toQString(m_lesson->predictions[i].id) == id)
                return m_measured[i]->text() == QStringLiteral("\u2014") ? QString()
                                                                         : m_measured[i]->text();
    return {};
}

void LessonPanel::setMeasured(const QString &id, const QString &text)
{
    if (m_lesson)
        for (std::size_t i = 0; i < m_lesson->predictions.size(); ++i)
            if (toQString(m_lesson->predictions[i].id) == id)
                m_measured[i]->setText(text);
}

void LessonPanel::startExperiment()
{
    if (!m_lesson)
        return;
    m_locked = true;
    for (QLineEdit *edit : m_edits)
        edit->setReadOnly(true);
    m_run->setEnabled(false);
    for (QLabel *label : m_measured)
        label->setText(QStringLiteral("\u2026"));
    m_status->setText(tr("Predictions locked. Running the %1\u2026")
                          .arg(toQString(lessonExperimentName(m_lesson->experiment))));
    Q_EMIT experimentRequested(m_lesson->experiment);
}

void LessonPanel::showSweepResult(const SweepResult &result)
{
    if (!m_lesson)
        return;
    m_sweep = result;
    m_run->setEnabled(true);
    const std::optional<std::size_t> best = result.bestPoint();
    if (!best) {
        showExperimentFailed(result.error.empty() ? tr("The sweep measured no point.")
                                                  : toQString(result.error));
        return;
    }
    const SweepPointResult &bestPoint = result.points[*best];
    const double bestNs = bestPoint.measurement->statistics.medianNs;
    // The slowest measured point that verified (or was not verified).
    std::optional<std::size_t> slowest;
    for (std::size_t i = 0; i < result.points.size(); ++i) {
        const SweepPointResult &point = result.points[i];
        if (point.status != PointStatus::Measured || !point.measurement)
            continue;
        if (!slowest || point.measurement->statistics.medianNs >
                            result.points[*slowest].measurement->statistics.medianNs)
            slowest = i;
    }
    for (const Prediction &prediction : m_lesson->predictions) {
        QString text;
        if (isSpeedup(prediction.id) && slowest) {
            const SweepPointResult &slow = result.points[*slowest];
            const double ratio = slow.measurement->statistics.medianNs / bestNs;
            text = tr("%1\u00d7: the slowest point (%2, %3) over the best (%4, %5)")
                       .arg(ratio, 0, 'f', 2)
                       .arg(toQString(slow.point.label()),
                            formatNs(slow.measurement->statistics.medianNs),
                            toQString(bestPoint.point.label()), formatNs(bestNs));
        } else {
            text =
                tr("best: %1, median %2").arg(toQString(bestPoint.point.label()), formatNs(bestNs));
            if (const auto gbps = bestPoint.measurement->throughput.effectiveGBps)
                text += tr(" (%1 GB/s)").arg(*gbps, 0, 'f', 0);
        }
        setMeasured(toQString(prediction.id), text);
    }
    m_status->setText(result.cancelled
                          ? tr("The sweep was cancelled; measured so far beside your predictions.")
                          : tr("Measured beside your predictions. Now the questions."));
    Q_EMIT resultShown();
}

void LessonPanel::showMeasurement(const Measurement &measurement)
{
    if (!m_lesson)
        return;
    m_measurement = measurement;
    m_run->setEnabled(true);
    QString text = tr("median %1").arg(formatNs(measurement.statistics.medianNs));
    if (const auto gbps = measurement.throughput.effectiveGBps)
        text += tr(", %1 GB/s").arg(*gbps, 0, 'f', 0);
    for (const Prediction &prediction : m_lesson->predictions)
        setMeasured(toQString(prediction.id), text);
    m_status->setText(tr("Measured beside your predictions. Now the questions."));
    Q_EMIT resultShown();
}

void LessonPanel::showExperimentFailed(const QString &reason)
{
    m_run->setEnabled(true);
    for (QLabel *label : m_measured)
        label->setText(QStringLiteral("\u2014"));
    m_status->setText(tr("The experiment did not measure: %1").arg(reason));
}

void LessonPanel::setReportContext(std::function<void(LabReportInput &)> fill)
{
    m_fillReport = std::move(fill);
}

QString LessonPanel::exportReport(const QString &path) const
{
    if (!m_lesson)
        return tr("No lesson is open.");
    LabReportInput input;
    input.title = toQString(m_lesson->title);
    input.projectPath = m_projectPath;
    input.lessonMarkdown = m_markdown;
    input.sweep = m_sweep;
    input.measurement = m_measurement;
    for (std::size_t i = 0; i < m_lesson->predictions.size(); ++i) {
        const QString question = toQString(m_lesson->predictions[i].question);
        input.predictions.append({question, m_edits[i]->text()});
        input.measured.append({question, measuredText(toQString(m_lesson->predictions[i].id))});
    }
    QString notes;
    for (std::size_t i = 0; i < m_lesson->questions.size(); ++i)
        notes += QStringLiteral("%1. %2\n").arg(i + 1).arg(toQString(m_lesson->questions[i]));
    input.notes = notes + QStringLiteral("\n") + m_notes->toPlainText();
    input.createdAt = QDateTime::currentDateTimeUtc();
    if (m_fillReport)
        m_fillReport(input);
    return writeLabReport(input, path);
}

void LessonPanel::exportWithDialog()
{
    const QString start = m_projectPath.isEmpty() ? QString()
                                                  : QFileInfo(m_projectPath).absolutePath() +
                                                        QStringLiteral("/lab-report.html");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Lab Report"), start, tr("HTML (*.html)"));
    if (path.isEmpty())
        return;
    const QString error = exportReport(path);
    if (!error.isEmpty())
        m_status->setText(error);
    else
        Q_EMIT statusMessage(tr("Wrote the lab report %1").arg(path));
}

} // namespace cuwb
