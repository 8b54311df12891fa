// ProblemsModel: a compile's diagnostics as a tree: one row per diagnostic, its notes
// ("detected during instantiation of ...") as child rows. A compile that could not run at all
// appears as one error without a location. After them, what a run of the launch would fail on
// (RunCheckController: a verification that does not compile, a file that does not fit its
// buffer), one error row each, named by its field.
#pragma once

#include "compiler/compileresult.h"
#include "launch/launchspec.h"

#include <QAbstractItemModel>

#include <vector>

namespace cuwb {

class ProblemsModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column {
        SeverityColumn,
        CodeColumn,
        MessageColumn,
        FileColumn,
        LineColumn,
        ColumnColumn,
        ColumnCount
    };
    enum Role {
        LineRole = Qt::UserRole + 1, // 1-based, 0 = none
        ColumnRole,                  // 1-based, 0 = none
        FileRole,                    // the file as NVRTC named it
        SeverityRole,                // int(Severity)
        SortRole,                    // what the proxy sorts by
    };

    explicit ProblemsModel(QObject *parent = nullptr);

    void setCompileResult(const CompileResult &result);
    void setDiagnostics(const std::vector<Diagnostic> &diagnostics);
    // The launch's findings, shown after the compile's diagnostics until the next findings.
    void setLaunchFindings(const std::vector<LaunchIssue> &findings);
    // Both the diagnostics and the findings.
    void clear();
    // Every row: the compile's diagnostics, then the findings.
    [[nodiscard]] const std::vector<Diagnostic> &diagnostics() const { return m_diagnostics; }
    [[nodiscard]] std::size_t findingCount() const { return m_findings.size(); }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const Diagnostic *diagnosticAt(const QModelIndex &index) const;
    void rebuild();

    std::vector<Diagnostic> m_compile;
    std::vector<Diagnostic> m_findings;
    std::vector<Diagnostic> m_diagnostics; // m_compile, then m_findings
};

} // namespace cuwb
