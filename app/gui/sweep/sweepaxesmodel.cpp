#include "gui/sweep/sweepaxesmodel.h"

#include "gui/common/qtconvert.h"

#include <QBrush>
#include <QColor>

#include <algorithm>
#include <cmath>

namespace cuwb {

namespace {

constexpr AxisValues kKinds[] = {AxisValues::List, AxisValues::Range, AxisValues::PowersOfTwo};

int kindIndex(AxisValues kind)
{
    for (int i = 0; i < int(std::size(kKinds)); ++i) {
        if (kKinds[i] == kind)
            return i;
    }
    return 0;
}

QString numberText(double value)
{
    return QString::number(value, 'g', 12);
}

std::optional<double> parseNumber(const QVariant &value)
{
    bool ok = false;
    const double number = value.toString().trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(number))
        return std::nullopt;
    return number;
}

// The numeric values of a list, when every one is a plain number.
std::optional<std::vector<double>> listNumbers(const SweepAxis &axis)
{
    std::vector<double> numbers;
    for (const std::string &value : axis.values) {
        const std::optional<double> number = parseNumber(toQString(value));
        if (!number)
            return std::nullopt;
        numbers.push_back(*number);
    }
    if (numbers.empty())
        return std::nullopt;
    return numbers;
}

} // namespace

SweepAxesModel::SweepAxesModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void SweepAxesModel::setAxes(std::vector<SweepAxis> axes)
{
    beginResetModel();
    m_axes = std::move(axes);
    endResetModel();
    Q_EMIT axesChanged();
}

int SweepAxesModel::addAxis()
{
    SweepAxis axis;
    if (m_axes.empty()) {
        axis.target = "block.x";
        axis.kind = AxisValues::Range;
        axis.from = 32;
        axis.to = 1024;
        axis.step = 32;
    } else {
        axis.target = "block.y";
        for (const char *candidate : {"block.y", "block.z", "block.x"}) {
            const bool used = std::any_of(m_axes.begin(), m_axes.end(), [&](const SweepAxis &a) {
                return axisName(a.target) == candidate;
            });
            if (!used) {
                axis.target = candidate;
                break;
            }
        }
        axis.kind = AxisValues::List;
        axis.values = {"1", "2", "4"};
    }
    addAxis(axis);
    return int(m_axes.size()) - 1;
}

void SweepAxesModel::addAxis(const SweepAxis &axis)
{
    const int row = int(m_axes.size());
    beginInsertRows({}, row, row);
    m_axes.push_back(axis);
    endInsertRows();
    Q_EMIT axesChanged();
}

bool SweepAxesModel::removeAxis(int row)
{
    if (row < 0 || row >= int(m_axes.size()))
        return false;
    beginRemoveRows({}, row, row);
    m_axes.erase(m_axes.begin() + row);
    endRemoveRows();
    Q_EMIT axesChanged();
    return true;
}

QString SweepAxesModel::kindText(AxisValues kind)
{
    switch (kind) {
    case AxisValues::List:
        return tr("list");
    case AxisValues::Range:
        return tr("range");
    case AxisValues::PowersOfTwo:
        return tr("powers of two");
    }
    return {};
}

QStringList SweepAxesModel::splitValues(const QString &text)
{
    QStringList values;
    QString current;
    int depth = 0;
    for (const QChar c : text) {
        if (c == QLatin1Char('(') || c == QLatin1Char('['))
            ++depth;
        else if ((c == QLatin1Char(')') || c == QLatin1Char(']')) && depth > 0)
            --depth;
        if (c == QLatin1Char(',') && depth == 0) {
            values << current.trimmed();
            current.clear();
            continue;
        }
        current += c;
    }
    values << current.trimmed();
    values.removeAll(QString());
    return values;
}

QString SweepAxesModel::valuesPreview(const SweepAxis &axis)
{
    const AxisValueList list = axisValues(axis);
    if (!list.error.empty())
        return tr("(none: %1)").arg(toQString(list.error));
    const QStringList values = toQStringList(list.values);
    constexpr qsizetype shown = 6;
    if (values.size() <= shown)
        return values.join(QStringLiteral(", "));
    return tr("%1, %2, %3, \u2026, %4 (%5 values)")
        .arg(values[0], values[1], values[2], values.back())
        .arg(values.size());
}

int SweepAxesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_axes.size());
}

int SweepAxesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool SweepAxesModel::applies(int row, int column) const
{
    const AxisValues kind = m_axes[std::size_t(row)].kind;
    switch (column) {
    case FromColumn:
    case ToColumn:
        return kind != AxisValues::List;
    case StepColumn:
        return kind == AxisValues::Range;
    default:
        return true;
    }
}

