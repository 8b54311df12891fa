#include "gui/compile/kernelspanel.h"

#include "gui/common/qtconvert.h"
#include "gui/compile/kernelsmodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStackedLayout>
#include <QTableView>
#include <QVBoxLayout>

namespace cuwb {

KernelsPanel::KernelsPanel(KernelsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_blockSize(new QSpinBox(this))
    , m_dynamicShared(new QSpinBox(this))
    , m_archLabel(new QLabel(this))
    , m_placeholder(new QLabel(tr("No kernels"), this))
{
    m_blockSize->setRange(1, 1024);
    m_blockSize->setSingleStep(32);
    m_blockSize->setValue(m_model->blockSize());
    m_blockSize->setSuffix(tr(" threads"));
    m_blockSize->setToolTip(tr("Threads per block for the occupancy columns"));
    m_dynamicShared->setRange(0, 256 * 1024);
    m_dynamicShared->setSingleStep(1024);
    m_dynamicShared->setValue(m_model->dynamicSharedBytes());
    m_dynamicShared->setSuffix(tr(" B"));
    m_dynamicShared->setToolTip(tr("Dynamic shared memory per block for the occupancy columns"));

    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(6, 4, 6, 2);
    controls->addWidget(new QLabel(tr("Block size:"), this));
    controls->addWidget(m_blockSize);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Dynamic shared:"), this));
    controls->addWidget(m_dynamicShared);
    controls->addSpacing(12);
    controls->addWidget(m_archLabel);
    controls->addStretch(1);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(KernelsModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    // Size columns from the first rows only: a module of thousands of kernels must not make
    // every result measure every cell on the GUI thread.
    m_view->horizontalHeader()->setResizeContentsPrecision(64);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnHidden(KernelsModel::LoweredNameColumn, false);

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);

    auto *stackHost = new QWidget(this);
    m_stack = new QStackedLayout(stackHost);
    m_stack->setContentsMargins(0, 0, 0, 0);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_placeholder);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(controls);
    layout->addWidget(stackHost, 1);

    connect(m_blockSize, &QSpinBox::valueChanged, m_model, &KernelsModel::setBlockSize);
    connect(m_dynamicShared, &QSpinBox::valueChanged, m_model,
            &KernelsModel::setDynamicSharedBytes);
    connect(m_view, &QAbstractItemView::activated, this, &KernelsPanel::activate);
    connect(m_view, &QAbstractItemView::clicked, this, &KernelsPanel::activate);
    connect(m_model, &QAbstractItemModel::modelReset, this, &KernelsPanel::updateView);
    connect(m_model, &KernelsModel::occupancyInputsChanged, this, &KernelsPanel::updateView);
    updateView();
}

void KernelsPanel::setPlaceholderText(const QString &text)
{
    m_placeholder->setText(text);
}

void KernelsPanel::activate(const QModelIndex &proxyIndex)
{
    const QModelIndex source = m_proxy->mapToSource(proxyIndex);
    const QString lowered =
        source.siblingAtColumn(KernelsModel::LoweredNameColumn).data(Qt::DisplayRole).toString();
    if (!lowered.isEmpty())
        Q_EMIT kernelSelected(lowered);
    const int line = source.data(KernelsModel::SourceLineRole).toInt();
    if (line > 0)
        Q_EMIT kernelActivated(line);
}

void KernelsPanel::updateView()
{
    m_archLabel->setText(tr("Occupancy on %1").arg(toQString(m_model->architecture())));
    const bool empty = m_model->rowCount() == 0;
    m_stack->setCurrentWidget(empty ? static_cast<QWidget *>(m_placeholder)
                                    : static_cast<QWidget *>(m_view));
    if (!empty)
        m_view->resizeColumnsToContents();
}

} // namespace cuwb
