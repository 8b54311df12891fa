#include "gui/launch/argumentsmodel.h"
#include "gui/common/theme.h"

#include "gui/common/expressionfield.h"
#include "gui/common/qtconvert.h"

#include <QColor>
#include <QFileInfo>
#include <QLocale>
#include <QPalette>

#include <algorithm>

namespace cuwb {

namespace {

ArgumentSpec defaultArgumentFor(const KernelParameter &parameter)
{
    ArgumentSpec argument;
    argument.parameter = parameter.name;
    argument.isBuffer = parameter.isPointer;
    argument.elementType = parameter.elementType;
    argument.role = parameter.isConst ? BufferRole::In : BufferRole::Out;
    return argument;
}

} // namespace

ArgumentsModel::ArgumentsModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void ArgumentsModel::setArguments(const std::vector<KernelParameter> &parameters,
                                  const std::vector<ArgumentSpec> &arguments)
{
    beginResetModel();
    m_parameters = parameters;
    m_arguments.clear();
    for (const KernelParameter &parameter : parameters) {
        const auto found =
            std::find_if(arguments.begin(), arguments.end(), [&](const ArgumentSpec &argument) {
                return argument.parameter == parameter.name;
            });
        m_arguments.push_back(found != arguments.end() ? *found : defaultArgumentFor(parameter));
    }
    evaluate();
    endResetModel();
}

void ArgumentsModel::setVariables(const Variables &variables)
{
    m_variables = variables;
    evaluate();
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, ValueColumn), index(rowCount() - 1, ValueColumn));
}

void ArgumentsModel::evaluate()
{
    m_values.clear();
    for (const ArgumentSpec &argument : m_arguments)
        m_values.push_back(
            evaluateExpression(argument.isBuffer ? argument.count : argument.value, m_variables));
}

void ArgumentsModel::changed(int row)
{
    evaluate();
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    Q_EMIT argumentsEdited();
}

void ArgumentsModel::setInit(int row, const BufferInit &init)
{
    if (row < 0 || row >= rowCount() || m_arguments[std::size_t(row)].init == init)
        return;
    m_arguments[std::size_t(row)].init = init;
    changed(row);
}

QStringList ArgumentsModel::otherBuffers(int row) const
{
    QStringList names;
    for (std::size_t i = 0; i < m_arguments.size(); ++i) {
        if (int(i) != row && m_arguments[i].isBuffer && m_parameters[i].supported)
            names << toQString(m_arguments[i].parameter);
    }
    return names;
}

QStringList ArgumentsModel::roleChoices()
{
    return {tr("in"), tr("out"), tr("inout")};
}

QStringList ArgumentsModel::initChoices()
{
    return {tr("zeros"),         tr("constant"), tr("range"),         tr("uniform random"),
            tr("normal random"), tr("file"),     tr("copy of buffer")};
}

QString ArgumentsModel::initSummary(const BufferInit &init)
{
    switch (init.kind) {
    case InitKind::Zeros:
        return tr("zeros");
    case InitKind::Constant:
        return tr("constant %1").arg(toQString(init.value));
    case InitKind::Range:
        return tr("range %1 + i\u00b7%2").arg(toQString(init.start), toQString(init.step));
    case InitKind::Uniform:
        return tr("uniform [%1, %2), seed %3")
            .arg(toQString(init.low), toQString(init.high))
            .arg(init.seed);
    case InitKind::Normal:
        return tr("normal \u03bc=%1 \u03c3=%2, seed %3")
            .arg(toQString(init.mean), toQString(init.stddev))
            .arg(init.seed);
    case InitKind::File:
        return init.file.empty() ? tr("file (none chosen)")
                                 : tr("file %1").arg(QFileInfo(toQString(init.file)).fileName());
    case InitKind::CopyOf:
        return init.copyOf.empty() ? tr("copy of (none chosen)")
                                   : tr("copy of %1").arg(toQString(init.copyOf));
    }
    return {};
}

int ArgumentsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_arguments.size());
}

int ArgumentsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ArgumentsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == ExpressionColumn)
        return tr("Element count of a buffer, or the value of a scalar; an expression over the "
                  "variables");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ParameterColumn:
        return tr("Parameter");
    case TypeColumn:
        return tr("Type");
    case ExpressionColumn:
        return tr("Count / value");
    case ValueColumn:
        return tr("=");
    case RoleColumn:
        return tr("Role");
    case ContentsColumn:
        return tr("Initial contents");
    default:
        return {};
    }
}

Qt::ItemFlags ArgumentsModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags result = QAbstractTableModel::flags(index);
    if (!index.isValid())
        return result;
    const std::size_t row = std::size_t(index.row());
    if (!m_parameters[row].supported)
        return result & ~Qt::ItemIsEnabled;
    const ArgumentSpec &argument = m_arguments[row];
    const bool editable =
        index.column() == ExpressionColumn || (argument.isBuffer && index.column() == RoleColumn) ||
        (argument.isBuffer && index.column() == ContentsColumn && argument.role != BufferRole::Out);
    if (editable)
        result |= Qt::ItemIsEditable;
    return result;
}

