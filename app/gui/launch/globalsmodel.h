// GlobalsModel: the module variables (__constant__, __device__) a launch initialises, one row
// each: name, element type, element count, initial contents, and whether that fills the
// variable the compiled module has (its size is read from the PTX, so it is known without a
// GPU). Edits a list of GlobalSpec; the init's fields are edited beside it, as a buffer's are.
#pragma once

#include "compiler/kernellookup.h"
#include "launch/launchspec.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace cuwb {

class GlobalsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, TypeColumn, CountColumn, ContentsColumn, ModuleColumn, ColumnCount };
    enum Role {
        ChoicesRole = Qt::UserRole + 1, // QStringList offered by a combo box (the contents)
        ChoiceRole,                     // int: the current choice's index; settable
        ErrorRole,                      // why the row does not fit the module, empty when fine
    };

    explicit GlobalsModel(QObject *parent = nullptr);

    void setGlobals(const std::vector<GlobalSpec> &globals);
    [[nodiscard]] const std::vector<GlobalSpec> &globals() const { return m_globals; }
    // The variables of the compiled module (nullopt before a compile) and the launch's names,
    // for the module column.
    void setModule(std::optional<std::vector<ModuleVariable>> variables, const Variables &names);

    // Appends the first module variable no row sets yet (elements of its declared type, or
    // float, filling it), or an empty row when there is none; returns its row.
    int addGlobal();
    void removeGlobal(int row);
    void setInit(int row, const BufferInit &init);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // The user changed, added or removed a global.
    void globalsEdited();

private:
    [[nodiscard]] QString moduleText(const GlobalSpec &global, bool *fits) const;

    std::vector<GlobalSpec> m_globals;
    std::vector<ModuleVariable> m_module;
    bool m_moduleKnown = false;
    Variables m_names;
};

} // namespace cuwb
