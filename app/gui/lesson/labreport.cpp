#include "gui/lesson/labreport.h"

#include <QBuffer>
#include <QByteArray>
#include <QDir>
#include <QLocale>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTextDocument>

#include <algorithm>

#ifndef CUWB_VERSION
#define CUWB_VERSION "unknown"
#endif

namespace cuwb {

namespace {

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

QString escStd(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString fixed(double value, int decimals)
{
    return QString::number(value, 'f', decimals);
}

// A duration in ns as "198.1 µs", "2.31 ms", "850 ns".
QString duration(double ns)
{
    if (ns >= 1e6)
        return fixed(ns / 1e6, 3) + QStringLiteral(" ms");
    if (ns >= 1e3)
        return fixed(ns / 1e3, 1) + QStringLiteral(" µs");
    return fixed(ns, 0) + QStringLiteral(" ns");
}

// Plain text as paragraphs: blank lines separate them, single line breaks are kept.
QString paragraphs(const QString &text)
{
    QString html;
    const QStringList blocks =
        text.split(QRegularExpression(QStringLiteral("\\n\\s*\\n")), Qt::SkipEmptyParts);
    for (const QString &block : blocks) {
        const QString trimmed = block.trimmed();
        if (trimmed.isEmpty())
            continue;
        html += QStringLiteral("<p>") +
                esc(trimmed).replace(QLatin1Char('\n'), QStringLiteral("<br>")) +
                QStringLiteral("</p>\n");
    }
    return html;
}

// The lesson's Markdown as HTML through QTextDocument: only the body's content is kept. Raw
// HTML in the Markdown is not honoured (MarkdownNoHTML), so the lesson cannot inject markup.
QString markdownHtml(const QString &markdown)
{
    QTextDocument document;
    document.setMarkdown(markdown,
                         QTextDocument::MarkdownFeatures(int(QTextDocument::MarkdownDialectGitHub) |
                                                         int(QTextDocument::MarkdownNoHTML)));
    QString html = document.toHtml();
    const qsizetype bodyTag = html.indexOf(QStringLiteral("<body"));
    if (bodyTag >= 0) {
        const qsizetype open = html.indexOf(QLatin1Char('>'), bodyTag);
        const qsizetype close = html.lastIndexOf(QStringLiteral("</body>"));
        if (open >= 0 && close > open)
            html = html.mid(open + 1, close - open - 1);
    }
    return html.trimmed() + QLatin1Char('\n');
}

QString chartDataUri(const QImage &chart)
{
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!chart.save(&buffer, "PNG"))
        return {};
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
}

QString sweepTable(const SweepResult &sweep)
{
    const std::optional<std::size_t> best = sweep.bestPoint();
    QString html = QStringLiteral("<table class=\"results\">\n<thead><tr>");
    for (const SweepAxis &axis : sweep.spec.axes)
        html += QStringLiteral("<th>") + escStd(axisName(axis.target)) + QStringLiteral("</th>");
    html += QStringLiteral("<th>status</th><th>median</th><th>min</th><th>max</th>"
                           "<th>GB/s</th><th>occupancy</th></tr></thead>\n<tbody>\n");
    for (std::size_t k = 0; k < sweep.points.size(); ++k) {
        const SweepPointResult &point = sweep.points[k];
        const bool isBest = best && *best == k;
        html += isBest ? QStringLiteral("<tr class=\"best\">") : QStringLiteral("<tr>");
        for (const SweepAxis &axis : sweep.spec.axes) {
            QString value;
            for (const auto &[target, text] : point.point.values) {
                if (target == axis.target)
                    value = QString::fromStdString(text);
            }
            html += QStringLiteral("<td>") + esc(value) + QStringLiteral("</td>");
        }
        QString status = QString::fromLatin1(pointStatusName(point.status));
        if (isBest)
            status += QStringLiteral(" ★ best");
        html += QStringLiteral("<td");
        if (!point.message.empty())
            html += QStringLiteral(" title=\"") + escStd(point.message) + QStringLiteral("\"");
        html += QStringLiteral(">") + esc(status) + QStringLiteral("</td>");
        if (point.measurement) {
            const SampleStatistics &s = point.measurement->statistics;
            html += QStringLiteral("<td>%1</td><td>%2</td><td>%3</td>")
                        .arg(duration(s.medianNs), duration(s.minNs), duration(s.maxNs));
            const auto &gbps = point.measurement->throughput.effectiveGBps;
            html += QStringLiteral("<td>") + (gbps ? fixed(*gbps, 0) : QString()) +
                    QStringLiteral("</td>");
        } else {
            html += QStringLiteral("<td></td><td></td><td></td><td></td>");
        }
        html += QStringLiteral("<td>") +
                (point.theoreticalOccupancy
                     ? fixed(*point.theoreticalOccupancy * 100.0, 0) + QStringLiteral(" %")
                     : QString()) +
                QStringLiteral("</td></tr>\n");
    }
    html += QStringLiteral("</tbody>\n</table>\n");
    if (best) {
        html += QStringLiteral("<p class=\"best-note\">Best point: ") +
                escStd(sweep.points[*best].point.label()) + QStringLiteral("</p>\n");
    }
    if (!sweep.error.empty())
        html +=
            QStringLiteral("<p class=\"error\">") + escStd(sweep.error) + QStringLiteral("</p>\n");
    return html;
}

QString measurementTable(const Measurement &m)
{
    const SampleStatistics &s = m.statistics;
    QString html = QStringLiteral("<table class=\"figures\">\n<tbody>\n");
    const auto row = [&html](const QString &name, const QString &value) {
        html += QStringLiteral("<tr><th>") + esc(name) + QStringLiteral("</th><td>") + esc(value) +
                QStringLiteral("</td></tr>\n");
    };
    row(QStringLiteral("samples"), QString::number(s.count));
    row(QStringLiteral("median"), duration(s.medianNs));
    row(QStringLiteral("mean"), duration(s.meanNs));
    row(QStringLiteral("min"), duration(s.minNs));
    row(QStringLiteral("max"), duration(s.maxNs));
    row(QStringLiteral("relative noise"), fixed(s.relativeNoise * 100.0, 2) + QStringLiteral(" %"));
    const Throughput &t = m.throughput;
    if (t.effectiveGBps)
        row(QStringLiteral("effective bandwidth"),
            fixed(*t.effectiveGBps, 0) + QStringLiteral(" GB/s"));
    if (t.percentOfPeak)
        row(QStringLiteral("of theoretical peak"),
            fixed(*t.percentOfPeak, 1) + QStringLiteral(" %"));
    if (t.percentOfCeiling)
        row(QStringLiteral("of copy ceiling"),
            fixed(*t.percentOfCeiling, 1) + QStringLiteral(" %"));
    if (t.gflops)
        row(QStringLiteral("GFLOP/s"), fixed(*t.gflops, 1));
    html += QStringLiteral("</tbody>\n</table>\n");
    return html;
}

const char *const kStyle = R"(
body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; font-size: 11pt;
       line-height: 1.45; color: #1a1a1a; max-width: 52em; margin: 2em auto; padding: 0 1em; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #bbb; padding-bottom: 0.15em; margin-top: 1.6em; }
.meta { color: #555; margin-top: 0; }
pre { font-family: "DejaVu Sans Mono", Consolas, monospace; font-size: 9pt; background: #f6f6f6;
      border: 1px solid #ddd; padding: 0.6em; white-space: pre-wrap; word-wrap: break-word; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 9.5pt; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #eee; }
table.predictions th, table.predictions td, table.figures th { text-align: left; }
tr.best td { background: #e3f4e1; font-weight: bold; }
img.chart { max-width: 100%; border: 1px solid #ddd; }
.error { color: #a00; }
footer { margin-top: 2.5em; border-top: 1px solid #bbb; color: #666; font-size: 9pt; }
@media print { body { margin: 0; max-width: none; } h2 { page-break-after: avoid; }
               pre, table, img { page-break-inside: avoid; } }
)";

} // namespace

QString renderLabReport(const LabReportInput &input)
{
    const QString title = input.title.isEmpty() ? QStringLiteral("Lab report") : input.title;
    QString html;
    html +=
        QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                       "<title>") +
        esc(title) + QStringLiteral("</title>\n<style>") + QString::fromUtf8(kStyle) +
        QStringLiteral("</style>\n</head>\n<body>\n");

    html +=
        QStringLiteral("<header>\n<h1>") + esc(title) + QStringLiteral("</h1>\n<p class=\"meta\">");
    QStringList meta;
    if (!input.studentName.isEmpty())
        meta << QStringLiteral("Student: ") + esc(input.studentName);
    if (input.createdAt.isValid())
        meta << esc(QLocale::c().toString(input.createdAt.toUTC(),
                                          QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
    if (!input.projectPath.isEmpty())
        meta << QStringLiteral("Project: ") + esc(input.projectPath);
    html += meta.join(QStringLiteral(" · ")) + QStringLiteral("</p>\n</header>\n");

    if (!input.lessonMarkdown.trimmed().isEmpty()) {
        html += QStringLiteral("<section class=\"lesson\">\n<h2>Lesson</h2>\n") +
                markdownHtml(input.lessonMarkdown) + QStringLiteral("</section>\n");
    }

    html += QStringLiteral("<section class=\"setup\">\n<h2>Device and configuration</h2>\n");
    html += QStringLiteral("<p><strong>Device:</strong> ") +
            (input.deviceName.isEmpty() ? QStringLiteral("unknown") : esc(input.deviceName)) +
            QStringLiteral("</p>\n");
    if (!input.kernel.isEmpty())
        html += QStringLiteral("<p><strong>Kernel:</strong> <code>") + esc(input.kernel) +
                QStringLiteral("</code></p>\n");
    if (!input.configuration.isEmpty())
        html += QStringLiteral("<pre class=\"configuration\">") + esc(input.configuration) +
                QStringLiteral("</pre>\n");
    html += QStringLiteral("</section>\n");

    html += QStringLiteral(
                "<section class=\"source\">\n<h2>Kernel source</h2>\n<pre class=\"source\">") +
            esc(input.source) + QStringLiteral("</pre>\n</section>\n");

    const bool hasChart = !input.chart.isNull();
    if (hasChart || input.sweep || input.measurement) {
        html += QStringLiteral("<section class=\"results\">\n<h2>Results</h2>\n");
        if (hasChart) {
            const QString uri = chartDataUri(input.chart);
            if (!uri.isEmpty())
                html +=
                    QStringLiteral("<p><img class=\"chart\" alt=\"profiler chart\" width=\"%1\" "
                                   "height=\"%2\" src=\"")
                        .arg(input.chart.width())
                        .arg(input.chart.height()) +
                    uri + QStringLiteral("\"></p>\n");
        }
        if (input.sweep)
            html += sweepTable(*input.sweep);
        else if (input.measurement)
            html += measurementTable(*input.measurement);
        html += QStringLiteral("</section>\n");
    }

    if (!input.predictions.isEmpty() || !input.measured.isEmpty()) {
        html += QStringLiteral(
            "<section class=\"predictions\">\n<h2>Predictions and measurements</h2>\n"
            "<table class=\"predictions\">\n<thead><tr><th>Question</th>"
            "<th>Prediction</th><th>Measured</th></tr></thead>\n<tbody>\n");
        const qsizetype rows = std::max(input.predictions.size(), input.measured.size());
        for (qsizetype k = 0; k < rows; ++k) {
            QString question;
            QString answer;
            QString measured;
            if (k < input.predictions.size()) {
                question = input.predictions[k].first;
                answer = input.predictions[k].second;
            }
            if (k < input.measured.size()) {
                if (question.isEmpty())
                    question = input.measured[k].first;
                measured = input.measured[k].second;
                if (!input.measured[k].first.isEmpty() && input.measured[k].first != question)
                    measured = input.measured[k].first + QStringLiteral(": ") + measured;
            }
            html += QStringLiteral("<tr><td>") + esc(question) + QStringLiteral("</td><td>") +
                    esc(answer) + QStringLiteral("</td><td>") + esc(measured) +
                    QStringLiteral("</td></tr>\n");
        }
        html += QStringLiteral("</tbody>\n</table>\n</section>\n");
    }

    if (!input.notes.trimmed().isEmpty()) {
        html += QStringLiteral("<section class=\"notes\">\n<h2>Notes</h2>\n") +
                paragraphs(input.notes) + QStringLiteral("</section>\n");
    }

    const QDateTime when =
        input.createdAt.isValid() ? input.createdAt : QDateTime::currentDateTimeUtc();
    html += QStringLiteral("<footer>\n<p>Generated by CUDA Workbench ") +
            esc(QString::fromLatin1(CUWB_VERSION)) + QStringLiteral(" on ") +
            esc(when.toUTC().toString(Qt::ISODate)) + QStringLiteral("</p>\n</footer>\n");
    html += QStringLiteral("</body>\n</html>\n");
    return html;
}

QString writeLabReport(const LabReportInput &input, const QString &path)
{
    if (path.isEmpty())
        return QStringLiteral("No file name was given for the lab report.");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return QStringLiteral("Could not write the lab report to %1: %2.")
            .arg(QDir::toNativeSeparators(path), file.errorString());
    }
    const QByteArray bytes = renderLabReport(input).toUtf8();
    if (file.write(bytes) != bytes.size()) {
        const QString error = file.errorString();
        file.cancelWriting();
        return QStringLiteral("Could not write the lab report to %1: %2.")
            .arg(QDir::toNativeSeparators(path), error);
    }
    if (!file.commit()) {
        return QStringLiteral("Could not save the lab report to %1: %2.")
            .arg(QDir::toNativeSeparators(path), file.errorString());
    }
    return {};
}

} // namespace cuwb
