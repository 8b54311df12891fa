#include "gui/sweep/sweepresultsview.h"

#include "gui/common/qtconvert.h"
#include "gui/sweep/sweepheatmap.h"
#include "gui/sweep/sweeptablemodel.h"
#include "sweep/sweepjson.h"

#include <QAction>
#include <QApplication>
#include <QAreaSeries>
#include <QButtonGroup>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QSaveFile>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QSvgGenerator>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cuwb {

namespace {

// Tableau 10: distinct, and kind to colour-blind readers in its first few entries.
const QColor kPalette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                           QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                           QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                           QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f),
                           QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf)};

QColor paletteColor(int index)
{
    const int count = int(std::size(kPalette));
    return kPalette[((index % count) + count) % count];
}

// A baseline has the hue of the run it is compared with, paler (and dashed), so that the legend
// tells them apart too.
QColor seriesColor(const SweepChartSeries &s, bool single)
{
    const QColor colour = single ? paletteColor(0) : paletteColor(s.colorIndex);
    if (!s.baseline)
        return colour;
    const auto pale = [](int c) { return int(c + (255 - c) * 0.45); };
    return QColor(pale(colour.red()), pale(colour.green()), pale(colour.blue()));
}

const QColor kDramColor = paletteColor(4);
const QColor kTheoreticalColor = paletteColor(7);
const QColor kAchievedColor = paletteColor(2);
const QColor kPeakColor(0xc6, 0x28, 0x28);
const QColor kCeilingColor(0xe0, 0x7b, 0x00);
const QColor kBestColor(0xff, 0xc1, 0x07);
const QColor kWaveColor(0xe0, 0x7b, 0x00);

// The grid's last wave is "mostly empty" below this fill: waves / ceil(waves) < 0.9 means more
// than a tenth of the SM time of the whole launch could be lost to the tail (or, below one
// wave, that the GPU is not even full once). With many waves the ratio is near 1 whatever the
// remainder, which is why only these points are marked: a label on every point would cover the
// curve and say nothing; the tooltip and the table give every point's waves.
constexpr double kPartialWaveFill = 0.9;

// Above this many points on a chart, the lines are drawn without a marker on each point.
constexpr std::size_t kMaxMarkedPoints = 200;

bool lastWaveMostlyEmpty(double waves)
{
    return waves > 0 && waves / std::ceil(waves) < kPartialWaveFill;
}

// One unit for a time axis whose largest value is `ns`.
std::pair<double, QString> timeUnit(double ns)
{
    if (ns >= 1e9)
        return {1e9, SweepResultsView::tr("s")};
    if (ns >= 1e6)
        return {1e6, SweepResultsView::tr("ms")};
    if (ns >= 1e3)
        return {1e3, SweepResultsView::tr("\u00b5s")};
    return {1.0, SweepResultsView::tr("ns")};
}

QString gbpsText(double value)
{
    return QString::number(value, 'f', 0);
}

// 0 to a round value at or above `top`, in 4 to 8 steps of 1, 2 or 5 × 10^k, so that the grid
// is labelled with numbers a reader can interpolate.
void setNiceRange(QValueAxis *axis, double top)
{
    if (!(top > 0) || !std::isfinite(top))
        top = 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(top / 4.0)));
    double step = magnitude;
    for (double factor : {1.0, 2.0, 5.0, 10.0}) {
        step = factor * magnitude;
        if (top / step <= 7.0)
            break;
    }
    const int steps = std::max(1, int(std::ceil(top / step - 1e-9)));
    if (axis->min() != 0.0 || axis->max() != steps * step)
        axis->setRange(0.0, steps * step);
    axis->setTickCount(steps + 1);
}

enum LabelAnchor { AbovePoint, BelowPoint, AboveLineRight, BelowLineRight };

bool isPointAnchor(int anchor)
{
    return anchor == AbovePoint || anchor == BelowPoint;
}

const QColor kBestText(0x50, 0x3c, 0x00);

// Qt Charts recomputes a series' whole geometry on any change; a point streaming in changes the
// series of its own group (and the markers) only, so the others are left alone.
void replaceIfChanged(QXYSeries *series, const QList<QPointF> &points)
{
    if (series && series->points() != points)
        series->replace(points);
}

} // namespace

struct SweepResultsView::SeriesItems
{
    QLineSeries *median = nullptr;
    QLineSeries *minimum = nullptr;
    QLineSeries *maximum = nullptr;
    QAreaSeries *band = nullptr;
    QLineSeries *effective = nullptr;
    QLineSeries *dram = nullptr;
    QLineSeries *theoretical = nullptr;
    QLineSeries *achieved = nullptr;
};

