// CudaLexer: C++ highlighting plus CUDA's words. The word lists come from resources/cuda/:
// qualifiers join the C++ keywords, built-in variables and intrinsics form the second keyword
// set, and CUDA's types the "global classes" set, each with its own colour.
#pragma once

#include <Qsci/qscilexercpp.h>

#include <QByteArray>

namespace cuwb {

class CudaLexer : public QsciLexerCPP
{
    Q_OBJECT

public:
    explicit CudaLexer(QObject *parent = nullptr);

    const char *language() const override;
    const char *keywords(int set) const override;
    QString description(int style) const override;

private:
    void applyTheme();

    QByteArray m_primary;
    QByteArray m_secondary;
    QByteArray m_types;
};

} // namespace cuwb
