// SweepResultsView: the results of block-size (and other) sweeps as charts and a table. Two line
// charts over the swept axis, one shown at a time: time per launch (median line, min–max band,
// markers where the grid's last wave is mostly empty) and bandwidth (effective and DRAM, lines
// at the theoretical peak and the measured copy ceiling, theoretical and achieved occupancy on a
// second axis). A block.x × block.y sweep is shown as a heatmap instead. The best point and the
// points within the measured noise of it are marked everywhere. Several runs can be overlaid
// (kernels of a source, a baseline drawn dashed); the first run is the one that streams in and
// fills the table. Hovering a point shows every statistic of it; clicking it (or double-clicking
// its row) emits pointActivated with the point's configuration, for the launch panel. The line
// charts are drawn and hit-tested by a SweepChartView; this class holds the data, the table, the
// page stack and its buttons, the note on what is not drawn, and the exports. The Roofline page
// places each point with a metrics pass that collected rooflineMetrics() (Roofline on) under
// the device's roofs (RooflineChart), with the baseline's points hollow; it is rebuilt only
// while it is on screen.
#pragma once

#include "gui/sweep/sweepchartbuilder.h"

#include <QWidget>

#include <optional>
#include <vector>

class QButtonGroup;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace cuwb {

class RooflineChart;
class SweepChartView;
class SweepHeatmap;
class SweepTableModel;
class SweepTableProxy;

class SweepResultsView : public QWidget
{
    Q_OBJECT

public:
    enum class Page { Time, Bandwidth, Heatmap, Roofline };

    explicit SweepResultsView(QWidget *parent = nullptr);
    ~SweepResultsView() override;

    // One sweep, named "current" unless a name is given; replaces every run.
    void setResult(const SweepResult &result, const QString &name = {});
    // Several sweeps on the same charts. The first is the one appendPoint/setPoint update and
    // the table shows; a run marked baseline is drawn dashed in the colours of the first.
    void setRuns(std::vector<NamedSweep> runs);
    // Adds a baseline run to compare with (replacing an earlier baseline), or removes it.
    void setBaseline(const SweepResult &baseline, const QString &name);
    void clearBaseline();
    // A stored result (sweepjson.h) as the current run or as the baseline, named after the
    // file or "baseline <date it started>"; an empty string on success, else why not.
    QString openResult(const QString &path);
    QString openBaseline(const QString &path);
    // Streaming into the first run: cheap per point (the charts' series are updated in place,
    // the table gets a row).
    void appendPoint(const SweepPointResult &point);
    void setPoint(std::size_t index, const SweepPointResult &point);
    // Several points at once (by their SweepPoint::index), with one redraw: what a sweep
    // delivered since the last frame.
    void setPoints(const std::vector<SweepPointResult> &points);
    // A sweep is streaming in (SweepChartView::setStreaming).
    void setStreaming(bool streaming);
    void clear();

    void setPage(Page page);
    [[nodiscard]] Page page() const;
    [[nodiscard]] bool showsHeatmap() const { return page() == Page::Heatmap; }

    // The page on screen, at twice its size in pixels; an empty string on success, else what
    // went wrong.
    QString exportPng(const QString &path) const;
    QString exportSvg(const QString &path) const;
    // The size of the page on screen, in logical pixels (the PNG has twice as many).
    [[nodiscard]] QSize exportSize() const;

    // Copies the selected rows of the table as tab-separated text (the table's Ctrl+C).
    void copySelectedRows() const;

    [[nodiscard]] const std::vector<NamedSweep> &runs() const { return m_builder.runs(); }
    [[nodiscard]] const SweepChartData &chartData() const { return m_data; }
    [[nodiscard]] SweepTableModel *tableModel() const { return m_model; }
    [[nodiscard]] QTableView *tableView() const { return m_table; }
    [[nodiscard]] QChart *timeChart() const;
    [[nodiscard]] QChart *bandwidthChart() const;
    [[nodiscard]] SweepHeatmap *heatmap() const { return m_heatmap; }
    [[nodiscard]] RooflineChart *rooflineChart() const { return m_roofline; }
    // The tooltip of a point of a run, and where that point is drawn in the visible page's
    // viewport (nullopt when it is not drawn there).
    [[nodiscard]] QString toolTipFor(std::size_t run, std::size_t point) const;
    [[nodiscard]] std::optional<QPoint> pointPosition(std::size_t run, std::size_t point) const;

Q_SIGNALS:
    void pointActivated(const cuwb::SweepPoint &point);

private:
    // The constructor's parts: the chart pages and their buttons, the export button, the table,
    // and the layout (the chart side beside the table).
    void createChartPages();
    void createExportButton();
    void createTable();
    void createLayout();
    void refresh();
    void updateNote();
    void updatePageButtons();
    void updateRoofline();
    [[nodiscard]] QChartView *currentChartView() const;
    [[nodiscard]] QWidget *exportWidget() const;
    void activate(std::size_t run, std::size_t point);
    void activateRow(const QModelIndex &proxyIndex);

    SweepChartBuilder m_builder;
    SweepChartData m_data; // m_charts keeps a pointer to it

    SweepTableModel *m_model = nullptr;
    SweepTableProxy *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QStackedWidget *m_stack = nullptr; // the time and bandwidth charts' views, the heatmap
    SweepChartView *m_charts = nullptr;
    SweepHeatmap *m_heatmap = nullptr;
    RooflineChart *m_roofline = nullptr;
    bool m_rooflineStale = true; // the runs changed since the roofline was built
    QButtonGroup *m_pages = nullptr;
    QToolButton *m_timeButton = nullptr;
    QToolButton *m_bandwidthButton = nullptr;
    QToolButton *m_heatmapButton = nullptr;
    QToolButton *m_rooflineButton = nullptr;
    QComboBox *m_heatQuantity = nullptr;
    QToolButton *m_exportButton = nullptr;
    QLabel *m_note = nullptr;

    bool m_heatmapShownOnce = false;
};

} // namespace cuwb
