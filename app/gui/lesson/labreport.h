// Lab report (issue 6): one self-contained HTML document a student hands in — the lesson, the
// kernel source, the configuration and device, the profiler chart (embedded as a PNG data URI),
// the sweep's results table or the measurement's figures, the student's predictions beside what
// was measured, and the notes. No external files: styles are inline, the chart is base64.
#pragma once

#include "measure/measurement.h"
#include "sweep/sweep.h"

#include <QDateTime>
#include <QImage>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace cuwb {

struct LabReportInput
{
    QString title;       // the lesson's title
    QString studentName; // may be empty
    QString projectPath;
    QString source; // the kernel source
    QString kernel;
    QString deviceName;     // "NVIDIA H200 (sm_90), driver 13.0"
    QString configuration;  // compile options and launch (grid, block, variables), plain text lines
    QString lessonMarkdown; // the lesson text
    std::optional<SweepResult> sweep;
    std::optional<Measurement> measurement;
    QImage chart;                               // the profiler chart, may be null
    QList<QPair<QString, QString>> predictions; // question, the student's answer
    QList<QPair<QString, QString>> measured;    // what was measured beside each prediction
    QString notes;                              // the student's notes / answers
    QDateTime createdAt;
};

// One HTML5 document (UTF-8), every user-supplied string escaped.
QString renderLabReport(const LabReportInput &input);
// Renders and writes atomically (QSaveFile). Empty on success, else an error sentence.
QString writeLabReport(const LabReportInput &input, const QString &path);

} // namespace cuwb
