// SourceEditor: the CUDA source editor. Besides editing (highlighting, folding, brace
// matching, completion, zoom) it presents a compile's diagnostics for its own file: a squiggle
// from the reported column to the end of the token, a gutter marker per severity, an inline
// annotation under the line, and a spill marker on the lines of kernels that spill.
#pragma once

#include "compiler/diagnostic.h"
#include "compiler/kernelinfo.h"

#include <Qsci/qsciscintilla.h>

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
    enum Marker { ErrorMarker = 1, WarningMarker = 2, RemarkMarker = 3, SpillMarker = 4 };
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
    // NVRTC counts columns in bytes of the UTF-8 line; the editor indexes characters.
    // 0-based character index of a 1-based byte column (clamped to the line's length).
    int indexOfByteColumn(int line, int column) const;

    CudaLexer *m_lexer = nullptr;
    CudaCompletions *m_completions = nullptr;
    int m_lastCursorLine = -1;
    int m_diagnosticCount = 0;
    std::vector<int> m_annotatedLines;
};

} // namespace cuwb
