// The measurement options' metrics section: the choice round-trips through QSettings, the list
// is parsed leniently, and the line under it counts the replay passes on the device's chip with
// a real planMetricPasses call (libcupti and libnvperf_host, no GPU) — one pass for the default
// set on GH100 — or names an unknown metric. Counting runs off the GUI thread. Where CUPTI's
// host libraries cannot be loaded, the tests that need them skip with the reason.
#include "gui/measure/measureoptionsdialog.h"
#include "gui/measure/metricpassplanner.h"
#include "gui/workspace/workspace.h"
#include "measure/roofline.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_measureoptionsdialog {

namespace {

constexpr int PlanTimeoutMs = 30000; // the first count loads CUPTI

QStringList defaultNames()
{
    QStringList names;
    for (const std::string &name : defaultMetrics())
        names.append(QString::fromStdString(name));
    return names;
}

} // namespace

class TestMeasureOptionsDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void defaultMetricsNeedOnePassOnGH100();
    void unknownMetricIsNamed();
    void countingDoesNotBlockTheDialog();
    void unknownArchitectureIsNoError();
    void metricNamesAreParsedLeniently();
    void emptyListBlocksOkOnlyWhenCollecting();
    void choiceRoundTrips();
    void timerRoundTrips();
    void staleCountsAreDropped();
    void rooflineBoxAddsAndRemovesItsMetrics();

private:
    QTemporaryDir m_settingsDir;
    QString m_skipReason;
};

void TestMeasureOptionsDialog::initTestCase()
{
    QVERIFY(m_settingsDir.isValid());
    cuwb::test::keepSettingsIn(m_settingsDir.path());
    // As tests/core/tst_metricplan.cpp: only a missing library is a reason to skip.
    const MetricsResult probe = planMetricPasses("GH100", {"gpu__time_duration.sum"});
    if (!probe.ok() && (probe.error.find("could not be loaded") != std::string::npos ||
                        probe.error.find("has no cupti") != std::string::npos))
        m_skipReason = QStringLiteral("needs CUPTI from CUDA 13 with libnvperf_host: %1")
                           .arg(QString::fromStdString(probe.error));
}

void TestMeasureOptionsDialog::defaultMetricsNeedOnePassOnGH100()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    MeasureOptionsDialog dialog;
    dialog.setArchitecture(QStringLiteral("sm_90"));
    QTRY_COMPARE_WITH_TIMEOUT(dialog.passesText(),
                              QStringLiteral("1 replay pass on GH100 (sm_90) for 6 metrics"),
                              PlanTimeoutMs);
    QVERIFY(!dialog.passesIsError());
}

void TestMeasureOptionsDialog::unknownMetricIsNamed()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    MeasureOptionsDialog dialog;
    dialog.setArchitecture(QStringLiteral("sm_90"));
    // Typed: the count follows once the typing pauses.
    dialog.metricsEdit()->setPlainText(
        QStringLiteral("dram__bytes_read.sum\ndram__no_such_counter.sum\n"));
    QTRY_VERIFY_WITH_TIMEOUT(dialog.passesIsError(), PlanTimeoutMs);
    QVERIFY2(dialog.passesText().startsWith(
                 QStringLiteral("Unknown metric `dram__no_such_counter.sum`")),
             qPrintable(dialog.passesText()));
    QVERIFY(dialog.passesText().contains(QStringLiteral("GH100")));
    QVERIFY(dialog.passesIsError());

    // Fixed again: the error goes.
    dialog.metricsEdit()->setPlainText(QStringLiteral("dram__bytes_read.sum"));
    QTRY_COMPARE_WITH_TIMEOUT(dialog.passesText(),
                              QStringLiteral("1 replay pass on GH100 (sm_90) for 1 metric"),
                              PlanTimeoutMs);
    QVERIFY(!dialog.passesIsError());
}

