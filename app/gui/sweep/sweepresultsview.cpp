#include "gui/sweep/sweepresultsview.h"

#include "gui/common/qtconvert.h"
#include "gui/roofline/rooflinechart.h"
#include "gui/sweep/sweepchartview.h"
#include "gui/sweep/sweepheatmap.h"
#include "gui/sweep/sweeptablemodel.h"
#include "sweep/sweepjson.h"

#include <QAction>
#include <QApplication>
#include <QButtonGroup>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QSvgGenerator>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace cuwb {

namespace {

// Rows around the visible ones whose text sizes the table's columns.
constexpr int kRowsMeasuredForWidths = 64;

} // namespace

SweepResultsView::SweepResultsView(QWidget *parent)
    : QWidget(parent)
    , m_model(new SweepTableModel(this))
    , m_proxy(new SweepTableProxy(this))
    , m_table(new QTableView(this))
    , m_stack(new QStackedWidget(this))
    , m_heatmap(new SweepHeatmap(this))
    , m_pages(new QButtonGroup(this))
    , m_heatQuantity(new QComboBox(this))
    , m_exportButton(new QToolButton(this))
    , m_note(new QLabel(this))
{
    createChartPages();
    createExportButton();
    createTable();
    createLayout();
    refresh();
}

void SweepResultsView::createChartPages()
{
    m_charts = new SweepChartView(this);
    connect(m_charts, &SweepChartView::pointClicked, this, &SweepResultsView::activate);
    m_stack->addWidget(m_charts->timeView());
    m_stack->addWidget(m_charts->bandwidthView());
    m_stack->addWidget(m_heatmap);
    m_roofline = new RooflineChart(this);
    m_stack->addWidget(m_roofline);
    connect(m_heatmap, &SweepHeatmap::pointActivated, this, &SweepResultsView::pointActivated);

    m_timeButton = new QToolButton(this);
    m_timeButton->setText(tr("Time"));
    m_timeButton->setToolTip(tr("Time per launch: median and min–max over the samples"));
    m_bandwidthButton = new QToolButton(this);
    m_bandwidthButton->setText(tr("Bandwidth && occupancy"));
    m_bandwidthButton->setToolTip(
        tr("Effective and DRAM bandwidth against the peak and the copy ceiling, with "
           "theoretical and achieved occupancy"));
    m_heatmapButton = new QToolButton(this);
    m_heatmapButton->setText(tr("Heatmap"));
    m_heatmapButton->setToolTip(tr("block.x × block.y"));
    m_rooflineButton = new QToolButton(this);
    m_rooflineButton->setText(tr("Roofline"));
    m_rooflineButton->setToolTip(tr("Each point's FLOP/s against its FLOP per DRAM byte, under "
                                    "the device's roofs (needs the sweep's Roofline option)"));
    m_pages->setExclusive(true);
    m_pages->addButton(m_timeButton, int(Page::Time));
    m_pages->addButton(m_bandwidthButton, int(Page::Bandwidth));
    m_pages->addButton(m_heatmapButton, int(Page::Heatmap));
    m_pages->addButton(m_rooflineButton, int(Page::Roofline));
    for (QToolButton *button :
         {m_timeButton, m_bandwidthButton, m_heatmapButton, m_rooflineButton}) {
        button->setCheckable(true);
        button->setAutoRaise(true);
    }
    m_timeButton->setChecked(true);
    connect(m_pages, &QButtonGroup::idClicked, this, [this](int id) { setPage(Page(id)); });

    m_heatQuantity->addItem(tr("Median time"));
    m_heatQuantity->addItem(tr("Effective bandwidth"));
    m_heatQuantity->setToolTip(tr("What the heatmap's colours show"));
    connect(m_heatQuantity, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_heatmap->setQuantity(index == 1 ? SweepHeatmap::Quantity::Bandwidth
                                          : SweepHeatmap::Quantity::MedianTime);
    });
}

void SweepResultsView::createExportButton()
{
    m_exportButton->setText(tr("Export…"));
    m_exportButton->setToolTip(tr("Save the chart on screen as PNG or SVG"));
    m_exportButton->setAutoRaise(true);
    connect(m_exportButton, &QToolButton::clicked, this, [this] {
        QString selected;
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export chart"), tr("sweep.png"),
                                         tr("PNG image (*.png);;SVG drawing (*.svg)"), &selected);
        if (path.isEmpty())
            return;
        const bool svg = path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive) ||
                         (!path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive) &&
                          selected.contains(QLatin1String("svg")));
        const QString error = svg ? exportSvg(path) : exportPng(path);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Export chart"), error);
    });
}

