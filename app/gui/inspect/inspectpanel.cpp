#include "gui/inspect/inspectpanel.h"

#include "gui/common/qtconvert.h"
#include "gui/common/theme.h"
#include "gui/inspect/inspectlinesmodel.h"
#include "inspect/sasslisting.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace cuwb {

namespace {

QString count(std::uint64_t value)
{
    return QLocale::system().toString(qulonglong(value));
}

} // namespace

InspectPanel::InspectPanel(QWidget *parent)
    : QWidget(parent)
    , m_toolBar(new QToolBar(this))
    , m_previous(new QAction(tr("Pre&vious Hot Line"), this))
    , m_next(new QAction(tr("Ne&xt Hot Line"), this))
    , m_summary(new QLabel(this))
    , m_messageBox(new QWidget(this))
    , m_message(new QLabel(m_messageBox))
    , m_lineInfoButton(new QPushButton(tr("Turn On -lineinfo and Inspect Again"), m_messageBox))
    , m_notes(new QLabel(this))
    , m_model(new InspectLinesModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
{
    m_previous->setObjectName(QStringLiteral("previousHotLineAction"));
    m_previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    m_previous->setIcon(style()->standardIcon(QStyle::SP_ArrowUp));
    m_previous->setToolTip(tr("Go to the previous hot line, hottest first (Shift+F8)"));
    m_next->setObjectName(QStringLiteral("nextHotLineAction"));
    m_next->setShortcut(QKeySequence(Qt::Key_F8));
    m_next->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    m_next->setToolTip(tr("Go to the next hot line, hottest first (F8)"));
    setNavigationEnabled(false);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->addAction(m_previous);
    m_toolBar->addAction(m_next);

    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("Inspect (Ctrl+Shift+I) runs the kernel once on the GPU with CUPTI "
                          "counting what each machine instruction does. The source lines then "
                          "show how hot they ran, in the gutter, and what stands out: "
                          "uncoalesced accesses, bank conflicts, local memory, divergence. A "
                          "result with PC samples also shows where the warps wait."));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lineInfoButton->setObjectName(QStringLiteral("lineInfoFixButton"));
    m_lineInfoButton->setToolTip(tr("Turn on the compile option \"Line info (-lineinfo)\"; it "
                                    "does not change the code, only adds the line table"));
    auto *messageLayout = new QHBoxLayout(m_messageBox);
    messageLayout->setContentsMargins(8, 6, 8, 6);
    messageLayout->addWidget(m_message, 1);
    messageLayout->addWidget(m_lineInfoButton, 0, Qt::AlignTop);
    m_messageBox->setAutoFillBackground(true);
    m_messageBox->setVisible(false);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setVisible(false);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(InspectLinesModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(InspectLinesModel::LineColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->setToolTip(tr("Double-click a line to go to it in the editor"));

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_summary, 1);
    top->addWidget(m_toolBar, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(6);
    layout->addLayout(top);
    layout->addWidget(m_messageBox);
    layout->addWidget(m_notes);
    layout->addWidget(m_view, 1);

    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        const int line = index.data(InspectLinesModel::SourceLineRole).toInt();
        if (line > 0)
            Q_EMIT lineActivated(line);
    });
    connect(m_lineInfoButton, &QPushButton::clicked, this, &InspectPanel::lineInfoFixRequested);
}

void InspectPanel::setInspectAction(QAction *action)
{
    m_toolBar->insertAction(m_previous, action);
    m_toolBar->insertSeparator(m_previous);
}

QString InspectPanel::summaryText() const
{
    return m_summary->text();
}

QString InspectPanel::messageText() const
{
    return m_messageBox->isVisibleTo(this) ? m_message->text() : QString();
}

QString InspectPanel::notesText() const
{
    return m_notes->isVisibleTo(this) ? m_notes->text() : QString();
}

void InspectPanel::showMessage(const QString &text, const QString &color)
{
    m_message->setText(text);
    QPalette palette = m_messageBox->palette();
    palette.setColor(QPalette::Window, QColor(color));
    m_messageBox->setPalette(palette);
    m_messageBox->setVisible(true);
}

void InspectPanel::hideMessage()
{
    m_messageBox->setVisible(false);
    m_lineInfoButton->setVisible(false);
}

void InspectPanel::showInspecting(const QString &kernel)
{
    hideMessage();
    showMessage(tr("Inspecting %1 on the GPU: one launch, with CUPTI counting what each "
                   "machine instruction does\u2026")
                    .arg(kernel),
                Theme::remarkBackground.name());
}

