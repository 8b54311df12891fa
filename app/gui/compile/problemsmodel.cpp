#include "gui/compile/problemsmodel.h"

#include "gui/common/qtconvert.h"
#include "gui/common/severityicons.h"
#include "gui/common/theme.h"

#include <QFileInfo>

namespace cuwb {

namespace {

// internalId of a top-level row is 0; a note's is its parent row + 1.
constexpr quintptr kTopLevel = 0;

QString severityText(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return ProblemsModel::tr("Error");
    case Severity::Warning:
        return ProblemsModel::tr("Warning");
    case Severity::Remark:
        return ProblemsModel::tr("Remark");
    case Severity::Note:
        break;
    }
    return ProblemsModel::tr("Note");
}

} // namespace

ProblemsModel::ProblemsModel(QObject *parent)
    : QAbstractItemModel(parent)
{}

void ProblemsModel::setCompileResult(const CompileResult &result)
{
    std::vector<Diagnostic> diagnostics = result.diagnostics;
    if (!result.failureMessage.empty()) {
        Diagnostic failure;
        failure.file = result.fileName;
        failure.severity = Severity::Error;
        failure.message = result.failureMessage;
        diagnostics.insert(diagnostics.begin(), failure);
    }
    // What the compile set aside or stood in for (host code, stand-in headers) is worth
    // knowing, and is a note: nothing to fix.
    for (const std::string &text : result.notes) {
        Diagnostic note;
        note.file = result.fileName;
        note.severity = Severity::Note;
        note.message = text;
        diagnostics.push_back(std::move(note));
    }
    setDiagnostics(diagnostics);
}

void ProblemsModel::setDiagnostics(const std::vector<Diagnostic> &diagnostics)
{
    m_compile = diagnostics;
    rebuild();
}

void ProblemsModel::setLaunchFindings(const std::vector<LaunchIssue> &findings)
{
    m_findings.clear();
    for (const LaunchIssue &finding : findings) {
        Diagnostic diagnostic;
        diagnostic.severity = Severity::Error;
        diagnostic.message = finding.field + ": " + finding.message;
        m_findings.push_back(std::move(diagnostic));
    }
    rebuild();
}

void ProblemsModel::clear()
{
    m_compile.clear();
    m_findings.clear();
    rebuild();
}

void ProblemsModel::rebuild()
{
    beginResetModel();
    m_diagnostics = m_compile;
    m_diagnostics.insert(m_diagnostics.end(), m_findings.begin(), m_findings.end());
    endResetModel();
}

const Diagnostic *ProblemsModel::diagnosticAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return nullptr;
    if (index.internalId() == kTopLevel) {
        if (index.row() < 0 || static_cast<std::size_t>(index.row()) >= m_diagnostics.size())
            return nullptr;
        return &m_diagnostics[static_cast<std::size_t>(index.row())];
    }
    const std::size_t parentRow = index.internalId() - 1;
    if (parentRow >= m_diagnostics.size())
        return nullptr;
    const std::vector<Diagnostic> &notes = m_diagnostics[parentRow].notes;
    if (index.row() < 0 || static_cast<std::size_t>(index.row()) >= notes.size())
        return nullptr;
    return &notes[static_cast<std::size_t>(index.row())];
}

QModelIndex ProblemsModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kTopLevel);
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex ProblemsModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kTopLevel);
}

int ProblemsModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_diagnostics.size());
    if (parent.column() != 0 || parent.internalId() != kTopLevel)
        return 0; // notes have no children
    const Diagnostic *diagnostic = diagnosticAt(parent);
    return diagnostic ? static_cast<int>(diagnostic->notes.size()) : 0;
}

int ProblemsModel::columnCount(const QModelIndex &parent) const
{
    Q_UNUSED(parent)
    return ColumnCount;
}

QVariant ProblemsModel::data(const QModelIndex &index, int role) const
{
    const Diagnostic *diagnostic = diagnosticAt(index);
    if (!diagnostic)
        return {};
    const bool isNote = index.internalId() != kTopLevel;
    const Severity severity = isNote ? Severity::Note : diagnostic->severity;

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return severityText(severity);
        case CodeColumn:
            return toQString(diagnostic->code);
        case MessageColumn:
            return toQString(diagnostic->message);
        case FileColumn:
            return QFileInfo(toQString(diagnostic->file)).fileName();
        case LineColumn:
            return diagnostic->line > 0 ? QVariant(diagnostic->line) : QVariant();
        case ColumnColumn:
            return diagnostic->column > 0 ? QVariant(diagnostic->column) : QVariant();
        default:
            return {};
        }
    case Qt::DecorationRole:
        if (index.column() == SeverityColumn)
            return SeverityIcons::icon(severity);
        return {};
    case Qt::ToolTipRole: {
        QString tip = toQString(diagnostic->message);
        if (!diagnostic->code.empty())
            tip += tr(" [%1]").arg(toQString(diagnostic->code));
        if (!diagnostic->file.empty())
            tip += QLatin1Char('\n') + toQString(diagnostic->file);
        for (const Diagnostic &note : diagnostic->notes)
            tip += QLatin1Char('\n') + tr("note: %1").arg(toQString(note.message));
        return tip;
    }
    case Qt::ForegroundRole:
        if (isNote)
            return Theme::comment;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == LineColumn || index.column() == ColumnColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case LineRole:
        return diagnostic->line;
    case ColumnRole:
        return diagnostic->column;
    case FileRole:
        return toQString(diagnostic->file);
    case SeverityRole:
        return static_cast<int>(severity);
    case SortRole:
        switch (index.column()) {
        case SeverityColumn:
            return static_cast<int>(severity);
        case LineColumn:
            return diagnostic->line;
        case ColumnColumn:
            return diagnostic->column;
        default:
            return data(index, Qt::DisplayRole);
        }
    default:
        return {};
    }
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case CodeColumn:
        return tr("Code");
    case MessageColumn:
        return tr("Message");
    case FileColumn:
        return tr("File");
    case LineColumn:
        return tr("Line");
    case ColumnColumn:
        return tr("Column");
    default:
        return {};
    }
}

} // namespace cuwb
