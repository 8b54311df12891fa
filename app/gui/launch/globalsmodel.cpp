#include "gui/launch/globalsmodel.h"

#include "gui/common/qtconvert.h"
#include "gui/launch/argumentsmodel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace cuwb {

GlobalsModel::GlobalsModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void GlobalsModel::setGlobals(const std::vector<GlobalSpec> &globals)
{
    beginResetModel();
    m_globals = globals;
    endResetModel();
}

void GlobalsModel::setModule(std::optional<std::vector<ModuleVariable>> variables,
                             const Variables &names)
{
    m_moduleKnown = variables.has_value();
    m_module = variables.value_or(std::vector<ModuleVariable>{});
    m_names = names;
    if (!m_globals.empty())
        Q_EMIT dataChanged(index(0, ModuleColumn), index(rowCount() - 1, ModuleColumn));
}

int GlobalsModel::addGlobal()
{
    GlobalSpec global;
    global.elementType = parseElementType("float").value();
    for (const ModuleVariable &variable : m_module) {
        const bool taken =
            std::any_of(m_globals.begin(), m_globals.end(),
                        [&](const GlobalSpec &g) { return g.name == variable.name; });
        if (!taken) {
            // The declared type when it is one a buffer can have, else float.
            if (const auto type = parseElementType(variable.type); type && type->sizeBytes() > 0)
                global.elementType = *type;
            global.name = variable.name;
            global.count = std::to_string(
                std::max<std::uint64_t>(variable.bytes / global.elementType.sizeBytes(), 1));
            break;
        }
    }
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_globals.push_back(global);
    endInsertRows();
    Q_EMIT globalsEdited();
    return row;
}

void GlobalsModel::removeGlobal(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    m_globals.erase(m_globals.begin() + row);
    endRemoveRows();
    Q_EMIT globalsEdited();
}

void GlobalsModel::setInit(int row, const BufferInit &init)
{
    if (row < 0 || row >= rowCount() || m_globals[std::size_t(row)].init == init)
        return;
    m_globals[std::size_t(row)].init = init;
    Q_EMIT dataChanged(index(row, ContentsColumn), index(row, ModuleColumn));
    Q_EMIT globalsEdited();
}

int GlobalsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_globals.size());
}

int GlobalsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString GlobalsModel::moduleText(const GlobalSpec &global, bool *fits) const
{
    *fits = false;
    const auto variable =
        std::find_if(m_module.begin(), m_module.end(),
                     [&](const ModuleVariable &v) { return v.name == global.name; });
    if (!m_moduleKnown)
        return tr("compile to check");
    if (variable == m_module.end())
        return tr("not in the module");
    const ExpressionValue count = evaluateExpression(global.count, m_names);
    if (!count.ok())
        return toQString(count.error->message);
    const double bytes = count.value * double(global.elementType.sizeBytes());
    *fits = bytes == double(variable->bytes);
    const QString space = variable->constant ? tr("__constant__") : tr("__device__");
    return *fits ? tr("%1, %2 B").arg(space).arg(variable->bytes)
                 : tr("%1 B of %2 B: initialise all of it").arg(bytes).arg(variable->bytes);
}

QVariant GlobalsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const GlobalSpec &global = m_globals[std::size_t(index.row())];
    bool fits = false;
    const QString module = moduleText(global, &fits);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case NameColumn:
            return toQString(global.name);
        case TypeColumn:
            return toQString(global.elementType.name());
        case CountColumn:
            return toQString(global.count);
        case ContentsColumn:
            return role == Qt::EditRole ? QVariant(int(global.init.kind))
                                        : QVariant(ArgumentsModel::initSummary(global.init));
        case ModuleColumn:
            return role == Qt::EditRole ? QVariant() : QVariant(module);
        default:
            return {};
        }
    case ChoicesRole:
        if (index.column() == ContentsColumn) {
            QStringList choices = ArgumentsModel::initChoices();
            choices.removeLast(); // a global is never a copy of a buffer
            return choices;
        }
        return {};
    case ChoiceRole:
        return index.column() == ContentsColumn ? QVariant(int(global.init.kind)) : QVariant();
    case ErrorRole:
        return fits || !m_moduleKnown ? QString() : module;
    case Qt::ForegroundRole:
        if (index.column() == ModuleColumn && !fits && m_moduleKnown)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    case Qt::ToolTipRole:
        if (index.column() == NameColumn)
            return tr("A __constant__ or __device__ variable of the source, set before each "
                      "launch");
        return index.column() == ModuleColumn ? QVariant(module) : QVariant();
    default:
        return {};
    }
}

bool GlobalsModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    GlobalSpec global = m_globals[std::size_t(index.row())];
    switch (index.column()) {
    case NameColumn:
        if (role != Qt::EditRole || value.toString().trimmed().isEmpty())
            return false;
        global.name = toStdString(value.toString().trimmed());
        break;
    case TypeColumn: {
        if (role != Qt::EditRole)
            return false;
        const auto type = parseElementType(toStdString(value.toString().trimmed()));
        if (!type)
            return false;
        global.elementType = *type;
        break;
    }
    case CountColumn:
        if (role != Qt::EditRole || value.toString().trimmed().isEmpty())
            return false;
        global.count = toStdString(value.toString().trimmed());
        break;
    case ContentsColumn: {
        if (role != ChoiceRole && role != Qt::EditRole)
            return false;
        const int choice = value.toInt();
        if (choice < 0 || choice >= int(InitKind::CopyOf))
            return false;
        global.init.kind = InitKind(choice);
        break;
    }
    default:
        return false;
    }
    if (global == m_globals[std::size_t(index.row())])
        return true;
    m_globals[std::size_t(index.row())] = global;
    Q_EMIT dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    Q_EMIT globalsEdited();
    return true;
}

Qt::ItemFlags GlobalsModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() != ModuleColumn)
        flags |= Qt::ItemIsEditable;
    return flags;
}

QVariant GlobalsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Global");
    case TypeColumn:
        return tr("Type");
    case CountColumn:
        return tr("Count");
    case ContentsColumn:
        return tr("Initial contents");
    case ModuleColumn:
        return tr("In the module");
    default:
        return {};
    }
}

} // namespace cuwb