void InspectPanel::showResult(const InspectResult &result, const InspectSummary &summary,
                              const QStringList &source, const std::string &fileName,
                              bool bySamples)
{
    hideMessage();
    m_stale = false;
    m_view->setEnabled(true);
    m_resultMessage.clear();
    const CounterTotals &t = summary.totals;
    QStringList parts;
    parts << tr("<b>%1</b>%2: %3 warp instructions executed")
                 .arg(toQString(demangleSassName(result.kernel)).toHtmlEscaped(),
                      result.chip.empty() ? QString() : tr(" on %1").arg(toQString(result.chip)),
                      count(t.instructions));
    if (t.instructions > 0)
        parts.back() +=
            tr(", %1 % of their threads active")
                .arg(100.0 * double(t.predicatedOnThreads) / double(t.instructions * 32), 0, 'f',
                     1);
    if (t.globalRequests > 0)
        parts << tr("global memory: %1 sectors per request, %2 ideal")
                     .arg(t.sectorsPerRequest(), 0, 'f', 1)
                     .arg(t.idealSectorsPerRequest(), 0, 'f', 1);
    if (t.sharedRequests > 0)
        parts << tr("shared memory: %1 wavefronts, %2 ideal")
                     .arg(count(t.sharedWavefronts), count(t.sharedWavefrontsIdeal));
    if (t.localRequests > 0)
        parts << tr("local memory: %1 requests").arg(count(t.localRequests));
    if (summary.stallSamples > 0)
        parts << tr("where the warps wait (%1 PC samples): %2")
                     .arg(count(summary.stallSamples),
                          toQString(topReasons(summary.stallReasons, 3)).toHtmlEscaped());
    parts << (bySamples ? tr("the gutter shows each line's share of the PC samples")
                        : tr("the gutter shows each line's share of the executed instructions"));
    m_summary->setText(parts.join(QStringLiteral(" \u00b7 ")));

    QStringList notes;
    for (const std::string &note : summary.notes)
        notes << toQString(note);
    m_notes->setText(notes.isEmpty() ? QString() : tr("Note: %1").arg(notes.join(tr("; "))));
    m_notes->setVisible(!notes.isEmpty());

    m_model->setSummary(summary, source, fileName);
    const bool samples = m_model->hasSamples();
    // Columns no line has a figure in take no room (no samples, no global or shared memory).
    for (const int column :
         {InspectLinesModel::StallsColumn, InspectLinesModel::ReasonsColumn,
          InspectLinesModel::SectorsColumn, InspectLinesModel::IdealSectorsColumn,
          InspectLinesModel::WavefrontsColumn}) {
        bool empty = true;
        for (int row = 0; row < m_model->rowCount() && empty; ++row)
            empty = m_model->index(row, column).data().toString().isEmpty();
        m_view->setColumnHidden(column, empty);
    }
    m_view->resizeColumnsToContents();
    m_view->setColumnWidth(
        InspectLinesModel::SourceColumn,
        std::min(m_view->columnWidth(InspectLinesModel::SourceColumn),
                 m_view->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 45));
    m_view->sortByColumn(samples ? InspectLinesModel::StallsColumn
                                 : InspectLinesModel::ExecutedColumn,
                         Qt::DescendingOrder);

    if (!result.lineInfo && !result.instructions.empty()) {
        m_resultMessage = tr("-lineinfo is off: the kernel was compiled without line "
                             "information, so its counters cannot be placed on source lines.");
        showMessage(m_resultMessage, Theme::warningBackground.name());
        m_lineInfoButton->setVisible(true);
    }
}

void InspectPanel::showFailure(const QString &message, bool permissionDenied)
{
    m_lineInfoButton->setVisible(false);
    const QString text = permissionDenied ? tr("The GPU refused the inspection: %1").arg(message)
                                          : tr("The inspection failed: %1").arg(message);
    showMessage(text, Theme::errorBackground.name());
}

void InspectPanel::setStale(bool stale)
{
    m_stale = stale;
    if (stale)
        showMessage(tr("The source was edited after this inspection, so its figures may no "
                       "longer match the lines: inspect again (Ctrl+Shift+I)."),
                    Theme::warningBackground.name());
    else if (m_resultMessage.isEmpty())
        hideMessage();
    m_view->setEnabled(!stale);
}

void InspectPanel::setNavigationEnabled(bool enabled)
{
    m_previous->setEnabled(enabled);
    m_next->setEnabled(enabled);
}

void InspectPanel::selectLine(int line)
{
    const int row = m_model->rowOfLine(line);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_view->selectRow(index.row());
    m_view->scrollTo(index);
}

} // namespace cuwb
