#include "gui/compile/problemspanel.h"

#include "gui/compile/problemsmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStackedLayout>
#include <QTreeView>

namespace cuwb {

ProblemsPanel::ProblemsPanel(ProblemsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this))
    , m_placeholder(new QLabel(this))
    , m_stack(new QStackedLayout(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ProblemsModel::SortRole);
    m_proxy->setDynamicSortFilter(true);

    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ProblemsModel::LineColumn, Qt::AscendingOrder);
    m_view->setRootIsDecorated(true);
    m_view->setAlternatingRowColors(true);
    m_view->setUniformRowHeights(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAllColumnsShowFocus(true);
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(ProblemsModel::MessageColumn, QHeaderView::Stretch);
    header->resizeSection(ProblemsModel::SeverityColumn, 90);
    header->resizeSection(ProblemsModel::CodeColumn, 60);
    header->resizeSection(ProblemsModel::FileColumn, 120);
    header->resizeSection(ProblemsModel::LineColumn, 50);
    header->resizeSection(ProblemsModel::ColumnColumn, 56);

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);
    m_placeholder->setText(tr("No problems"));

    m_stack->setContentsMargins(0, 0, 0, 0);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_placeholder);

    // Enter arrives as activated(); a single click as clicked().
    connect(m_view, &QAbstractItemView::activated, this, &ProblemsPanel::activate);
    connect(m_view, &QAbstractItemView::clicked, this, &ProblemsPanel::activate);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ProblemsPanel::updatePlaceholder);
    connect(m_model, &QAbstractItemModel::modelReset, m_view, &QTreeView::expandAll);
    updatePlaceholder();
}

void ProblemsPanel::setPlaceholderText(const QString &text)
{
    m_placeholder->setText(text);
}

QString ProblemsPanel::placeholderText() const
{
    return m_placeholder->text();
}

void ProblemsPanel::activate(const QModelIndex &proxyIndex)
{
    const QModelIndex index = m_proxy->mapToSource(proxyIndex);
    if (!index.isValid())
        return;
    const int line = index.data(ProblemsModel::LineRole).toInt();
    if (line <= 0)
        return;
    Q_EMIT locationActivated(index.data(ProblemsModel::FileRole).toString(), line,
                             index.data(ProblemsModel::ColumnRole).toInt());
}

void ProblemsPanel::updatePlaceholder()
{
    m_stack->setCurrentWidget(m_model->rowCount() > 0 ? static_cast<QWidget *>(m_view)
                                                      : static_cast<QWidget *>(m_placeholder));
}

} // namespace cuwb
