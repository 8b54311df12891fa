// PtxLexer: highlighting for PTX assembly: directives (.entry, .reg, .loc), instructions with
// their type suffixes (ld.global.f32), registers (%r1, %tid.x), labels, numbers (including
// 0f3F800000 float literals), strings and comments.
#pragma once

#include <Qsci/qscilexercustom.h>

namespace cuwb {

class PtxLexer : public QsciLexerCustom
{
    Q_OBJECT

public:
    enum Style {
        Default = 0,
        Comment = 1,
        Directive = 2,
        Instruction = 3,
        Register = 4,
        Number = 5,
        Label = 6,
        String = 7,
        Predicate = 8,
    };

    explicit PtxLexer(QObject *parent = nullptr);

    const char *language() const override;
    QString description(int style) const override;
    void styleText(int start, int end) override;

    // Styles one line of PTX; public so the tokenizer can be tested without an editor.
    // Returns one style per byte; inBlockComment carries /* */ state across lines.
    static QByteArray styleLine(const QByteArray &line, bool &inBlockComment);
};

} // namespace cuwb
