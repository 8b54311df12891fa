// ProblemsPanel: the Problems dock's content: the diagnostics of the current compile, sortable
// by any column; clicking a row or pressing Enter on it asks to jump to its location.
#pragma once

#include <QWidget>

class QLabel;
class QModelIndex;
class QSortFilterProxyModel;
class QStackedLayout;
class QTreeView;

namespace cuwb {

class ProblemsModel;

class ProblemsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ProblemsPanel(ProblemsModel *model, QWidget *parent = nullptr);

    [[nodiscard]] QTreeView *view() const { return m_view; }
    [[nodiscard]] QSortFilterProxyModel *proxyModel() const { return m_proxy; }
    // Text shown instead of the list when there are no problems.
    void setPlaceholderText(const QString &text);
    [[nodiscard]] QString placeholderText() const;

Q_SIGNALS:
    // file as NVRTC named it; 1-based line and column (0 = unknown).
    void locationActivated(const QString &file, int line, int column);

private:
    void activate(const QModelIndex &proxyIndex);
    void updatePlaceholder();

    ProblemsModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTreeView *m_view = nullptr;
    QLabel *m_placeholder = nullptr;
    QStackedLayout *m_stack = nullptr;
};

} // namespace cuwb