QVariant SweepAxesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_axes.size()))
        return {};
    const SweepAxis &axis = m_axes[std::size_t(index.row())];
    const int column = index.column();
    if (role == ErrorRole ||
        ((role == Qt::ToolTipRole || role == Qt::ForegroundRole) && column == ValuesColumn)) {
        const QString error = toQString(axisValues(axis).error);
        if (role == ErrorRole)
            return error;
        if (role == Qt::ForegroundRole)
            return error.isEmpty() ? QVariant() : QVariant(QBrush(QColor(0xc6, 0x28, 0x28)));
        if (!error.isEmpty())
            return error;
        return axis.kind == AxisValues::List
                   ? tr("The values, separated by commas: numbers or expressions over the "
                        "variables for block dimensions and variables, any text for -D defines "
                        "and template arguments")
                   : toQStringList(axisValues(axis).values).join(QStringLiteral(", "));
    }
    if (role == ChoicesRole && column == KindColumn) {
        QStringList kinds;
        for (const AxisValues kind : kKinds)
            kinds << kindText(kind);
        return kinds;
    }
    if (role == ChoiceRole && column == KindColumn)
        return kindIndex(axis.kind);
    if (role == Qt::ToolTipRole && column == GroupColumn) {
        return tr("Axes with the same group name are zipped (their n-th values go together, so "
                  "they need as many values); groups, and axes without one, combine as a "
                  "product");
    }
    if (role == Qt::ToolTipRole && column == TargetColumn) {
        return tr("What the axis varies: block.x, block.y or block.z; a variable of the launch "
                  "(N); a define (-DTILE); a template argument (<TILE>); -maxrregcount; "
                  "--use_fast_math (1 or 0)");
    }
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    switch (column) {
    case TargetColumn:
        return toQString(axis.target);
    case KindColumn:
        return kindText(axis.kind);
    case ValuesColumn:
        if (axis.kind == AxisValues::List)
            return toQStringList(axis.values).join(QStringLiteral(", "));
        return role == Qt::DisplayRole ? valuesPreview(axis) : QVariant();
    case FromColumn:
        return applies(index.row(), column) ? numberText(axis.from) : QVariant();
    case ToColumn:
        return applies(index.row(), column) ? numberText(axis.to) : QVariant();
    case StepColumn:
        return applies(index.row(), column) ? numberText(axis.step) : QVariant();
    case GroupColumn:
        return toQString(axis.group);
    default:
        return {};
    }
}

bool SweepAxesModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || index.row() >= int(m_axes.size()) ||
        !applies(index.row(), index.column()))
        return false;
    SweepAxis axis = m_axes[std::size_t(index.row())];
    switch (index.column()) {
    case TargetColumn: {
        if (role != Qt::EditRole)
            return false;
        const QString text = value.toString().trimmed();
        if (text.isEmpty())
            return false;
        axis.target = toStdString(text);
        break;
    }
    case KindColumn: {
        int choice = -1;
        if (role == ChoiceRole) {
            choice = value.toInt();
        } else if (role == Qt::EditRole) {
            for (int i = 0; i < int(std::size(kKinds)); ++i) {
                if (value.toString().compare(kindText(kKinds[i]), Qt::CaseInsensitive) == 0)
                    choice = i;
            }
        }
        if (choice < 0 || choice >= int(std::size(kKinds)))
            return false;
        const AxisValues kind = kKinds[choice];
        if (kind == axis.kind)
            return true;
        // Carry the values over where they can be: a list of numbers becomes the range from
        // its first to its last value, a range or powers of two the list of their values.
        if (axis.kind == AxisValues::List && kind != AxisValues::List) {
            if (const auto numbers = listNumbers(axis)) {
                axis.from = numbers->front();
                axis.to = numbers->back();
                axis.step = numbers->size() > 1 ? (*numbers)[1] - numbers->front() : 1.0;
                if (axis.step == 0.0)
                    axis.step = 1.0;
            }
        } else if (kind == AxisValues::List) {
            const AxisValueList list = axisValues(axis);
            axis.values = list.error.empty() && list.values.size() <= 64
                              ? list.values
                              : std::vector<std::string>{toStdString(numberText(axis.from))};
        }
        axis.kind = kind;
        break;
    }
    case GroupColumn:
        if (role != Qt::EditRole)
            return false;
        axis.group = toStdString(value.toString().trimmed());
        break;
    case ValuesColumn:
        if (role != Qt::EditRole || axis.kind != AxisValues::List)
            return false;
        axis.values = toStdStringList(splitValues(value.toString()));
        break;
    case FromColumn:
    case ToColumn:
    case StepColumn: {
        if (role != Qt::EditRole)
            return false;
        const std::optional<double> number = parseNumber(value);
        if (!number)
            return false;
        double &field = index.column() == FromColumn ? axis.from
                        : index.column() == ToColumn ? axis.to
                                                     : axis.step;
        field = *number;
        break;
    }
    default:
        return false;
    }
    if (axis == m_axes[std::size_t(index.row())])
        return true;
    m_axes[std::size_t(index.row())] = axis;
    Q_EMIT dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    Q_EMIT axesChanged();
    return true;
}

Qt::ItemFlags SweepAxesModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || index.row() >= int(m_axes.size()))
        return Qt::NoItemFlags;
    if (!applies(index.row(), index.column()))
        return Qt::NoItemFlags; // drawn disabled: the kind has no such field
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() != ValuesColumn || m_axes[std::size_t(index.row())].kind == AxisValues::List)
        flags |= Qt::ItemIsEditable;
    return flags;
}

QVariant SweepAxesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TargetColumn:
        return tr("Target");
    case KindColumn:
        return tr("Kind");
    case ValuesColumn:
        return tr("Values");
    case FromColumn:
        return tr("From");
    case ToColumn:
        return tr("To");
    case StepColumn:
        return tr("Step");
    case GroupColumn:
        return tr("Group");
    default:
        return {};
    }
}

} // namespace cuwb
