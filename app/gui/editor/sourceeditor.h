// SourceEditor: the CUDA source editor. Besides editing (highlighting, folding, brace
// matching, completion, zoom) it presents a compile's diagnostics for its own file: a squiggle
// from the reported column to the end of the token, a gutter marker per severity, an inline
// annotation under the line, and a spill marker on the lines of kernels that spill. An
// inspection adds a heat gutter beside the text (how hot each line ran) and its own annotations
// under the lines with findings, kept apart from the diagnostics' and shown after them.
#pragma once

#include "compiler/diagnostic.h"
#include "compiler/kernelinfo.h"

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyledtext.h>

#include <QList>
#include <QString>

#include <map>
#include <utility>
#include <vector>

namespace cuwb {

class CudaCompletions;
class CudaLexer;

class SourceEditor : public QsciScintilla
{
    Q_OBJECT

public:
    // Marker numbers (also the bit positions in markersAtLine()).
    enum Marker {
        ErrorMarker = 1,
        WarningMarker = 2,
        RemarkMarker = 3,
        SpillMarker = 4,
        HeatMarkerFirst = 5, // HeatMarkerFirst + level - 1 for levels 1..kHeatLevels
        // Invisible: tags the lines of the inspection's annotations, which move with the text.
        InspectTagMarker = 13,
    };
    static constexpr int kHeatLevels = 8;
    // Indicator numbers of the squiggles.
    enum Indicator { ErrorIndicator = 8, WarningIndicator = 9, RemarkIndicator = 10 };

    explicit SourceEditor(QWidget *parent = nullptr);
    ~SourceEditor() override;

    // Shows the diagnostics whose file is fileName (others belong to included headers),
    // replacing the ones shown before.
    void setDiagnostics(const std::vector<Diagnostic> &diagnostics, const QString &fileName);
    // Marks the declaration lines of kernels that spill registers.
    void setKernels(const std::vector<KernelInfo> &kernels);
    void clearDiagnostics();

    // An inspection's heat per 1-based line, 0..1 (the hottest line is 1), as a coloured strip
    // beside the text; lines not given stay blank. An empty list removes the strip.
    void setHeat(const std::vector<std::pair<int, double>> &heat);
    // An inspection's annotations under 1-based lines, after the line's diagnostics; an empty
    // map removes them.
    void setInspectAnnotations(const std::map<int, QString> &annotations);
    // Removes the heat and the inspection's annotations.
    void clearInspection();
    [[nodiscard]] bool hasInspection() const;
    // The heat level of a 1-based line: 0 for none, else 1..kHeatLevels.
    [[nodiscard]] int heatLevel(int line) const;
    // The inspection's annotation of a 1-based line; empty when none.
    [[nodiscard]] QString inspectAnnotation(int line) const;
    // The margin of the heat strip.
    static constexpr int kHeatMargin = 3;

    // Moves the cursor to a 1-based line and column and makes it visible.
    void goToLocation(int line, int column);
    // 1-based line of the cursor.
    [[nodiscard]] int cursorLine() const;
    // The squiggle indicator (ErrorIndicator...) at a 0-based line/index, or -1.
    [[nodiscard]] int diagnosticIndicatorAt(int line, int index) const;
    [[nodiscard]] int diagnosticCount() const { return m_diagnosticCount; }

    void resetZoom();

Q_SIGNALS:
    // 1-based line, emitted whenever the cursor moves to another line.
    void cursorLineChanged(int line);

private:
    void setUpMargins();
    void setUpIndicatorsAndMarkers();
    void setUpCompletion();
    void onCursorPositionChanged(int line, int index);
    QString lineText(int line) const;
    std::pair<int, int> squiggleRange(int line, int column) const;
    // Shows a 0-based line's annotation: its diagnostics, then the inspection's.
    void showAnnotation(int line);
    // NVRTC counts columns in bytes of the UTF-8 line; the editor indexes characters.
    // 0-based character index of a 1-based byte column (clamped to the line's length).
    int indexOfByteColumn(int line, int column) const;

    CudaLexer *m_lexer = nullptr;
    CudaCompletions *m_completions = nullptr;
    int m_lastCursorLine = -1;
    int m_diagnosticCount = 0;
    // The inspection's annotation of a 0-based line; empty when none.
    QString inspectTextAt(int line) const;

    // By 0-based line: the diagnostics' annotation.
    std::map<int, QList<QsciStyledText>> m_diagnosticAnnotations;
    // The inspection's annotations, each on the line its tag marker is on now (an edit moves
    // Scintilla's annotations with their lines).
    struct InspectNote
    {
        int handle = -1;
        QString text;
    };
    std::vector<InspectNote> m_inspectNotes;
    bool m_heatShown = false;
};

} // namespace cuwb
