#include "gui/editor/sourceeditor.h"

#include "gui/common/qtconvert.h"
#include "gui/common/severityicons.h"
#include "gui/common/theme.h"
#include "gui/editor/cudacompletions.h"
#include "gui/editor/cudalexer.h"

#include <Qsci/qscistyle.h>
#include <Qsci/qscistyledtext.h>

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace cuwb {

namespace {

constexpr int kLineNumberMargin = 0;
constexpr int kSymbolMargin = 1;
constexpr int kFoldMargin = 2;

// Style numbers for annotations; far above the lexer's styles.
constexpr int kErrorAnnotationStyle = 200;
constexpr int kWarningAnnotationStyle = 201;
constexpr int kRemarkAnnotationStyle = 202;
constexpr int kInspectAnnotationStyle = 203;

// The colour of a heat level, 1..kHeatLevels, from cool to hot.
QColor heatColor(int level, int levels)
{
    const double t = levels > 1 ? double(level - 1) / double(levels - 1) : 1.0;
    const auto mix = [t](int a, int b) { return int(a + (b - a) * t + 0.5); };
    return QColor(mix(Theme::heatCool.red(), Theme::heatHot.red()),
                  mix(Theme::heatCool.green(), Theme::heatHot.green()),
                  mix(Theme::heatCool.blue(), Theme::heatHot.blue()));
}

int rank(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return 0;
    case Severity::Warning:
        return 1;
    case Severity::Remark:
        return 2;
    case Severity::Note:
        break;
    }
    return 3;
}

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

} // namespace

SourceEditor::SourceEditor(QWidget *parent)
    : QsciScintilla(parent)
    , m_lexer(new CudaLexer(this))
{
    setUtf8(true);
    setLexer(m_lexer);
    setUpMargins();
    setUpIndicatorsAndMarkers();
    setUpCompletion();

    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setBackspaceUnindents(true);
    setBraceMatching(SloppyBraceMatch);
    setMatchedBraceBackgroundColor(QColor(0xd7, 0xea, 0xd0));
    setMatchedBraceForegroundColor(Theme::text);
    setUnmatchedBraceForegroundColor(Theme::error);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(Theme::currentLine);
    setCaretForegroundColor(Theme::text);
    setEdgeMode(EdgeNone);
    setWrapMode(WrapNone);
    setEolMode(EolUnix);
    setAnnotationDisplay(AnnotationIndented);
    setScrollWidthTracking(true);
    SendScintilla(SCI_SETSCROLLWIDTH, 1);

    connect(this, &QsciScintilla::cursorPositionChanged, this,
            &SourceEditor::onCursorPositionChanged);
    connect(this, &QsciScintilla::linesChanged, this, [this] {
        // Keep the line-number margin wide enough for the last line number.
        const QString widest = QString::number(std::max(lines(), 999));
        setMarginWidth(kLineNumberMargin, QString(widest.size() + 1, QLatin1Char('9')));
    });
}

SourceEditor::~SourceEditor() = default;

void SourceEditor::setUpMargins()
{
    setMarginsFont(Theme::editorFont());
    setMarginsBackgroundColor(Theme::marginBackground);
    setMarginsForegroundColor(Theme::marginText);
    setMarginType(kLineNumberMargin, NumberMargin);
    setMarginLineNumbers(kLineNumberMargin, true);
    setMarginWidth(kLineNumberMargin, QStringLiteral("99999"));
    setMarginType(kSymbolMargin, SymbolMargin);
    setMarginWidth(kSymbolMargin, 20);
    setMarginSensitivity(kSymbolMargin, false);
    setFolding(BoxedTreeFoldStyle, kFoldMargin);
    setFoldMarginColors(Theme::marginBackground, Theme::marginBackground);
    // The heat strip sits between the fold margin and the text; it takes no room until an
    // inspection is shown.
    setMarginType(kHeatMargin, SymbolMargin);
    setMarginWidth(kHeatMargin, 0);
    setMarginSensitivity(kHeatMargin, false);
}

