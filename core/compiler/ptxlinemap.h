// PtxLineMap: which PTX lines were generated from which source lines, from the `.file` and
// `.loc` directives that -lineinfo puts in the PTX.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cuwb {

struct SourceLocation
{
    std::string file; // as named by the .file directive
    int line = 0;     // 1-based; 0 = none
    bool operator==(const SourceLocation &) const = default;
};

class PtxLineMap
{
public:
    PtxLineMap() = default;
    // mainFile: the name the main source was compiled under; only its lines count as "source".
    static PtxLineMap build(std::string_view ptx, std::string_view mainFile);

    // 1-based PTX line numbers generated from a 1-based source line of the main file.
    [[nodiscard]] std::vector<int> ptxLinesForSource(int sourceLine) const;
    // Source location a 1-based PTX line was generated from, or line 0 if none.
    [[nodiscard]] SourceLocation sourceForPtxLine(int ptxLine) const;
    [[nodiscard]] bool empty() const { return m_ptxToSource.empty(); }

private:
    std::vector<SourceLocation> m_ptxToSource;   // index = PTX line - 1
    std::vector<std::vector<int>> m_sourceToPtx; // index = source line - 1
};

} // namespace cuwb
