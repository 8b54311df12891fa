#include "gui/inspect/sassview.h"

#include "gui/common/qtconvert.h"
#include "gui/common/severityicons.h"
#include "gui/common/theme.h"
#include "gui/inspect/sasslexer.h"

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cuwb {

namespace {

constexpr int kMarkerMargin = 0;
constexpr int kCountersMargin = 1;
// Margin text styles, far above the lexer's.
constexpr int kCountersStyle = 210;
constexpr int kCountersFindingStyle = 211;
// A line's memory figures stand out beyond this excess over the ideal, as the findings do.
constexpr double kExcessRatio = 1.25;

// "8192", "65.5k", "2.10M", "1.07G".
QString compactCount(std::uint64_t count)
{
    const double value = double(count);
    if (value < 10000.0)
        return QString::number(count);
    const struct
    {
        double scale;
        char suffix;
    } units[] = {{1e9, 'G'}, {1e6, 'M'}, {1e3, 'k'}};
    for (const auto &unit : units) {
        if (value >= unit.scale) {
            const double scaled = value / unit.scale;
            return QString::number(scaled, 'f', scaled < 10.0 ? 2 : (scaled < 100.0 ? 1 : 0)) +
                   QLatin1Char(unit.suffix);
        }
    }
    return QString::number(count);
}

// The memory column: global sectors per request against the ideal, or shared-memory conflicts.
QString memoryFigure(const CounterTotals &t, bool &excess)
{
    excess = false;
    if (t.globalRequests > 0) {
        excess = double(t.globalSectors) > double(t.globalSectorsIdeal) * kExcessRatio;
        return QStringLiteral("%1/%2")
            .arg(t.sectorsPerRequest(), 0, 'f', 1)
            .arg(t.idealSectorsPerRequest(), 0, 'f', 1);
    }
    if (t.sharedRequests > 0 && t.sharedWavefrontsIdeal > 0) {
        excess = double(t.sharedWavefronts) > double(t.sharedWavefrontsIdeal) * kExcessRatio;
        return QStringLiteral("%1-way").arg(std::round(t.bankConflictWays()), 0, 'f', 0);
    }
    if (t.localRequests > 0) {
        excess = true;
        return QStringLiteral("local");
    }
    return {};
}

} // namespace

SassView::SassView(QWidget *parent)
    : QWidget(parent)
    , m_functions(new QComboBox(this))
    , m_mix(new QLabel(this))
    , m_counters(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_listing(new QsciScintilla(this))
    , m_lexer(new SassLexer(this))
    , m_message(new QLabel(this))
{
    m_functions->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_functions->setMinimumContentsLength(12);
    m_functions->setToolTip(tr("The function whose SASS is shown"));
    m_mix->setWordWrap(true);
    m_mix->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_mix->setToolTip(tr("The instructions of the function's code by class: counts of the code, "
                         "not of executed instructions (a loop body counts once)"));
    m_counters->setWordWrap(true);
    m_counters->setVisible(false);

    m_listing->setUtf8(true);
    m_listing->setLexer(m_lexer);
    m_listing->setReadOnly(true);
    m_listing->setMarginsFont(Theme::editorFont());
    m_listing->setMarginsBackgroundColor(Theme::marginBackground);
    m_listing->setMarginsForegroundColor(Theme::marginText);
    m_listing->setMargins(2);
    m_listing->setMarginType(kMarkerMargin, QsciScintilla::SymbolMargin);
    m_listing->setMarginWidth(kMarkerMargin, 18);
    m_listing->setMarginType(kCountersMargin, QsciScintilla::TextMarginRightJustified);
    m_listing->setMarginWidth(kCountersMargin, 0);
    m_listing->setMarginMarkerMask(kCountersMargin, 0);
    m_listing->setMarginMarkerMask(kMarkerMargin, (1 << CorrelatedArrow) | (1 << SpillMarker) |
                                                      (1 << LocalMarker));
    m_listing->markerDefine(QsciScintilla::Background, CorrelatedBackground);
    m_listing->setMarkerBackgroundColor(Theme::correlated, CorrelatedBackground);
    m_listing->markerDefine(QsciScintilla::RightTriangle, CorrelatedArrow);
    m_listing->setMarkerBackgroundColor(Theme::correlatedMarker, CorrelatedArrow);
    m_listing->setMarkerForegroundColor(Theme::correlatedMarker.darker(130), CorrelatedArrow);
    const int markerSize = std::min(14, QFontMetrics(Theme::editorFont()).height());
    m_listing->markerDefine(SeverityIcons::spillPixmap(markerSize), SpillMarker);
    m_listing->markerDefine(QsciScintilla::Circle, LocalMarker);
    m_listing->setMarkerBackgroundColor(Theme::warning, LocalMarker);
    m_listing->setMarkerForegroundColor(Theme::warning.darker(130), LocalMarker);
    m_listing->setCaretLineVisible(true);
    m_listing->setCaretLineBackgroundColor(Theme::currentLine);
    m_listing->setCaretWidth(0);
    m_listing->setWrapMode(QsciScintilla::WrapNone);
    m_listing->setScrollWidthTracking(true);
    m_listing->SendScintilla(QsciScintillaBase::SCI_SETSCROLLWIDTH, 1);
    m_listing->setFolding(QsciScintilla::NoFoldStyle);
    QFont marginFont = Theme::editorFont();
    QsciStyle counters(kCountersStyle, QString(), Theme::marginText.darker(150),
                       Theme::marginBackground, marginFont);
    counters.apply(m_listing);
    QsciStyle finding(kCountersFindingStyle, QString(), Theme::error, Theme::errorBackground,
                      Theme::editorFont(QFont::Bold));
    finding.apply(m_listing);

    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setContentsMargins(10, 10, 10, 10);
    m_message->setAutoFillBackground(true);
    m_stack->addWidget(m_listing);
    m_stack->addWidget(m_message);

    // The kernel's name above its mix, each across the pane: the pane is often narrow.
    auto *header = new QHBoxLayout;
    header->setContentsMargins(6, 4, 6, 2);
    header->addWidget(m_functions);
    header->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    m_mix->setContentsMargins(8, 0, 8, 4);
    layout->addWidget(m_mix);
    m_counters->setContentsMargins(8, 0, 8, 4);
    layout->addWidget(m_counters);
    layout->addWidget(m_stack, 1);

    connect(m_functions, &QComboBox::currentIndexChanged, this, &SassView::showFunction);
    connect(m_listing, &QsciScintilla::cursorPositionChanged, this,
            &SassView::onCursorPositionChanged);
    showMessage(tr("SASS appears here after a successful compile."));
}

bool SassView::hasListing() const
{
    return m_document && m_document->ok() && m_stack->currentWidget() == m_listing;
}

QString SassView::mixText() const
{
    return m_mix->text();
}

QString SassView::messageText() const
{
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

QString SassView::countersText() const
{
    return m_counters->isVisibleTo(this) ? m_counters->text() : QString();
}

const SassFunctionText *SassView::functionText() const
{
    if (!m_document || m_function < 0 || std::size_t(m_function) >= m_document->functions.size())
        return nullptr;
    return &m_document->functions[std::size_t(m_function)];
}

void SassView::showMessage(const QString &message)
{
    m_message->setText(message);
    m_stack->setCurrentWidget(m_message);
    m_highlighted.clear();
    // What is shown belongs to no listing until the next document comes.
    const QSignalBlocker blocker(m_functions);
    m_functions->clear();
    m_functions->setVisible(false);
    m_mix->clear();
    m_counters->setVisible(false);
    m_function = -1;
}

void SassView::setDocument(const std::shared_ptr<const SassDocument> &document)
{
    const QString previous = m_functions->currentText();
    m_document = document;
    if (!document) {
        showMessage(tr("SASS appears here after a successful compile."));
        Q_EMIT documentShown();
        return;
    }
    if (!document->ok()) {
        const SassDisassembly &disassembly = *document->disassembly;
        QString text;
        switch (disassembly.status) {
        case SassStatus::NoTool:
            text = tr("No SASS: %1").arg(toQString(disassembly.message));
            break;
        case SassStatus::NoCubin:
            text = tr("No SASS: %1.").arg(toQString(disassembly.message));
            break;
        case SassStatus::ToolFailed:
        case SassStatus::Ok:
            text = tr("nvdisasm failed: %1").arg(toQString(disassembly.message));
            break;
        }
        showMessage(text);
        Q_EMIT documentShown();
        return;
    }
    if (document->functions.empty()) {
        showMessage(tr("The module has no functions to show."));
        Q_EMIT documentShown();
        return;
    }
    m_stack->setCurrentWidget(m_listing);
    m_functions->setVisible(true);
    {
        const QSignalBlocker blocker(m_functions);
        m_functions->clear();
        for (const SassFunctionText &text : document->functions) {
            const SassFunction &function =
                document->listing().functions[std::size_t(text.function)];
            QString title = toQString(function.readableName);
            if (!function.entry)
                title = tr("%1 (device function)").arg(title);
            m_functions->addItem(title);
        }
    }
    // The same function as before a recompile, else the one with the source line, else the
    // first.
    int index = m_functions->findText(previous);
    if (index < 0)
        index = 0;
    if (m_sourceLine > 0 && !document->mainFile.empty()) {
        const std::vector<SassInstructionRef> refs =
            instructionsForLine(document->listing(), document->mainFile, m_sourceLine, true);
        const bool inShown = std::any_of(refs.begin(), refs.end(), [&](const auto &ref) {
            return ref.function == document->functions[std::size_t(index)].function;
        });
        if (!refs.empty() && !inShown) {
            for (std::size_t f = 0; f < document->functions.size(); ++f) {
                if (document->functions[f].function == refs.front().function)
                    index = int(f);
            }
        }
    }
    m_function = -1;
    {
        const QSignalBlocker blocker(m_functions);
        m_functions->setCurrentIndex(index);
    }
    showFunction(index);
    Q_EMIT documentShown();
}

void SassView::setCurrentFunction(int index)
{
    m_functions->setCurrentIndex(index);
}

void SassView::showFunction(int index)
{
    if (!m_document || !m_document->ok() || index < 0 ||
        std::size_t(index) >= m_document->functions.size())
        return;
    const bool sameFunction = index == m_function;
    m_function = index;
    const SassFunctionText &text = m_document->functions[std::size_t(index)];
    const SassFunction &function = m_document->listing().functions[std::size_t(text.function)];
    QString mix = toQString(formatMixLine(text.mix.total));
    mix += tr("; local memory: %1").arg(toQString(formatLocalMemory(text.mix.total)));
    m_mix->setText(mix);

    const QString listing = toQString(text.text.text);
    if (!sameFunction || m_listing->text() != listing) {
        const int firstLine = sameFunction ? m_listing->firstVisibleLine() : 0;
        m_settingText = true;
        m_listing->setText(listing);
        m_settingText = false;
        // setText() leaves the cursor at the start, and QScintilla reports that move only when
        // it next paints: it is not the user's.
        m_cursorLine = 0;
        m_listing->setFirstVisibleLine(std::min(firstLine, std::max(0, m_listing->lines() - 1)));
    }
    m_listing->markerDeleteAll(SpillMarker);
    m_listing->markerDeleteAll(LocalMarker);
    for (std::size_t i = 0; i < function.instructions.size(); ++i) {
        const SassInstruction &instruction = function.instructions[i];
        const int line = text.textLineOfInstruction[i];
        if (line <= 0 || instruction.klass != SassClass::LocalMemory)
            continue;
        m_listing->markerAdd(line - 1, instruction.spill ? SpillMarker : LocalMarker);
    }
    showCounters();
    highlight();
}

void SassView::showSourceLine(int sourceLine)
{
    m_sourceLine = sourceLine;
    if (!hasListing()) {
        m_highlighted.clear();
        return;
    }
    // Switch to the function that has this line when the one shown has not.
    if (sourceLine > 0 && !m_document->mainFile.empty()) {
        const std::vector<SassInstructionRef> refs =
            instructionsForLine(m_document->listing(), m_document->mainFile, sourceLine, true);
        const SassFunctionText *shown = functionText();
        const bool inShown = shown && std::any_of(refs.begin(), refs.end(), [&](const auto &ref) {
                                 return ref.function == shown->function;
                             });
        if (!refs.empty() && !inShown) {
            for (std::size_t f = 0; f < m_document->functions.size(); ++f) {
                if (m_document->functions[f].function == refs.front().function) {
                    m_functions->setCurrentIndex(int(f)); // shows it and highlights
                    return;
                }
            }
        }
    }
    highlight();
}

void SassView::highlight()
{
    m_listing->markerDeleteAll(CorrelatedBackground);
    m_listing->markerDeleteAll(CorrelatedArrow);
    m_highlighted.clear();
    const SassFunctionText *text = functionText();
    if (!text || m_sourceLine <= 0 || m_document->mainFile.empty())
        return;
    for (const SassInstructionRef &ref :
         instructionsForLine(m_document->listing(), m_document->mainFile, m_sourceLine, true)) {
        if (ref.function != text->function)
            continue;
        const int line = text->textLineOfInstruction[std::size_t(ref.instruction)];
        if (line > 0)
            m_highlighted.push_back(line);
    }
    std::sort(m_highlighted.begin(), m_highlighted.end());
    for (int line : m_highlighted) {
        m_listing->markerAdd(line - 1, CorrelatedBackground);
        m_listing->markerAdd(line - 1, CorrelatedArrow);
    }
    if (m_highlighted.empty())
        return;
    // Into view: the first of them, or the first whose memory traffic an inspection flagged
    // (the instruction that makes the line slow).
    int anchor = m_highlighted.front();
    for (int line : m_highlighted) {
        if (m_excessLines.count(line)) {
            anchor = line;
            break;
        }
    }
    const int last = m_highlighted.back();
    const int top = m_listing->firstVisibleLine();
    const int visible =
        std::max(1, int(m_listing->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN)));
    const bool shown = m_highlighted.front() - 1 >= top && last - 1 < top + visible;
    if (!shown && (anchor - 1 < top || anchor - 1 >= top + visible))
        m_listing->setFirstVisibleLine(std::max(0, anchor - 1 - std::min(4, visible / 4)));
}

void SassView::setCounters(const ListingCounters &counters)
{
    m_listingCounters = counters;
    m_haveCounters = true;
    showCounters();
    highlight(); // the flagged instruction of the line into view
}

void SassView::clearCounters()
{
    m_listingCounters = {};
    m_haveCounters = false;
    showCounters();
}

void SassView::showCounters()
{
    m_listing->clearMarginText();
    m_marginTexts.clear();
    m_excessLines.clear();
    m_countersShown = false;
    m_listing->setMarginWidth(kCountersMargin, 0);
    const SassFunctionText *text = functionText();
    if (!m_haveCounters || !text) {
        m_counters->setVisible(false);
        return;
    }
    m_counters->setVisible(true);
    if (!m_listingCounters.matches()) {
        m_counters->setText(tr("The inspection's figures are not shown: %1.")
                                .arg(toQString(m_listingCounters.mismatch)));
        return;
    }
    if (m_listingCounters.functionIndex != text->function) {
        m_counters->setText(tr("The inspection's figures are for %1; choose it above to see them.")
                                .arg(toQString(demangleSassName(m_listingCounters.function))));
        return;
    }
    const bool sampled = m_listingCounters.stallSamples > 0;
    m_counters->setText(sampled ? tr("Inspected: warp instructions executed \u00b7 global sectors "
                                     "per request / ideal, or shared n-way conflict \u00b7 share "
                                     "of the PC samples")
                                : tr("Inspected: warp instructions executed \u00b7 global sectors "
                                     "per request / ideal, or shared n-way conflict"));
    m_counters->setToolTip(tr("The inspection's figures beside each instruction it counted; red "
                              "where the memory traffic is over 1.25\u00d7 the ideal"));
    const SassFunction &function = m_document->listing().functions[std::size_t(text->function)];
    QString widest;
    for (std::size_t i = 0; i < function.instructions.size(); ++i) {
        const int line = text->textLineOfInstruction[i];
        const InstructionFigures *figures = m_listingCounters.at(function.instructions[i].offset);
        if (line <= 0 || !figures)
            continue;
        bool excess = false;
        const QString memory = memoryFigure(figures->totals, excess);
        QString cell = QStringLiteral("%1 %2")
                           .arg(compactCount(figures->totals.instructions), 6)
                           .arg(memory, 9);
        if (sampled) {
            const double share =
                100.0 * double(figures->stallSamples) / double(m_listingCounters.stallSamples);
            cell += figures->stallSamples > 0 ? QStringLiteral(" %1%").arg(share, 5, 'f', 1)
                                              : QString(7, QLatin1Char(' '));
        }
        cell += QLatin1Char(' ');
        m_listing->setMarginText(line - 1, cell, excess ? kCountersFindingStyle : kCountersStyle);
        m_marginTexts[line] = cell;
        if (excess)
            m_excessLines.insert(line);
        if (cell.size() > widest.size())
            widest = cell;
    }
    if (widest.isEmpty())
        return;
    m_countersShown = true;
    m_listing->setMarginWidth(kCountersMargin, widest + QLatin1Char('0'));
}

QString SassView::countersAt(int listingLine) const
{
    if (!m_countersShown)
        return {};
    const auto found = m_marginTexts.find(listingLine);
    return found == m_marginTexts.end() ? QString() : found->second;
}

void SassView::onCursorPositionChanged(int line, int index)
{
    Q_UNUSED(index)
    const SassFunctionText *text = functionText();
    if (m_settingText || line == m_cursorLine)
        return;
    m_cursorLine = line;
    if (!text || line < 0 || std::size_t(line) >= text->text.lines.size())
        return;
    const SassTextLine &shown = text->text.lines[std::size_t(line)];
    const std::string &mainFile = m_document->mainFile;
    if (mainFile.empty())
        return;
    if (shown.source.line > 0 && shown.source.file == mainFile) {
        Q_EMIT sourceLineActivated(shown.source.line);
        return;
    }
    // Code inlined from a header: the call site in the main source.
    if (shown.instruction < 0)
        return;
    const SassFunction &function = m_document->listing().functions[std::size_t(text->function)];
    for (const SourceLocation &site :
         function.instructions[std::size_t(shown.instruction)].inlinedAt) {
        if (site.file == mainFile && site.line > 0) {
            Q_EMIT sourceLineActivated(site.line);
            return;
        }
    }
}

} // namespace cuwb