void SweepResultsView::createTable()
{
    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // sweep order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setHighlightSections(false);
    // Columns fit the rows on screen and a page around them, not all of a large sweep's rows:
    // measuring 1,000 rows' text took 35 ms at the sweep's start and 68 ms at its end.
    m_table->horizontalHeader()->setResizeContentsPrecision(kRowsMeasuredForWidths);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *copy = new QAction(tr("Copy rows"), m_table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &SweepResultsView::copySelectedRows);
    m_table->addAction(copy);
    connect(m_table, &QTableView::doubleClicked, this, &SweepResultsView::activateRow);
}

void SweepResultsView::createLayout()
{
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_heatmapButton);
    bar->addWidget(m_timeButton);
    bar->addWidget(m_bandwidthButton);
    bar->addWidget(m_rooflineButton);
    bar->addSpacing(12);
    bar->addWidget(m_heatQuantity);
    bar->addStretch(1);
    bar->addWidget(m_exportButton);

    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setVisible(false);

    auto *chartSide = new QWidget(this);
    auto *chartLayout = new QVBoxLayout(chartSide);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->setSpacing(2);
    chartLayout->addLayout(bar);
    chartLayout->addWidget(m_stack, 1);
    chartLayout->addWidget(m_note);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(chartSide);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    // The table's columns need room: three fifths for the chart, two for the table.
    splitter->setSizes({600, 400});

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);
}

SweepResultsView::~SweepResultsView() = default;

void SweepResultsView::setResult(const SweepResult &result, const QString &name)
{
    std::vector<NamedSweep> runs;
    runs.push_back({name.isEmpty() ? tr("current") : name, result, false});
    setRuns(std::move(runs));
}

void SweepResultsView::setRuns(std::vector<NamedSweep> runs)
{
    m_builder.setRuns(std::move(runs));
    m_model->setResult(m_builder.runs().empty() ? SweepResult{} : m_builder.runs().front().result);
    // The GPU column only for a sweep over several GPUs.
    m_table->setColumnHidden(m_model->column(SweepTableModel::DeviceColumn),
                             !m_model->severalDevices());
    m_heatmapShownOnce = false;
    refresh();
    m_table->resizeColumnsToContents();
}

void SweepResultsView::setBaseline(const SweepResult &baseline, const QString &name)
{
    std::vector<NamedSweep> runs;
    for (const NamedSweep &run : m_builder.runs()) {
        if (!run.baseline)
            runs.push_back(run);
    }
    if (runs.empty())
        runs.push_back({tr("current"), {}, false});
    runs.push_back({name, baseline, true});
    m_builder.setRuns(std::move(runs));
    refresh();
}

void SweepResultsView::clearBaseline()
{
    std::vector<NamedSweep> runs;
    for (const NamedSweep &run : m_builder.runs()) {
        if (!run.baseline)
            runs.push_back(run);
    }
    m_builder.setRuns(std::move(runs));
    refresh();
}

QString SweepResultsView::openResult(const QString &path)
{
    const SweepResultLoad load = loadSweepResult(toStdString(path));
    if (!load.result)
        return tr("Could not open %1: %2")
            .arg(QDir::toNativeSeparators(path), toQString(load.error));
    setResult(*load.result, QFileInfo(path).completeBaseName());
    return {};
}

QString SweepResultsView::openBaseline(const QString &path)
{
    const SweepResultLoad load = loadSweepResult(toStdString(path));
    if (!load.result)
        return tr("Could not open %1: %2")
            .arg(QDir::toNativeSeparators(path), toQString(load.error));
    const QString date = toQString(load.result->startedAt).left(10);
    setBaseline(*load.result, date.isEmpty() ? tr("baseline") : tr("baseline %1").arg(date));
    return {};
}

void SweepResultsView::appendPoint(const SweepPointResult &point)
{
    const bool first = m_model->rowCount() == 0;
    m_builder.appendPoint(point);
    m_model->appendPoint(point);
    refresh();
    if (first)
        m_table->resizeColumnsToContents();
}

void SweepResultsView::setPoint(std::size_t index, const SweepPointResult &point)
{
    m_builder.setPoint(index, point);
    m_model->setPoint(index, point);
    refresh();
}

void SweepResultsView::setPoints(const std::vector<SweepPointResult> &points)
{
    if (points.empty())
        return;
    const bool first = m_model->rowCount() == 0;
    for (const SweepPointResult &point : points) {
        m_builder.setPoint(point.point.index, point);
        m_model->setPoint(point.point.index, point);
    }
    refresh();
    if (first)
        m_table->resizeColumnsToContents();
}