void TestMeasureOptionsDialog::countingDoesNotBlockTheDialog()
{
    if (!m_skipReason.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    MeasureOptionsDialog dialog;
    QSignalSpy planned(dialog.planner(), &MetricPassPlanner::planFinished);
    // Returns before the count is known: it runs on a pool thread, not in this call.
    dialog.setArchitecture(QStringLiteral("sm_90"));
    QCOMPARE(dialog.passesText(), QStringLiteral("Counting replay passes on GH100\u2026"));
    QVERIFY(dialog.planner()->isBusy());
    QVERIFY(planned.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(planned.size(), 1, PlanTimeoutMs);
    QVERIFY(!dialog.planner()->isBusy());
}

void TestMeasureOptionsDialog::unknownArchitectureIsNoError()
{
    // No chip name, no CUPTI: answered without loading anything, and not shown as a mistake.
    MeasureOptionsDialog dialog;
    dialog.setArchitecture(QStringLiteral("sm_61"));
    QTRY_COMPARE(dialog.passesText(),
                 QStringLiteral("Replay passes not known: this program knows no CUPTI chip for "
                                "sm_61"));
    QVERIFY(!dialog.passesIsError());
    dialog.setArchitecture(QString());
    QTRY_VERIFY(dialog.passesText().contains(QStringLiteral("no device")));
    QVERIFY(!dialog.passesIsError());
}

void TestMeasureOptionsDialog::metricNamesAreParsedLeniently()
{
    QCOMPARE(
        MeasureOptionsDialog::parseMetricNames(
            QStringLiteral("  a.sum, b.avg;\n\n a.sum\tc.max \n")),
        QStringList({QStringLiteral("a.sum"), QStringLiteral("b.avg"), QStringLiteral("c.max")}));
    QVERIFY(MeasureOptionsDialog::parseMetricNames(QStringLiteral(" ,\n ")).isEmpty());
}

void TestMeasureOptionsDialog::emptyListBlocksOkOnlyWhenCollecting()
{
    MeasureOptionsDialog dialog;
    auto *box = dialog.findChild<QDialogButtonBox *>();
    QVERIFY(box);
    QPushButton *ok = box->button(QDialogButtonBox::Ok);
    dialog.metricsEdit()->clear();
    dialog.metricsGroup()->setChecked(false);
    QVERIFY(ok->isEnabled());
    dialog.metricsGroup()->setChecked(true);
    QVERIFY(!ok->isEnabled());
    dialog.metricsEdit()->setPlainText(QStringLiteral("gpu__time_duration.sum"));
    QVERIFY(ok->isEnabled());
}

void TestMeasureOptionsDialog::choiceRoundTrips()
{
    QSettings().remove(QStringLiteral("measure"));
    // Nothing stored: off, with the default metrics.
    const MetricsChoice initial = Workspace::storedMetricsChoice();
    QVERIFY(!initial.collect);
    QVERIFY(initial.metrics == defaultMetrics());

    MeasureOptionsDialog dialog;
    QCOMPARE(MeasureOptionsDialog::parseMetricNames(dialog.metricsEdit()->toPlainText()),
             defaultNames());
    QVERIFY(!dialog.metricsGroup()->isChecked());

    const MetricsChoice custom{true, {"dram__bytes_read.sum", "lts__t_bytes.sum"}};
    dialog.setMetricsChoice(custom);
    QVERIFY(dialog.metricsChoice() == custom);
    Workspace().setMetricsChoice(dialog.metricsChoice());
    QVERIFY(Workspace::storedMetricsChoice() == custom);

    // The defaults are not written down, so that newer defaults reach the user.
    Workspace().setMetricsChoice(MetricsChoice{true, defaultMetrics()});
    QVERIFY(!QSettings().contains(QStringLiteral("measure/metrics")));
    QVERIFY(Workspace::storedMetricsChoice() == (MetricsChoice{true, defaultMetrics()}));
}

void TestMeasureOptionsDialog::timerRoundTrips()
{
    QSettings().remove(QStringLiteral("measure"));
    QCOMPARE(Workspace::storedSampleSettings().timer, TimingSource::Cupti); // nothing stored
    SampleSettings settings;
    settings.timer = TimingSource::Profiler;
    MeasureOptionsDialog dialog;
    dialog.setSettings(settings);
    QCOMPARE(dialog.settings().timer, TimingSource::Profiler);
    // CUWB_MEASURE_SCREENSHOT_DIR=DIR keeps the dialog as drawn, to look at.
    if (const QString keep = qEnvironmentVariable("CUWB_MEASURE_SCREENSHOT_DIR"); !keep.isEmpty()) {
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.grab().save(keep + QStringLiteral("/measure-options.png")));
    }
    Workspace().setSampleSettings(dialog.settings());
    QCOMPARE(Workspace::storedSampleSettings().timer, TimingSource::Profiler);
    settings.timer = TimingSource::Events;
    Workspace().setSampleSettings(settings);
    QCOMPARE(Workspace::storedSampleSettings().timer, TimingSource::Events);
    // A name edited by hand into nothing known: the default.
    QSettings().setValue(QStringLiteral("measure/timer"), QStringLiteral("stopwatch"));
    QCOMPARE(Workspace::storedSampleSettings().timer, TimingSource::Cupti);
}

void TestMeasureOptionsDialog::staleCountsAreDropped()
{
    // Three requests in a row: at most one runs and one waits; only the newest is reported.
    MetricPassPlanner planner;
    QSignalSpy planned(&planner, &MetricPassPlanner::planFinished);
    planner.plan(QStringLiteral("sm_61"), {QStringLiteral("a")});
    planner.plan(QStringLiteral("sm_62"), {QStringLiteral("b")});
    const quint64 newest = planner.plan(QStringLiteral("sm_63"), {QStringLiteral("c")});
    QTRY_VERIFY(!planner.isBusy());
    QCOMPARE(planned.size(), 1);
    QCOMPARE(planned.front().at(0).value<quint64>(), newest);
    QVERIFY(planned.front().at(1).value<MetricsResult>().error.find("sm_63") != std::string::npos);
}

void TestMeasureOptionsDialog::rooflineBoxAddsAndRemovesItsMetrics()
{
    MeasureOptionsDialog dialog;
    dialog.setMetricsChoice(MetricsChoice{true, defaultMetrics()});
    QCheckBox *box = dialog.rooflineBox();
    QCOMPARE(box->text(), QStringLiteral("Roofline and speed of light"));
    QVERIFY(!box->isChecked());
    box->click();
    QVERIFY(box->isChecked());
    QCOMPARE(dialog.metricsChoice().metrics, withRooflineMetrics(defaultMetrics()));
    QCOMPARE(dialog.metricsChoice().metrics.size(), std::size_t(19));
    box->click(); // off: the default set stays whole
    QCOMPARE(dialog.metricsChoice().metrics, defaultMetrics());
    // A list that holds every roofline metric shows the box ticked.
    dialog.setMetricsChoice(MetricsChoice{true, rooflineMetrics()});
    QVERIFY(box->isChecked());
}

CUWB_TEST_MAIN(TestMeasureOptionsDialog)
} // namespace tst_measureoptionsdialog
} // namespace

#include "tst_measureoptionsdialog.moc"
