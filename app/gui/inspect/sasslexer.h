// SassLexer: highlighting for the SASS listing as the SASS view shows it (core/inspect/
// sasstext.h): instruction lines ("    0150  @P0 LDG.E.CONSTANT R7, desc[UR4][R6.64]") with
// their offset, predicate, opcode and operands, the note after a local-memory access
// ("// spill store, 8 bytes"), and the lines between them: the source line a run of
// instructions came from, branch labels and routine names.
#pragma once

#include <Qsci/qscilexercustom.h>

namespace cuwb {

class SassLexer : public QsciLexerCustom
{
    Q_OBJECT

public:
    enum Style {
        Default = 0,
        Offset = 1,
        Predicate = 2,
        Opcode = 3,
        Note = 4,       // "// spill store, 8 bytes"
        SourceLine = 5, // "transpose.cu:19: out[...] = ..."
        Label = 6,      // ".L_x_3:", a routine's name
    };

    explicit SassLexer(QObject *parent = nullptr);

    const char *language() const override;
    QString description(int style) const override;
    void styleText(int start, int end) override;

    // One style per byte of a line of the listing; public for tests.
    static QByteArray styleLine(const QByteArray &line);
};

} // namespace cuwb
