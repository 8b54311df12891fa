// KernelsPanel: the Kernels dock's content: the kernels table with the block size and dynamic
// shared memory the occupancy columns are computed for. Activating a kernel asks to jump to
// its declaration.
#pragma once

#include <QWidget>

class QLabel;
class QModelIndex;
class QSortFilterProxyModel;
class QSpinBox;
class QStackedLayout;
class QTableView;

namespace cuwb {

class KernelsModel;

class KernelsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit KernelsPanel(KernelsModel *model, QWidget *parent = nullptr);

    [[nodiscard]] QTableView *view() const { return m_view; }
    [[nodiscard]] QSpinBox *blockSizeSpinBox() const { return m_blockSize; }
    [[nodiscard]] QSpinBox *dynamicSharedSpinBox() const { return m_dynamicShared; }
    // Text shown instead of the table when there are no kernels.
    void setPlaceholderText(const QString &text);

Q_SIGNALS:
    void kernelActivated(int sourceLine);
    // The user picked a kernel (for the launch panel): its lowered name.
    void kernelSelected(const QString &loweredName);

private:
    void activate(const QModelIndex &proxyIndex);
    void updateView();

    KernelsModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    QSpinBox *m_blockSize = nullptr;
    QSpinBox *m_dynamicShared = nullptr;
    QLabel *m_archLabel = nullptr;
    QLabel *m_placeholder = nullptr;
    QStackedLayout *m_stack = nullptr;
};

} // namespace cuwb