struct SweepResultsView::Label
{
    QChart *chart = nullptr;
    QGraphicsRectItem *frame = nullptr;      // a pale box, so that lines do not cross the text
    QGraphicsSimpleTextItem *item = nullptr; // a child of frame
    QAbstractSeries *series = nullptr;
    QPointF value;
    int anchor = AbovePoint;
};

SweepResultsView::SweepResultsView(QWidget *parent)
    : QWidget(parent)
    , m_model(new SweepTableModel(this))
    , m_proxy(new SweepTableProxy(this))
    , m_table(new QTableView(this))
    , m_stack(new QStackedWidget(this))
    , m_timeChart(new QChart)
    , m_bandwidthChart(new QChart)
    , m_heatmap(new SweepHeatmap(this))
    , m_pages(new QButtonGroup(this))
    , m_heatQuantity(new QComboBox(this))
    , m_exportButton(new QToolButton(this))
    , m_note(new QLabel(this))
{
    m_timeView = new QChartView(m_timeChart, this);
    m_bandwidthView = new QChartView(m_bandwidthChart, this);
    for (QChartView *view : {m_timeView, m_bandwidthView}) {
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(320, 220);
        view->setFrameShape(QFrame::NoFrame);
        view->setBackgroundBrush(Qt::white);
        view->viewport()->setMouseTracking(true);
        view->viewport()->installEventFilter(this);
        // Series geometry changes with every point of a streaming sweep: an index of the
        // scene's few items costs more to keep up than it saves.
        view->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
        QChart *chart = view->chart();
        chart->setMargins(QMargins(4, 4, 4, 4));
        chart->legend()->setAlignment(Qt::AlignBottom);
        // Line segments (dashed for a baseline) and the scatter symbols themselves in the legend.
        chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
        chart->setBackgroundRoundness(0);
        chart->setBackgroundPen(Qt::NoPen);
        QFont titleFont = chart->titleFont();
        titleFont.setBold(true);
        chart->setTitleFont(titleFont);
        connect(chart, &QChart::plotAreaChanged, this, [this, chart] { layoutLabels(chart); });
    }
    m_stack->addWidget(m_timeView);
    m_stack->addWidget(m_bandwidthView);
    m_stack->addWidget(m_heatmap);
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
    m_pages->setExclusive(true);
    m_pages->addButton(m_timeButton, int(Page::Time));
    m_pages->addButton(m_bandwidthButton, int(Page::Bandwidth));
    m_pages->addButton(m_heatmapButton, int(Page::Heatmap));
    for (QToolButton *button : {m_timeButton, m_bandwidthButton, m_heatmapButton}) {
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

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_heatmapButton);
    bar->addWidget(m_timeButton);
    bar->addWidget(m_bandwidthButton);
    bar->addSpacing(12);
    bar->addWidget(m_heatQuantity);
    bar->addStretch(1);
    bar->addWidget(m_exportButton);

    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setVisible(false);

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
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *copy = new QAction(tr("Copy rows"), m_table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &SweepResultsView::copySelectedRows);
    m_table->addAction(copy);
    connect(m_table, &QTableView::doubleClicked, this, &SweepResultsView::activateRow);

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

    refresh();
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

void SweepResultsView::clear()
{
    setRuns({});
}

SweepResultsView::Page SweepResultsView::page() const
{
    if (m_stack->currentWidget() == m_heatmap)
        return Page::Heatmap;
    if (m_stack->currentWidget() == m_bandwidthView)
        return Page::Bandwidth;
    return Page::Time;
}

void SweepResultsView::setPage(Page page)
{
    if (page == Page::Heatmap && !m_data.heatmap)
        page = Page::Time;
    switch (page) {
    case Page::Time:
        m_stack->setCurrentWidget(m_timeView);
        break;
    case Page::Bandwidth:
        m_stack->setCurrentWidget(m_bandwidthView);
        break;
    case Page::Heatmap:
        m_stack->setCurrentWidget(m_heatmap);
        break;
    }
    if (QAbstractButton *button = m_pages->button(int(page)))
        button->setChecked(true);
    m_heatQuantity->setVisible(page == Page::Heatmap);
    // The heatmap shows skipped and failed points itself.
    m_note->setVisible(page != Page::Heatmap && !m_note->text().isEmpty());
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
    const QString structure = this->structure();
    if (structure != m_structure) {
        m_structure = structure;
        rebuildCharts();
    } else {
        updateChartData();
    }
    updateNote();
    updatePageButtons();
}

// What decides which series, axes and fixed labels the charts hold; while it stays the same
// (a sweep streaming in), new points only replace the series' data.
QString SweepResultsView::structure() const
{
    QStringList parts;
    parts << m_data.xTitle << QString::number(int(m_data.logX))
          << QString::number(int(m_data.hasBandwidth)) << QString::number(int(m_data.hasDram))
          << QString::number(int(m_data.hasTheoreticalOccupancy))
          << QString::number(int(m_data.hasAchievedOccupancy))
          << QString::number(m_data.theoreticalPeakGBps.value_or(-1))
          << QString::number(m_data.copyCeilingGBps.value_or(-1));
    for (const SweepChartSeries &s : m_data.series)
        parts << s.name << QString::number(s.colorIndex) << QString::number(int(s.baseline));
    return parts.join(QChar(0x1f));
}

void SweepResultsView::clearChart(QChart *chart)
{
    for (auto it = m_labels.begin(); it != m_labels.end();) {
        if ((*it)->chart == chart) {
            delete (*it)->frame;
            it = m_labels.erase(it);
        } else {
            ++it;
        }
    }
    chart->removeAllSeries();
    const QList<QAbstractAxis *> axes = chart->axes();
    for (QAbstractAxis *axis : axes) {
        chart->removeAxis(axis);
        delete axis;
    }
}

QAbstractAxis *SweepResultsView::makeXAxis() const
{
    QAbstractAxis *axis = nullptr;
    if (m_data.logX) {
        auto *log = new QLogValueAxis;
        log->setBase(2.0);
        log->setLabelFormat(QStringLiteral("%g"));
        log->setMinorTickCount(0);
        axis = log;
    } else {
        auto *linear = new QValueAxis;
        linear->setLabelFormat(QStringLiteral("%g"));
        axis = linear;
    }
    axis->setTitleText(m_data.xTitle);
    return axis;
}

void SweepResultsView::rebuildCharts()
{
    clearChart(m_timeChart);
    clearChart(m_bandwidthChart);
    m_fixedLabels = 0;
    m_items.assign(m_data.series.size(), {});
    m_timeBest = m_timeTied = m_partialWaves = m_bandwidthBest = m_bandwidthTied = nullptr;
    m_peakLine = m_ceilingLine = nullptr;
    m_occupancyY = nullptr;

    const bool single = m_data.series.size() == 1;
    const bool several = m_builder.runs().size() > 1;

    m_timeX = makeXAxis();
    m_timeY = new QValueAxis;
    m_timeY->setLabelFormat(QStringLiteral("%g"));
    m_timeChart->addAxis(m_timeX, Qt::AlignBottom);
    m_timeChart->addAxis(m_timeY, Qt::AlignLeft);
    m_timeChart->setTitle(tr("Time per launch: median (line) and min\u2013max of the samples "
                             "(band)"));

    m_bandwidthX = makeXAxis();
    m_bandwidthY = new QValueAxis;
    m_bandwidthY->setLabelFormat(QStringLiteral("%g"));
    m_bandwidthY->setTitleText(tr("bandwidth (GB/s)"));
    m_bandwidthChart->addAxis(m_bandwidthX, Qt::AlignBottom);
    m_bandwidthChart->addAxis(m_bandwidthY, Qt::AlignLeft);
    const bool occupancy = m_data.hasTheoreticalOccupancy || m_data.hasAchievedOccupancy;
    if (occupancy) {
        // Up to 110 so that a line at 100% is not hidden in the plot's top edge; labels only
        // where they mean something.
        auto *categories = new QCategoryAxis;
        categories->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (int percent = 0; percent <= 100; percent += 25)
            categories->append(QString::number(percent), percent);
        categories->setStartValue(0);
        categories->setRange(0, 110);
        m_occupancyY = categories;
        m_occupancyY->setTitleText(tr("occupancy (%)"));
        m_occupancyY->setGridLineVisible(false); // the bandwidth axis owns the grid
        m_bandwidthChart->addAxis(m_occupancyY, Qt::AlignRight);
    }
    if (!m_data.hasBandwidth && !m_data.series.empty())
        m_bandwidthChart->setTitle(tr("Bandwidth: the measurements carry no byte count (see the "
                                      "bytes expression of the project's measure section)"));
    else
        m_bandwidthChart->setTitle(
            single || !occupancy
                ? tr("Bandwidth and occupancy")
                : tr("Bandwidth (solid: effective, dotted: DRAM) and occupancy (right axis; "
                     "dash-dot: theoretical, dash-dot-dot: achieved)"));

    const auto attach = [](QChart *chart, QAbstractSeries *series, QAbstractAxis *x,
                           QAbstractAxis *y) {
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    };
    const auto hideMarker = [](QChart *chart, QAbstractSeries *series) {
        for (QLegendMarker *marker : chart->legend()->markers(series))
            marker->setVisible(false);
    };
    const auto lineStyle = [](const SweepChartSeries &s, Qt::PenStyle style) {
        return s.baseline && style == Qt::SolidLine ? Qt::DashLine : style;
    };

    // Qt Charts draws series in the order they were added: bands first, so that every line is
    // over them, and baselines before the runs compared with them.
    std::vector<std::size_t> order;
    for (bool baseline : {true, false}) {
        for (std::size_t i = 0; i < m_data.series.size(); ++i) {
            if (m_data.series[i].baseline == baseline)
                order.push_back(i);
        }
    }
    for (std::size_t i : order) {
        const SweepChartSeries &s = m_data.series[i];
        SeriesItems &items = m_items[i];
        QColor band = seriesColor(s, single);
        band.setAlpha(s.baseline ? 28 : 50);
        items.minimum = new QLineSeries;
        items.maximum = new QLineSeries;
        items.band = new QAreaSeries(items.maximum, items.minimum);
        items.minimum->setParent(items.band);
        items.maximum->setParent(items.band);
        items.band->setName(tr("%1 min\u2013max").arg(s.name));
        items.band->setBrush(band);
        items.band->setPen(Qt::NoPen);
        attach(m_timeChart, items.band, m_timeX, m_timeY);
        hideMarker(m_timeChart, items.band);
    }
    for (std::size_t i : order) {
        const SweepChartSeries &s = m_data.series[i];
        SeriesItems &items = m_items[i];
        const QColor colour = seriesColor(s, single);
        items.median = new QLineSeries;
        items.median->setName(single && !several && s.group.isEmpty() ? tr("median") : s.name);
        items.median->setPen(QPen(colour, 2.0, lineStyle(s, Qt::SolidLine)));
        items.median->setPointsVisible(true);
        items.median->setMarkerSize(6.0);
        attach(m_timeChart, items.median, m_timeX, m_timeY);

        if (m_data.hasBandwidth) {
            items.effective = new QLineSeries;
            // Several series: the title says which line style is which quantity.
            items.effective->setName(single ? tr("effective") : s.name);
            items.effective->setPen(QPen(colour, 2.0, lineStyle(s, Qt::SolidLine)));
            items.effective->setPointsVisible(true);
            items.effective->setMarkerSize(6.0);
            attach(m_bandwidthChart, items.effective, m_bandwidthX, m_bandwidthY);
        }
        if (m_data.hasDram) {
            items.dram = new QLineSeries;
            items.dram->setName(single ? tr("DRAM") : tr("%1 DRAM").arg(s.name));
            items.dram->setPen(QPen(single ? kDramColor : colour, 2.0, Qt::DotLine));
            attach(m_bandwidthChart, items.dram, m_bandwidthX, m_bandwidthY);
            if (!single)
                hideMarker(m_bandwidthChart, items.dram);
        }
        if (m_data.hasTheoreticalOccupancy) {
            items.theoretical = new QLineSeries;
            items.theoretical->setName(single ? tr("theoretical occ.")
                                              : tr("%1 theoretical occupancy").arg(s.name));
            items.theoretical->setPen(
                QPen(single ? kTheoreticalColor : colour, 1.5, Qt::DashDotLine));
            attach(m_bandwidthChart, items.theoretical, m_bandwidthX, m_occupancyY);
            if (!single)
                hideMarker(m_bandwidthChart, items.theoretical);
        }
        if (m_data.hasAchievedOccupancy) {
            items.achieved = new QLineSeries;
            items.achieved->setName(single ? tr("achieved occ.")
                                           : tr("%1 achieved occupancy").arg(s.name));
            items.achieved->setPen(QPen(single ? kAchievedColor : colour, 1.5, Qt::DashDotDotLine));
            attach(m_bandwidthChart, items.achieved, m_bandwidthX, m_occupancyY);
            if (!single)
                hideMarker(m_bandwidthChart, items.achieved);
        }
    }

    if (m_data.theoreticalPeakGBps && m_data.hasBandwidth) {
        m_peakLine = new QLineSeries;
        m_peakLine->setName(tr("theoretical peak"));
        m_peakLine->setPen(QPen(kPeakColor, 1.5, Qt::DashLine));
        attach(m_bandwidthChart, m_peakLine, m_bandwidthX, m_bandwidthY);
        hideMarker(m_bandwidthChart, m_peakLine); // labelled on the line instead
        addLabel(m_bandwidthChart, m_peakLine,
                 tr("theoretical peak %1 GB/s").arg(gbpsText(*m_data.theoreticalPeakGBps)),
                 {0, *m_data.theoreticalPeakGBps}, AboveLineRight, kPeakColor, true);
    }
    if (m_data.copyCeilingGBps && m_data.hasBandwidth) {
        m_ceilingLine = new QLineSeries;
        m_ceilingLine->setName(tr("copy ceiling"));
        m_ceilingLine->setPen(QPen(kCeilingColor, 1.5, Qt::DashLine));
        attach(m_bandwidthChart, m_ceilingLine, m_bandwidthX, m_bandwidthY);
        hideMarker(m_bandwidthChart, m_ceilingLine);
        addLabel(m_bandwidthChart, m_ceilingLine,
                 tr("measured copy ceiling %1 GB/s").arg(gbpsText(*m_data.copyCeilingGBps)),
                 {0, *m_data.copyCeilingGBps}, BelowLineRight, kCeilingColor, true);
    }
    m_fixedLabels = m_labels.size();

    const auto markers = [&](QChart *chart, QAbstractAxis *x, QAbstractAxis *y,
                             QScatterSeries *&best, QScatterSeries *&tied) {
        tied = new QScatterSeries;
        tied->setName(tr("tied with best"));
        tied->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        tied->setMarkerSize(13.0);
        tied->setColor(Qt::transparent);
        tied->setBorderColor(QColor(0x20, 0x20, 0x20));
        tied->setPen(QPen(QColor(0x20, 0x20, 0x20), 1.5));
        attach(chart, tied, x, y);
        best = new QScatterSeries;
        best->setName(several ? tr("best of each run") : tr("best"));
        best->setMarkerShape(QScatterSeries::MarkerShapeStar);
        best->setMarkerSize(20.0);
        best->setColor(kBestColor);
        best->setBorderColor(QColor(0x50, 0x3c, 0x00));
        best->setPen(QPen(QColor(0x50, 0x3c, 0x00), 1.0));
        attach(chart, best, x, y);
    };
    markers(m_timeChart, m_timeX, m_timeY, m_timeBest, m_timeTied);
    if (m_data.hasWaves) {
        m_partialWaves = new QScatterSeries;
        m_partialWaves->setName(tr("last wave under 90% full"));
        m_partialWaves->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
        m_partialWaves->setMarkerSize(11.0);
        m_partialWaves->setColor(Qt::transparent);
        m_partialWaves->setBorderColor(kWaveColor);
        m_partialWaves->setPen(QPen(kWaveColor, 2.0));
        attach(m_timeChart, m_partialWaves, m_timeX, m_timeY);
    }
    if (m_data.hasBandwidth)
        markers(m_bandwidthChart, m_bandwidthX, m_bandwidthY, m_bandwidthBest, m_bandwidthTied);

    updateChartData();
}

void SweepResultsView::addLabel(QChart *chart, QAbstractSeries *series, const QString &text,
                                QPointF value, int anchor, const QColor &color, bool bold)
{
    auto label = std::make_unique<Label>();
    label->chart = chart;
    label->series = series;
    label->value = value;
    label->anchor = anchor;
    label->frame = new QGraphicsRectItem(chart);
    label->frame->setPen(Qt::NoPen);
    // A line's label sits at the plot's edge: a pale box keeps it readable where other lines
    // cross it. A point's label sits among the data, which a box would hide.
    label->frame->setBrush(isPointAnchor(anchor) ? QColor(Qt::transparent)
                                                 : QColor(255, 255, 255, 190));
    label->frame->setZValue(20);
    label->item = new QGraphicsSimpleTextItem(text, label->frame);
    label->item->setBrush(color);
    label->item->setPos(2, 0);
    QFont font = chart->font();
    font.setBold(bold);
    label->item->setFont(font);
    m_labels.push_back(std::move(label));
}

void SweepResultsView::layoutLabels(QChart *chart)
{
    const QRectF plot = chart->plotArea();
    std::vector<QRectF> placed; // point labels that would overlap one already placed are hidden
    for (const std::unique_ptr<Label> &label : m_labels) {
        if (label->chart != chart || !label->series)
            continue;
        const QRectF text = label->item->boundingRect();
        const QRectF box(0, 0, text.width() + 4, text.height());
        label->frame->setRect(box);
        QPointF value = label->value;
        if (!isPointAnchor(label->anchor)) {
            // A horizontal line: only its y matters, mapped at one of its own (positive, for a
            // log axis) x values.
            auto *line = qobject_cast<QLineSeries *>(label->series);
            if (!line || line->count() == 0)
                continue;
            value.setX(line->at(0).x());
        }
        const QPointF at = chart->mapToPosition(value, label->series);
        QPointF position;
        switch (label->anchor) {
        case AboveLineRight:
            position = QPointF(plot.right() - box.width() - 6, at.y() - box.height() - 1);
            break;
        case BelowLineRight:
            position = QPointF(plot.right() - box.width() - 6, at.y() + 1);
            break;
        case BelowPoint:
            position = QPointF(at.x() - box.width() / 2, at.y() + 10);
            break;
        default:
            position = QPointF(at.x() - box.width() / 2, at.y() - box.height() - 9);
            break;
        }
        // Keep a label whole inside the plot area, so that no axis text is covered.
        position.setX(std::clamp(position.x(), plot.left() + 2,
                                 std::max(plot.left() + 2, plot.right() - box.width() - 2)));
        position.setY(std::clamp(position.y(), plot.top() + 1,
                                 std::max(plot.top() + 1, plot.bottom() - box.height() - 1)));
        label->frame->setPos(position);
        bool visible = plot.isValid();
        if (isPointAnchor(label->anchor)) {
            const QRectF area(position, box.size());
            visible = visible && std::none_of(placed.begin(), placed.end(),
                                              [&](const QRectF &r) { return r.intersects(area); });
            if (visible)
                placed.push_back(area);
        }
        label->frame->setVisible(visible);
    }
}

void SweepResultsView::updateChartData()
{
    // Time unit from the slowest sample drawn.
    double slowest = 0.0;
    double lowestX = m_data.xLow;
    double highestX = m_data.xHigh;
    double highestGBps = 0.0;
    for (const SweepChartSeries &s : m_data.series) {
        for (const SweepChartPoint &c : s.points) {
            slowest = std::max(slowest, c.maxNs);
            highestGBps =
                std::max({highestGBps, c.effectiveGBps.value_or(0.0), c.dramGBps.value_or(0.0)});
        }
    }
    const auto [unitNs, unitName] = timeUnit(slowest);
    m_timeUnitNs = unitNs;
    m_timeY->setTitleText(tr("time per launch (%1)").arg(unitName));
    // A marker on every point helps a reader of a few dozen points; hundreds of them only
    // cover the lines, and drawing them is what makes a redraw of a large streaming sweep
    // miss a frame (bench/bench_sweep_gui).
    std::size_t drawn = 0;
    for (const SweepChartSeries &s : m_data.series)
        drawn += s.points.size();
    const bool markers = drawn <= kMaxMarkedPoints;
    for (const SeriesItems &items : m_items) {
        for (QLineSeries *line : {items.median, items.effective}) {
            if (line && line->pointsVisible() != markers)
                line->setPointsVisible(markers);
        }
    }

    QList<QPointF> best, tied, bandwidthBest, bandwidthTied, partial;
    struct DataLabel
    {
        QChart *chart;
        QAbstractSeries *series;
        QString text;
        QPointF value;
        int anchor;
        QColor color;
        bool bold;
    };
    // The first run's best point by name (placed first, so that wave labels give way to it),
    // then the wave counts.
    std::vector<DataLabel> dataLabels;
    std::vector<DataLabel> waveLabels;
    for (std::size_t i = 0; i < m_data.series.size() && i < m_items.size(); ++i) {
        const SweepChartSeries &s = m_data.series[i];
        SeriesItems &items = m_items[i];
        QList<QPointF> median, minimum, maximum, effective, dram, theoretical, achieved;
        median.reserve(qsizetype(s.points.size()));
        minimum.reserve(qsizetype(s.points.size()));
        maximum.reserve(qsizetype(s.points.size()));
        effective.reserve(qsizetype(s.points.size()));
        for (const SweepChartPoint &c : s.points) {
            const QPointF time(c.x, c.medianNs / unitNs);
            median.append(time);
            minimum.append({c.x, c.minNs / unitNs});
            maximum.append({c.x, c.maxNs / unitNs});
            if (c.effectiveGBps)
                effective.append({c.x, *c.effectiveGBps});
            if (c.dramGBps)
                dram.append({c.x, *c.dramGBps});
            if (c.theoreticalOccupancyPercent)
                theoretical.append({c.x, *c.theoreticalOccupancyPercent});
            if (c.achievedOccupancyPercent)
                achieved.append({c.x, *c.achievedOccupancyPercent});
            if (c.best) {
                best.append(time);
                if (c.effectiveGBps)
                    bandwidthBest.append({c.x, *c.effectiveGBps});
                if (c.run == 0) {
                    const QString name =
                        toQString(m_builder.runs().front().result.points[c.point].point.label());
                    dataLabels.push_back(
                        {m_timeChart, m_timeBest, name, time, BelowPoint, kBestText, true});
                    if (c.effectiveGBps)
                        dataLabels.push_back({m_bandwidthChart, m_bandwidthBest, name,
                                              QPointF(c.x, *c.effectiveGBps), AbovePoint, kBestText,
                                              true});
                }
            } else if (c.tied) {
                tied.append(time);
                if (c.effectiveGBps)
                    bandwidthTied.append({c.x, *c.effectiveGBps});
            }
            // A baseline ran the same configurations: its waves would only repeat the marks.
            if (c.waves && lastWaveMostlyEmpty(*c.waves) && m_partialWaves && !s.baseline) {
                partial.append(time);
                waveLabels.push_back({m_timeChart, m_partialWaves,
                                      tr("%1 waves").arg(QString::number(*c.waves, 'f', 1)), time,
                                      AbovePoint, kWaveColor.darker(130), false});
            }
        }
        replaceIfChanged(items.median, median);
        replaceIfChanged(items.minimum, minimum);
        replaceIfChanged(items.maximum, maximum);
        replaceIfChanged(items.effective, effective);
        replaceIfChanged(items.dram, dram);
        replaceIfChanged(items.theoretical, theoretical);
        replaceIfChanged(items.achieved, achieved);
    }
    // Point labels follow the data; their items are reused, as creating and deleting graphics
    // items for every streamed point costs more than the series themselves.
    dataLabels.insert(dataLabels.end(), waveLabels.begin(), waveLabels.end());
    while (m_labels.size() > m_fixedLabels + dataLabels.size()) {
        delete m_labels.back()->frame;
        m_labels.pop_back();
    }
    for (std::size_t i = 0; i < dataLabels.size(); ++i) {
        const DataLabel &wanted = dataLabels[i];
        const std::size_t slot = m_fixedLabels + i;
        if (slot < m_labels.size() && m_labels[slot]->chart == wanted.chart &&
            m_labels[slot]->item->font().bold() == wanted.bold) {
            Label &label = *m_labels[slot];
            if (label.item->text() != wanted.text)
                label.item->setText(wanted.text);
            label.series = wanted.series;
            label.value = wanted.value;
            label.anchor = wanted.anchor;
            label.item->setBrush(wanted.color);
            continue;
        }
        if (slot < m_labels.size()) {
            // A label of another kind in this slot: replace it and everything after it.
            while (m_labels.size() > slot) {
                delete m_labels.back()->frame;
                m_labels.pop_back();
            }
        }
        addLabel(wanted.chart, wanted.series, wanted.text, wanted.value, wanted.anchor,
                 wanted.color, wanted.bold);
    }
    replaceIfChanged(m_timeBest, best);
    replaceIfChanged(m_timeTied, tied);
    replaceIfChanged(m_partialWaves, partial);
    replaceIfChanged(m_bandwidthBest, bandwidthBest);
    replaceIfChanged(m_bandwidthTied, bandwidthTied);
    for (QChart *chart : {m_timeChart, m_bandwidthChart}) {
        for (QScatterSeries *series :
             {m_timeBest, m_timeTied, m_partialWaves, m_bandwidthBest, m_bandwidthTied}) {
            if (!series || !chart->series().contains(series))
                continue;
            // An empty marker series keeps the legend free for what is drawn.
            for (QLegendMarker *marker : chart->legend()->markers(series))
                marker->setVisible(series->count() > 0);
        }
    }

    // Ranges: x padded so that the end markers are whole; y from zero, as a time or a rate is
    // read against zero, rounded to a value the grid can label.
    if (!(lowestX < highestX) && !(m_data.logX && lowestX == highestX && lowestX > 0)) {
        lowestX = m_data.logX ? 32 : 0;
        highestX = m_data.logX ? 1024 : 1;
    }
    double xMin = lowestX;
    double xMax = highestX;
    if (m_data.logX) {
        xMin = lowestX / 1.15;
        xMax = highestX * 1.15;
    } else {
        const double pad = highestX > lowestX ? (highestX - lowestX) * 0.04 : 1.0;
        xMin = lowestX - pad;
        xMax = highestX + pad;
    }
    for (QAbstractAxis *axis : {m_timeX, m_bandwidthX})
        axis->setRange(xMin, xMax);
    setNiceRange(m_timeY, slowest > 0 ? slowest / unitNs * 1.05 : 1.0);
    double bandwidthTop = highestGBps;
    if (m_data.theoreticalPeakGBps)
        bandwidthTop = std::max(bandwidthTop, *m_data.theoreticalPeakGBps);
    if (m_data.copyCeilingGBps)
        bandwidthTop = std::max(bandwidthTop, *m_data.copyCeilingGBps);
    setNiceRange(m_bandwidthY, bandwidthTop > 0 ? bandwidthTop * 1.06 : 1.0);
    if (m_peakLine)
        m_peakLine->replace(
            {{xMin, *m_data.theoreticalPeakGBps}, {xMax, *m_data.theoreticalPeakGBps}});
    if (m_ceilingLine)
        m_ceilingLine->replace({{xMin, *m_data.copyCeilingGBps}, {xMax, *m_data.copyCeilingGBps}});

    layoutLabels(m_timeChart);
    layoutLabels(m_bandwidthChart);
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
        m_note->setVisible(!lines.isEmpty() && page() != Page::Heatmap);
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
    m_note->setVisible(page() != Page::Heatmap);
}

QChartView *SweepResultsView::currentChartView() const
{
    if (m_stack->currentWidget() == m_timeView)
        return m_timeView;
    if (m_stack->currentWidget() == m_bandwidthView)
        return m_bandwidthView;
    return nullptr;
}

std::vector<SweepResultsView::Hit> SweepResultsView::hitTargets(QChartView *view) const
{
    std::vector<Hit> hits;
    QChart *chart = view->chart();
    const auto add = [&](const SweepChartPoint &c, QAbstractSeries *series, double y) {
        if (!series)
            return;
        const QPointF inChart = chart->mapToPosition(QPointF(c.x, y), series);
        const QPointF inView = view->mapFromScene(chart->mapToScene(inChart));
        hits.push_back({c.run, c.point, inView});
    };
    for (std::size_t i = 0; i < m_data.series.size() && i < m_items.size(); ++i) {
        const SeriesItems &items = m_items[i];
        for (const SweepChartPoint &c : m_data.series[i].points) {
            if (view == m_timeView) {
                add(c, items.median, c.medianNs / m_timeUnitNs);
                continue;
            }
            if (c.effectiveGBps)
                add(c, items.effective, *c.effectiveGBps);
            if (c.dramGBps)
                add(c, items.dram, *c.dramGBps);
            if (c.theoreticalOccupancyPercent)
                add(c, items.theoretical, *c.theoreticalOccupancyPercent);
            if (c.achievedOccupancyPercent)
                add(c, items.achieved, *c.achievedOccupancyPercent);
        }
    }
    return hits;
}

std::optional<SweepResultsView::Hit> SweepResultsView::hitAt(QChartView *view,
                                                             const QPointF &position) const
{
    constexpr double radius = 10.0;
    std::optional<Hit> nearest;
    double nearestDistance = radius * radius;
    for (const Hit &hit : hitTargets(view)) {
        const QPointF d = hit.position - position;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance <= nearestDistance) {
            nearestDistance = distance;
            nearest = hit;
        }
    }
    return nearest;
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
    for (const Hit &hit : hitTargets(view)) {
        if (hit.run == run && hit.point == point)
            return hit.position.toPoint();
    }
    return std::nullopt;
}

