// HistoryModel: the History panel's table — one row per stored measurement or sweep, in the
// order the store listed them (newest first). It holds HistoryItem values only; the JSON
// documents stay in the database until one is opened.
#pragma once

#include "history/historystore.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace cuwb {

class HistoryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        WhenColumn,
        KindColumn,
        ProjectColumn,
        KernelColumn,
        DeviceColumn,
        SummaryColumn,
        NoteColumn,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1, // qint64
        KindRole,                  // "measurement" or "sweep"
        CreatedAtRole,             // QDateTime in UTC (invalid when the text does not parse)
        JsonBytesRole,             // qulonglong: size of the stored document
        NoteRole,                  // the whole note, all its lines
    };

    explicit HistoryModel(QObject *parent = nullptr);

    void setItems(std::vector<HistoryItem> items);
    void clear();
    [[nodiscard]] const std::vector<HistoryItem> &items() const { return m_items; }
    [[nodiscard]] std::optional<HistoryItem> itemAt(int row) const;
    [[nodiscard]] std::optional<HistoryItem> item(qint64 id) const;
    // -1 when no row has this id.
    [[nodiscard]] int rowOfId(qint64 id) const;

    // Changes the note of the row with this id; false when there is none.
    bool setNote(qint64 id, const std::string &note);
    // Removes the row with this id; false when there is none.
    bool removeId(qint64 id);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "Measurement", "Sweep": the kind as the panel shows it.
    static QString kindText(HistoryKind kind);

private:
    std::vector<HistoryItem> m_items;
};

} // namespace cuwb