QVariant ArgumentsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::size_t row = std::size_t(index.row());
    const KernelParameter &parameter = m_parameters[row];
    const ArgumentSpec &argument = m_arguments[row];
    const ExpressionValue &value = m_values[row];
    const QString error =
        parameter.supported && !value.ok() ? ExpressionField::errorText(*value.error) : QString();

    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case ParameterColumn:
            return toQString(parameter.name);
        case TypeColumn:
            if (!parameter.supported)
                return toQString(parameter.typeText);
            // Compact; the declaration as written is in the tooltip.
            return QStringLiteral("%1%2%3").arg(
                parameter.isPointer && parameter.isConst ? QStringLiteral("const ") : QString(),
                toQString(parameter.elementType.name()),
                parameter.isPointer ? QStringLiteral("*") : QString());
        case ExpressionColumn:
            if (!parameter.supported)
                return role == Qt::DisplayRole ? toQString(parameter.unsupportedReason) : QString();
            return toQString(argument.isBuffer ? argument.count : argument.value);
        case ValueColumn:
            if (!parameter.supported || role == Qt::EditRole)
                return {};
            if (!error.isEmpty())
                return error;
            if (argument.isBuffer) {
                const double bytes = value.value * double(argument.elementType.sizeBytes());
                return tr("%1 (%2)").arg(
                    ExpressionField::valueText(value.value),
                    QLocale().formattedDataSize(qint64(std::max(0.0, bytes)), 1,
                                                QLocale::DataSizeTraditionalFormat));
            }
            return ExpressionField::valueText(value.value);
        case RoleColumn:
            if (!parameter.supported || !argument.isBuffer)
                return QString();
            return roleChoices().value(int(argument.role));
        case ContentsColumn:
            if (!parameter.supported || !argument.isBuffer)
                return QString();
            if (argument.role == BufferRole::Out)
                return tr("poison (output)");
            return initSummary(argument.init);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (!parameter.supported)
            return toQString(parameter.unsupportedReason);
        if (index.column() == TypeColumn)
            return toQString(parameter.typeText);
        if (index.column() == ValueColumn && argument.isBuffer && error.isEmpty())
            return tr("%1 elements of %2 B")
                .arg(ExpressionField::valueText(value.value))
                .arg(argument.elementType.sizeBytes());
        if (!error.isEmpty())
            return error;
        if (index.column() == ContentsColumn && argument.isBuffer &&
            argument.role == BufferRole::Out)
            return tr("Outputs start as NaN (floating types) or 0xFF bytes, so elements the "
                      "kernel never writes are found");
        return {};
    case Qt::ForegroundRole:
        if (!parameter.supported)
            return QPalette().color(QPalette::Disabled, QPalette::Text);
        if (!error.isEmpty() &&
            (index.column() == ValueColumn || index.column() == ExpressionColumn))
            return Theme::invalidEntry;
        if (index.column() == ValueColumn || index.column() == TypeColumn)
            return QColor(0x60, 0x60, 0x60);
        return {};
    case ChoicesRole:
        if (index.column() == RoleColumn)
            return roleChoices();
        if (index.column() == ContentsColumn)
            return initChoices();
        return {};
    case ChoiceRole:
        if (index.column() == RoleColumn)
            return int(argument.role);
        if (index.column() == ContentsColumn)
            return int(argument.init.kind);
        return {};
    case ErrorRole:
        return error;
    case SupportedRole:
        return parameter.supported;
    case IsBufferRole:
        return argument.isBuffer;
    default:
        return {};
    }
}

bool ArgumentsModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !(flags(index) & Qt::ItemIsEditable))
        return false;
    ArgumentSpec &argument = m_arguments[std::size_t(index.row())];
    if (index.column() == ExpressionColumn && role == Qt::EditRole) {
        std::string &target = argument.isBuffer ? argument.count : argument.value;
        const std::string text = toStdString(value.toString().trimmed());
        if (text == target)
            return false;
        target = text;
    } else if (index.column() == RoleColumn && role == ChoiceRole) {
        const int choice = value.toInt();
        if (choice < 0 || choice > int(BufferRole::InOut) || choice == int(argument.role))
            return false;
        argument.role = BufferRole(choice);
    } else if (index.column() == ContentsColumn && role == ChoiceRole) {
        const int choice = value.toInt();
        if (choice < 0 || choice > int(InitKind::CopyOf) || choice == int(argument.init.kind))
            return false;
        argument.init.kind = InitKind(choice);
        if (argument.init.kind == InitKind::CopyOf && argument.init.copyOf.empty()) {
            const QStringList others = otherBuffers(index.row());
            if (!others.isEmpty())
                argument.init.copyOf = toStdString(others.front());
        }
    } else {
        return false;
    }
    changed(index.row());
    return true;
}

} // namespace cuwb