void SourceEditor::setUpIndicatorsAndMarkers()
{
    const int markerSize = std::min(16, QFontMetrics(Theme::editorFont()).height());
    markerDefine(SeverityIcons::pixmap(Severity::Error, markerSize), ErrorMarker);
    markerDefine(SeverityIcons::pixmap(Severity::Warning, markerSize), WarningMarker);
    markerDefine(SeverityIcons::pixmap(Severity::Remark, markerSize), RemarkMarker);
    markerDefine(SeverityIcons::spillPixmap(markerSize), SpillMarker);
    // Only the symbol margin shows our markers; the fold margin keeps the fold markers.
    const int ourMarkers =
        (1 << ErrorMarker) | (1 << WarningMarker) | (1 << RemarkMarker) | (1 << SpillMarker);
    setMarginMarkerMask(kSymbolMargin, ourMarkers);
    setMarginMarkerMask(kLineNumberMargin, 0);
    int heatMarkers = 0;
    for (int level = 1; level <= kHeatLevels; ++level) {
        const int marker = HeatMarkerFirst + level - 1;
        markerDefine(FullRectangle, marker);
        setMarkerBackgroundColor(heatColor(level, kHeatLevels), marker);
        setMarkerForegroundColor(heatColor(level, kHeatLevels), marker);
        heatMarkers |= 1 << marker;
    }
    setMarginMarkerMask(kHeatMargin, heatMarkers);
    markerDefine(Invisible, InspectTagMarker);

    const std::pair<int, QColor> squiggles[] = {
        {ErrorIndicator, Theme::error},
        {WarningIndicator, Theme::warning},
        {RemarkIndicator, Theme::remark},
    };
    for (const auto &[indicator, color] : squiggles) {
        indicatorDefine(SquiggleLowIndicator, indicator);
        setIndicatorForegroundColor(color, indicator);
        setIndicatorDrawUnder(false, indicator);
    }

    QFont annotationFont = Theme::editorFont();
    annotationFont.setPointSizeF(annotationFont.pointSizeF() * 0.9);
    const struct
    {
        int style;
        QColor color;
        QColor paper;
    } annotationStyles[] = {
        {kErrorAnnotationStyle, Theme::error, Theme::errorBackground},
        {kWarningAnnotationStyle, Theme::warning.darker(130), Theme::warningBackground},
        {kRemarkAnnotationStyle, Theme::remark.darker(120), Theme::remarkBackground},
        {kInspectAnnotationStyle, Theme::inspect, Theme::inspectBackground},
    };
    for (const auto &s : annotationStyles) {
        // QsciStyle registers itself with the editor's document when first applied.
        QsciStyle style(s.style, QString(), s.color, s.paper, annotationFont, true);
        style.apply(this);
    }
}

void SourceEditor::setUpCompletion()
{
    m_completions = new CudaCompletions(m_lexer);
    setAutoCompletionSource(AcsAll);
    setAutoCompletionThreshold(3);
    setAutoCompletionCaseSensitivity(true);
    setAutoCompletionReplaceWord(false);
    setAutoCompletionUseSingle(AcusNever);
    setCallTipsStyle(CallTipsNoContext);
    setCallTipsVisible(0);
}

void SourceEditor::clearDiagnostics()
{
    // Byte positions straight to Scintilla: QScintilla's line/index form walks characters,
    // which costs milliseconds on a 50,000-line file at every compile.
    const long length = SendScintilla(SCI_GETLENGTH);
    for (int indicator : {ErrorIndicator, WarningIndicator, RemarkIndicator}) {
        SendScintilla(SCI_SETINDICATORCURRENT, indicator);
        SendScintilla(SCI_INDICATORCLEARRANGE, 0L, length);
    }
    // Only what was set is cleared: Scintilla's clear-all calls visit every line, which
    // costs milliseconds per compile on a 50,000-line file.
    if (m_diagnosticCount > 0) {
        for (int marker : {ErrorMarker, WarningMarker, RemarkMarker})
            markerDeleteAll(marker);
    }
    const auto annotated = std::exchange(m_diagnosticAnnotations, {});
    for (const auto &entry : annotated)
        showAnnotation(entry.first);
    m_diagnosticCount = 0;
}

QString SourceEditor::lineText(int line) const
{
    QString result = text(line);
    while (result.endsWith(QLatin1Char('\n')) || result.endsWith(QLatin1Char('\r')))
        result.chop(1);
    return result;
}