void SweepResultsView::setStreaming(bool streaming)
{
    m_charts->setStreaming(streaming);
}

void SweepResultsView::clear()
{
    setRuns({});
}

SweepResultsView::Page SweepResultsView::page() const
{
    if (m_stack->currentWidget() == m_heatmap)
        return Page::Heatmap;
    if (m_stack->currentWidget() == m_roofline)
        return Page::Roofline;
    if (m_stack->currentWidget() == m_charts->bandwidthView())
        return Page::Bandwidth;
    return Page::Time;
}

void SweepResultsView::setPage(Page page)
{
    if (page == Page::Heatmap && !m_data.heatmap)
        page = Page::Time;
    switch (page) {
    case Page::Time:
        m_stack->setCurrentWidget(m_charts->timeView());
        break;
    case Page::Bandwidth:
        m_stack->setCurrentWidget(m_charts->bandwidthView());
        break;
    case Page::Heatmap:
        m_stack->setCurrentWidget(m_heatmap);
        break;
    case Page::Roofline:
        updateRoofline();
        m_stack->setCurrentWidget(m_roofline);
        break;
    }
    if (QAbstractButton *button = m_pages->button(int(page)))
        button->setChecked(true);
    m_heatQuantity->setVisible(page == Page::Heatmap);
    // The heatmap shows skipped and failed points itself; the roofline says what it left out.
    m_note->setVisible(page != Page::Heatmap && page != Page::Roofline &&
                       !m_note->text().isEmpty());
}

void SweepResultsView::updatePageButtons()
{
    m_heatmapButton->setVisible(m_data.heatmap.has_value());
    if (m_data.heatmap && !m_heatmapShownOnce) {
        // A block.x × block.y sweep opens on its heatmap; the user may still look at lines.
        m_heatmapShownOnce = true;
        setPage(Page::Heatmap);
    } else if (!m_data.heatmap && page() == Page::Heatmap) {
        setPage(Page::Time);
    } else {
        setPage(page());
    }
}

void SweepResultsView::refresh()
{
    m_data = m_builder.data();
    if (m_data.heatmap && !m_builder.runs().empty())
        m_heatmap->setData(&m_builder.runs().front(), *m_data.heatmap);
    else
        m_heatmap->clear();
    m_charts->setData(m_builder.runs(), m_data);
    m_rooflineStale = true;
    if (page() == Page::Roofline)
        updateRoofline();
    updateNote();
    updatePageButtons();
}

// The first run's cloud and the baseline's: a linear pass over the points and a handful of
// series, done when the page is shown or, while it is, when points arrive.
void SweepResultsView::updateRoofline()
{
    if (!m_rooflineStale)
        return;
    m_rooflineStale = false;
    const std::vector<NamedSweep> &runs = m_builder.runs();
    const NamedSweep *current = nullptr;
    const NamedSweep *baseline = nullptr;
    for (const NamedSweep &run : runs) {
        if (run.baseline && !baseline)
            baseline = &run;
        else if (!run.baseline && !current)
            current = &run;
    }
    if (!current) {
        m_roofline->clear();
        return;
    }
    m_roofline->setData(rooflineOfSweep(current->result, baseline ? &baseline->result : nullptr));
}

void SweepResultsView::updateNote()
{
    // What the sweep as a whole says (it could not start, a caveat), then what is not drawn.
    QStringList lines;
    if (!m_builder.runs().empty()) {
        const SweepResult &first = m_builder.runs().front().result;
        if (!first.error.empty())
            lines << tr("The sweep did not run: %1").arg(toQString(first.error));
        for (const std::string &note : first.notes)
            lines << toQString(note);
        if (first.cancelled)
            lines << tr("The sweep was cancelled; the points measured before are shown.");
    }
    if (m_data.unplotted.empty()) {
        m_note->setText(lines.join(QLatin1Char('\n')));
        m_note->setToolTip({});
        m_note->setVisible(!lines.isEmpty() && page() != Page::Heatmap && page() != Page::Roofline);
        return;
    }
    const bool several = m_builder.runs().size() > 1;
    QStringList items;
    for (const SweepUnplottedPoint &u : m_data.unplotted) {
        QString item = tr("%1 %2").arg(u.label, SweepTableModel::statusText(u.status));
        if (several)
            item = tr("%1 (%2)").arg(item, m_builder.runs()[u.run].name);
        if (!u.message.isEmpty())
            item = tr("%1: %2").arg(item, u.message);
        items << item;
    }
    constexpr qsizetype shown = 4;
    QString text =
        tr("Not drawn: %1").arg(QStringList(items.mid(0, shown)).join(QStringLiteral("; ")));
    if (items.size() > shown)
        text += tr("; and %1 more (see the table)").arg(items.size() - shown);
    lines << text;
    m_note->setText(lines.join(QLatin1Char('\n')));
    m_note->setToolTip(items.join(QLatin1Char('\n')));
    m_note->setVisible(page() != Page::Heatmap && page() != Page::Roofline);
}

