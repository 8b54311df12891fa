// ProblemsModel: a compile's diagnostics as a tree: one row per diagnostic, its notes
// ("detected during instantiation of ...") as child rows. A compile that could not run at all
// appears as one error without a location.
#pragma once

#include "compiler/compileresult.h"

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
    void clear();
    [[nodiscard]] const std::vector<Diagnostic> &diagnostics() const { return m_diagnostics; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const Diagnostic *diagnosticAt(const QModelIndex &index) const;

    std::vector<Diagnostic> m_diagnostics;
};

} // namespace cuwb