int SourceEditor::indexOfByteColumn(int line, int column) const
{
    const QByteArray bytes = lineText(line).toUtf8();
    const qsizetype prefix = std::clamp<qsizetype>(column - 1, 0, bytes.size());
    return static_cast<int>(QString::fromUtf8(bytes.left(prefix)).size());
}

std::pair<int, int> SourceEditor::squiggleRange(int line, int column) const
{
    const QString textOfLine = lineText(line);
    const int length = static_cast<int>(textOfLine.size());
    const qsizetype bytes = textOfLine.toUtf8().size();
    if (column > 0 && column - 1 < bytes) {
        const int start = indexOfByteColumn(line, column);
        int end = start + 1;
        if (isWordChar(textOfLine.at(start))) {
            while (end < length && isWordChar(textOfLine.at(end)))
                ++end;
        }
        return {start, end};
    }
    if (column > 0 && length > 0)
        return {length - 1, length}; // reported past the end: the last character
    int start = 0;
    while (start < length && textOfLine.at(start).isSpace())
        ++start;
    return {start, length}; // no column: the whole line's text
}

void SourceEditor::setDiagnostics(const std::vector<Diagnostic> &diagnostics,
                                  const QString &fileName)
{
    clearDiagnostics();
    const std::string file = toStdString(fileName);

    // Several diagnostics on one line share one annotation, worst first.
    std::map<int, std::vector<const Diagnostic *>> byLine;
    for (const Diagnostic &diagnostic : diagnostics) {
        if (diagnostic.file != file || diagnostic.line <= 0 || diagnostic.line > lines())
            continue;
        byLine[diagnostic.line - 1].push_back(&diagnostic);
        ++m_diagnosticCount;
    }

    for (auto &[line, onLine] : byLine) {
        std::stable_sort(onLine.begin(), onLine.end(),
                         [](const Diagnostic *a, const Diagnostic *b) {
                             return rank(a->severity) < rank(b->severity);
                         });
        QList<QsciStyledText> annotation;
        for (const Diagnostic *diagnostic : onLine) {
            int marker = RemarkMarker;
            int indicator = RemarkIndicator;
            int style = kRemarkAnnotationStyle;
            if (diagnostic->severity == Severity::Error) {
                marker = ErrorMarker;
                indicator = ErrorIndicator;
                style = kErrorAnnotationStyle;
            } else if (diagnostic->severity == Severity::Warning) {
                marker = WarningMarker;
                indicator = WarningIndicator;
                style = kWarningAnnotationStyle;
            }
            markerAdd(line, marker);

            const auto [start, end] = squiggleRange(line, diagnostic->column);
            if (end > start)
                fillIndicatorRange(line, start, line, end, indicator);

            QString message =
                tr("%1: %2").arg(QString::fromLatin1(severityName(diagnostic->severity)),
                                 toQString(diagnostic->message));
            if (!diagnostic->code.empty())
                message += tr(" [%1]").arg(toQString(diagnostic->code));
            for (const Diagnostic &note : diagnostic->notes) {
                message += QLatin1Char('\n');
                message += tr("    note: %1").arg(toQString(note.message));
                if (note.line > 0)
                    message += tr(" (line %1)").arg(note.line);
            }
            if (!annotation.isEmpty())
                message.prepend(QLatin1Char('\n'));
            annotation.append(QsciStyledText(message, style));
        }
        m_diagnosticAnnotations[line] = annotation;
        showAnnotation(line);
    }
}

void SourceEditor::showAnnotation(int line)
{
    QList<QsciStyledText> annotation;
    if (const auto found = m_diagnosticAnnotations.find(line);
        found != m_diagnosticAnnotations.end())
        annotation = found->second;
    if (QString text = inspectTextAt(line); !text.isEmpty()) {
        if (!annotation.isEmpty())
            text.prepend(QLatin1Char('\n'));
        annotation.append(QsciStyledText(text, kInspectAnnotationStyle));
    }
    if (annotation.isEmpty())
        clearAnnotations(line);
    else
        annotate(line, annotation);
}