QString SweepResultsView::toolTipFor(std::size_t run, std::size_t point) const
{
    if (run >= m_builder.runs().size())
        return {};
    return SweepChartBuilder::toolTip(m_builder.runs()[run], point);
}

bool SweepResultsView::eventFilter(QObject *watched, QEvent *event)
{
    QChartView *view = nullptr;
    if (watched == m_timeView->viewport())
        view = m_timeView;
    else if (watched == m_bandwidthView->viewport())
        view = m_bandwidthView;
    if (!view)
        return QWidget::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseMove: {
        auto *mouse = static_cast<QMouseEvent *>(event);
        const std::optional<Hit> hit = hitAt(view, mouse->position());
        view->viewport()->setCursor(hit ? Qt::PointingHandCursor : Qt::ArrowCursor);
        if (hit)
            QToolTip::showText(mouse->globalPosition().toPoint(), toolTipFor(hit->run, hit->point),
                               view->viewport());
        else
            QToolTip::hideText();
        break;
    }
    case QEvent::MouseButtonPress:
        m_pressPosition = static_cast<QMouseEvent *>(event)->position().toPoint();
        break;
    case QEvent::MouseButtonRelease: {
        auto *mouse = static_cast<QMouseEvent *>(event);
        if (mouse->button() != Qt::LeftButton ||
            (mouse->position().toPoint() - m_pressPosition).manhattanLength() > 4)
            break;
        if (const std::optional<Hit> hit = hitAt(view, mouse->position()))
            activate(hit->run, hit->point);
        break;
    }
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
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