QChartView *SweepResultsView::currentChartView() const
{
    if (m_stack->currentWidget() == m_charts->timeView())
        return m_charts->timeView();
    if (m_stack->currentWidget() == m_charts->bandwidthView())
        return m_charts->bandwidthView();
    return nullptr;
}

std::optional<QPoint> SweepResultsView::pointPosition(std::size_t run, std::size_t point) const
{
    if (page() == Page::Heatmap) {
        for (const SweepHeatmapCell &cell :
             m_data.heatmap ? m_data.heatmap->cells : std::vector<SweepHeatmapCell>{}) {
            if (run == 0 && cell.point == point)
                return m_heatmap->cellCentre(cell.column, cell.row).toPoint();
        }
        return std::nullopt;
    }
    QChartView *view = currentChartView();
    if (!view)
        return std::nullopt;
    return m_charts->pointPosition(view, run, point);
}

QString SweepResultsView::toolTipFor(std::size_t run, std::size_t point) const
{
    if (run >= m_builder.runs().size())
        return {};
    return SweepChartBuilder::toolTip(m_builder.runs()[run], point);
}

QChart *SweepResultsView::timeChart() const
{
    return m_charts->timeChart();
}

QChart *SweepResultsView::bandwidthChart() const
{
    return m_charts->bandwidthChart();
}

void SweepResultsView::activate(std::size_t run, std::size_t point)
{
    if (run >= m_builder.runs().size() || point >= m_builder.runs()[run].result.points.size())
        return;
    const SweepPointResult &p = m_builder.runs()[run].result.points[point];
    if (p.status == PointStatus::Skipped)
        return; // nothing that can run
    Q_EMIT pointActivated(p.point);
}

void SweepResultsView::activateRow(const QModelIndex &proxyIndex)
{
    const QModelIndex source = m_proxy->mapToSource(proxyIndex);
    if (source.isValid())
        activate(0, std::size_t(source.row()));
}

void SweepResultsView::copySelectedRows() const
{
    QList<int> rows;
    const QModelIndexList selected = m_table->selectionModel()->selectedRows();
    for (const QModelIndex &index : selected)
        rows.append(index.row());
    std::sort(rows.begin(), rows.end()); // in the order on screen
    QList<int> sourceRows;
    for (int row : rows)
        sourceRows.append(m_proxy->mapToSource(m_proxy->index(row, 0)).row());
    if (sourceRows.isEmpty())
        return;
    QApplication::clipboard()->setText(m_model->toTsv(sourceRows));
}

QWidget *SweepResultsView::exportWidget() const
{
    return m_stack->currentWidget();
}

QSize SweepResultsView::exportSize() const
{
    return exportWidget()->size();
}

QString SweepResultsView::exportPng(const QString &path) const
{
    QWidget *widget = exportWidget();
    const QSize size = widget->size();
    if (size.isEmpty())
        return tr("The chart has no size yet: show the view before exporting.");
    QPixmap pixmap(size * 2);
    pixmap.setDevicePixelRatio(2.0);
    pixmap.fill(Qt::white);
    {
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    if (!pixmap.save(&file, "PNG"))
        return tr("Could not encode the chart as PNG.");
    if (!file.commit())
        return tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return {};
}

QString SweepResultsView::exportSvg(const QString &path) const
{
    QWidget *widget = exportWidget();
    const QSize size = widget->size();
    if (size.isEmpty())
        return tr("The chart has no size yet: show the view before exporting.");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(tr("CUDA Workbench sweep"));
    const QString runNames = [this] {
        QStringList names;
        for (const NamedSweep &run : m_builder.runs())
            names << run.name;
        return names.join(QStringLiteral(", "));
    }();
    generator.setDescription(runNames);
    {
        QPainter painter;
        if (!painter.begin(&generator))
            return tr("Could not start an SVG drawing in %1.").arg(QDir::toNativeSeparators(path));
        if (widget == m_heatmap)
            m_heatmap->paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
        else
            widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    }
    if (!file.commit())
        return tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return {};
}

} // namespace cuwb