QString SourceEditor::inspectTextAt(int line) const
{
    auto *self = const_cast<SourceEditor *>(this);
    for (const InspectNote &note : m_inspectNotes) {
        if (self->SendScintilla(SCI_MARKERLINEFROMHANDLE, note.handle) == line)
            return note.text;
    }
    return {};
}

void SourceEditor::setHeat(const std::vector<std::pair<int, double>> &heat)
{
    // Wherever an edit moved them.
    if (m_heatShown) {
        for (int level = 1; level <= kHeatLevels; ++level)
            markerDeleteAll(HeatMarkerFirst + level - 1);
    }
    m_heatShown = false;
    for (const auto &[line, value] : heat) {
        if (line <= 0 || line > lines() || value <= 0.0)
            continue;
        const int level =
            std::clamp(int(std::ceil(std::min(value, 1.0) * kHeatLevels)), 1, kHeatLevels);
        markerAdd(line - 1, HeatMarkerFirst + level - 1);
        m_heatShown = true;
    }
    setMarginWidth(kHeatMargin, m_heatShown ? 8 : 0);
}

void SourceEditor::setInspectAnnotations(const std::map<int, QString> &annotations)
{
    // The lines the old annotations are on now, wherever an edit moved them.
    std::vector<int> previous;
    for (const InspectNote &note : m_inspectNotes) {
        previous.push_back(int(SendScintilla(SCI_MARKERLINEFROMHANDLE, note.handle)));
        markerDeleteHandle(note.handle);
    }
    m_inspectNotes.clear();
    std::vector<int> shown;
    for (const auto &[line, text] : annotations) {
        if (line <= 0 || line > lines() || text.isEmpty())
            continue;
        m_inspectNotes.push_back({markerAdd(line - 1, InspectTagMarker), text});
        shown.push_back(line - 1);
    }
    for (int line : previous) {
        if (line >= 0)
            showAnnotation(line);
    }
    for (int line : shown)
        showAnnotation(line);
}

void SourceEditor::clearInspection()
{
    setHeat({});
    setInspectAnnotations({});
}

bool SourceEditor::hasInspection() const
{
    return m_heatShown || !m_inspectNotes.empty();
}

int SourceEditor::heatLevel(int line) const
{
    if (line <= 0)
        return 0;
    const unsigned mask = const_cast<SourceEditor *>(this)->markersAtLine(line - 1);
    for (int level = kHeatLevels; level >= 1; --level) {
        if (mask & (1u << (HeatMarkerFirst + level - 1)))
            return level;
    }
    return 0;
}

QString SourceEditor::inspectAnnotation(int line) const
{
    return inspectTextAt(line - 1);
}

void SourceEditor::setKernels(const std::vector<KernelInfo> &kernels)
{
    markerDeleteAll(SpillMarker);
    for (const KernelInfo &kernel : kernels) {
        if (kernel.spills() && kernel.sourceLine > 0 && kernel.sourceLine <= lines())
            markerAdd(kernel.sourceLine - 1, SpillMarker);
    }
}

void SourceEditor::goToLocation(int line, int column)
{
    if (line <= 0)
        return;
    const int l = std::min(line - 1, std::max(0, lines() - 1));
    const int index = column > 0 ? indexOfByteColumn(l, column) : 0;
    setCursorPosition(l, index);
    ensureLineVisible(l);
    ensureCursorVisible();
    setFocus(Qt::OtherFocusReason);
}

int SourceEditor::cursorLine() const
{
    int line = 0;
    int index = 0;
    getCursorPosition(&line, &index);
    return line + 1;
}

int SourceEditor::diagnosticIndicatorAt(int line, int index) const
{
    const long position = positionFromLineIndex(line, index);
    for (int indicator : {ErrorIndicator, WarningIndicator, RemarkIndicator}) {
        if (const_cast<SourceEditor *>(this)->SendScintilla(SCI_INDICATORVALUEAT, indicator,
                                                            position) != 0)
            return indicator;
    }
    return -1;
}

void SourceEditor::resetZoom()
{
    zoomTo(0);
}

void SourceEditor::onCursorPositionChanged(int line, int index)
{
    Q_UNUSED(index)
    if (line == m_lastCursorLine)
        return;
    m_lastCursorLine = line;
    Q_EMIT cursorLineChanged(line + 1);
}

} // namespace cuwb
