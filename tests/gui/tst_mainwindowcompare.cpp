// Compare in the main window, end to end against the stand-in worker (tests/support/
// fakeworker.cpp), which measures like an H200 and answers inspections with one recorded on an
// H200 (data/inspect/): Run ▸ Compare's path collects both sides on the worker (measure, metrics
// pass, inspect, in sequence) and the Compare dock shows them; clicking a line of the per-line
// table moves the editor's cursor; a worker without a GPU fails both sides with its reason; a
// history entry becomes side A against a fresh collection of the current kernel; the lesson's
// "Open the comparison" compares its two projects and its Inspect question checks the answer;
// Cancel stops a comparison whose measurement is sampling.
#include "gui/automation/comparescreenshotrunner.h"
#include "gui/compare/comparecontroller.h"
#include "gui/compare/comparelinesmodel.h"
#include "gui/compare/comparepanel.h"
#include "gui/compare/comparetool.h"
#include "gui/compile/compilecontroller.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/inspect/inspecttool.h"
#include "gui/launch/launchpanel.h"
#include "gui/lesson/lessonpanel.h"
#include "gui/lesson/lessontool.h"
#include "gui/run/runcontroller.h"
#include "gui/shell/mainwindow.h"

#include "history/historystore.h"
#include "measure/statistics.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_mainwindowcompare {

namespace {

constexpr int kCompileTimeoutMs = 30000;
constexpr int kCompareTimeoutMs = 90000;

QString sample(const char *path)
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/") + QLatin1String(path);
}

} // namespace

class TestMainWindowCompare : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    QString m_log;

    // A cuwb stand-in: `devices` lists the fake H200; anything else is the fake worker in
    // `mode`, answering inspections with data/inspect/transpose.json.
    QString fakeCli(const QString &mode)
    {
        const QString path = m_dir.filePath(QStringLiteral("cuwb-%1").arg(mode));
        QFile script(path);
        if (!script.open(QIODevice::WriteOnly))
            return {};
        script.write("#!/bin/sh\nif [ \"$1\" = devices ]; then exec '" CUWB_FAKE_WORKER_PATH
                     "' devices; fi\nFAKE_INSPECT_RESULT='" CUWB_TEST_DATA_DIR
                     "/inspect/transpose.json' CUWB_FAKE_WORKER_LOG='" +
                     m_log.toUtf8() + "' exec '" CUWB_FAKE_WORKER_PATH "' " + mode.toUtf8() + "\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    QByteArray log() const
    {
        QFile file(m_log);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    bool waitForKernel()
    {
        return QTest::qWaitFor(
            [this] {
                Document *document = m_window->currentDocument();
                return document && document->hasResult() && document->lastResult().success &&
                       !m_window->compileController()->isDebouncing() &&
                       !m_window->compileController()->isBusy() &&
                       m_window->launchPanel()->canRun();
            },
            kCompileTimeoutMs);
    }

    // Waits for the comparison in flight to be on screen.
    bool waitForComparison(QSignalSpy &shown)
    {
        return QTest::qWaitFor(
            [&] { return !shown.isEmpty() && !m_window->compareTool()->controller()->isBusy(); },
            kCompareTimeoutMs);
    }

    ComparePanel *panel() const { return m_window->compareTool()->panel(); }

    // Whether the side was found to be compiled otherwise than the SASS on screen.
    static bool isOtherCode(const CompareSideInput &side)
    {
        return side.mixUnavailable.find("other source or options") != std::string::npos;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_log = m_dir.filePath(QStringLiteral("requests.log"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
        MainWindow::Settings settings;
        settings.samplesDir = QStringLiteral(CUWB_SAMPLES_DIR);
        settings.restoreLayout = false;
        settings.prompts = false;
        settings.cliPath = fakeCli(QStringLiteral("inspect-ok"));
        m_window = std::make_unique<MainWindow>(settings);
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openPath(sample("transpose/transpose.cuwb")));
        QVERIFY(waitForKernel());
    }

    void cleanupTestCase() { m_window.reset(); }

    void compareIsInTheRunMenu()
    {
        QMenu *run = nullptr;
        for (QAction *action : m_window->menuBar()->actions()) {
            if (action->text() == QStringLiteral("&Run"))
                run = action->menu();
        }
        QVERIFY(run);
        QVERIFY(run->actions().contains(m_window->compareTool()->compareAction()));
    }

    void bothSidesAreCollectedOnTheWorker()
    {
        QFile::remove(m_log);
        m_window->runController()->setCliPath(fakeCli(QStringLiteral("inspect-ok")));
        QSignalSpy shown(m_window->compareTool(), &CompareTool::shown);
        QSignalSpy progress(m_window->compareTool()->controller(), &CompareController::progress);
        m_window->compareTool()->compareWithProject(sample("transpose/transpose_shared.cuwb"));
        QVERIFY(m_window->compareTool()->controller()->isBusy());
        QVERIFY(waitForComparison(shown));
        QVERIFY(panel()->hasComparison());
        QCOMPARE(progress.count(), 6); // measure, profile, inspect; twice
        // In sequence, on the one worker: measure (with its metrics pass), then inspect.
        const QList<QByteArray> requests = log().split('\n');
        QCOMPARE(requests.count("measure"), 2);
        QCOMPARE(requests.count("metrics"), 2);
        QCOMPARE(requests.count("inspect"), 2);
        QVERIFY(requests.indexOf("inspect") > requests.indexOf("metrics"));

        const CompareData &data = panel()->comparison();
        QCOMPARE(data.a.side.name, std::string("transpose_naive"));
        QCOMPARE(data.b.side.name, std::string("transpose_shared"));
        QVERIFY(data.a.side.measurement && data.b.side.measurement);
        QVERIFY(data.a.side.inspection && data.b.side.inspection);
        QVERIFY(data.comparison.time);
        QVERIFY(!data.comparison.verdict.empty());
        QVERIFY(panel()->verdictText().contains(QStringLiteral("median")));
        // The fake worker refuses the metrics pass: said, not invented.
        QVERIFY(panel()->sideText(0).contains(QStringLiteral("Absent: metrics: this is a fake "
                                                             "worker")));
        QVERIFY(data.linesSkipped.empty());
        // Both are compiled as the editor's transpose.cu is: the SASS on screen is their code
        // (its mix is there when nvdisasm is).
        QVERIFY2(!isOtherCode(data.a), data.a.mixUnavailable.c_str());
        QVERIFY2(!isOtherCode(data.b), data.b.mixUnavailable.c_str());
        // The dock stays small enough to share a 768-pixel-high screen with the editor.
        QVERIFY2(m_window->compareTool()->dock()->minimumSizeHint().height() <= 250,
                 qPrintable(
                     QString::number(m_window->compareTool()->dock()->minimumSizeHint().height())));

        // A line of the table puts the editor's cursor on it.
        CompareLinesModel *lines = panel()->linesModel();
        int row = -1;
        for (int r = 0; r < lines->rowCount(); ++r) {
            if (lines->index(r, 0).data(CompareLinesModel::LineRole).toInt() == 19)
                row = r;
        }
        QVERIFY(row >= 0);
        Q_EMIT panel()->linesView()->clicked(lines->index(row, 0));
        QCOMPARE(m_window->currentDocument()->editor()->cursorLine(), 19);
    }

    void aSideCompiledOtherwiseHasNoMix()
    {
        // transpose_shared.cuwb with one more define: other code than the listing on screen.
        QFile original(sample("transpose/transpose_shared.cuwb"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QJsonObject project = QJsonDocument::fromJson(original.readAll()).object();
        QJsonObject options = project.value(QStringLiteral("compileOptions")).toObject();
        options.insert(QStringLiteral("defines"), QJsonArray{QStringLiteral("EXTRA=1")});
        project.insert(QStringLiteral("compileOptions"), options);
        QJsonObject source = project.value(QStringLiteral("source")).toObject();
        source.insert(QStringLiteral("path"), sample("transpose/transpose.cu"));
        project.insert(QStringLiteral("source"), source);
        const QString path = m_dir.filePath(QStringLiteral("transpose_shared_extra.cuwb"));
        QFile copy(path);
        QVERIFY(copy.open(QIODevice::WriteOnly));
        copy.write(QJsonDocument(project).toJson());
        copy.close();

        m_window->runController()->setCliPath(fakeCli(QStringLiteral("inspect-ok")));
        QSignalSpy shown(m_window->compareTool(), &CompareTool::shown);
        m_window->compareTool()->compareWithProject(path);
        QVERIFY(waitForComparison(shown));
        const CompareData &data = panel()->comparison();
        QVERIFY2(!isOtherCode(data.a), data.a.mixUnavailable.c_str());
        QVERIFY(!data.b.mix);
        QVERIFY2(isOtherCode(data.b), data.b.mixUnavailable.c_str());
        QVERIFY(data.mix.empty());
    }

    void metricsPassesGiveSpeedOfLight()
    {
        m_window->runController()->setCliPath(fakeCli(QStringLiteral("measure-ok")));
        QSignalSpy shown(m_window->compareTool(), &CompareTool::shown);
        m_window->compareTool()->compareWithProject(sample("transpose/transpose_shared.cuwb"));
        QVERIFY(waitForComparison(shown));
        const CompareData &data = panel()->comparison();
        QVERIFY(data.a.side.metrics && data.a.side.metrics->ok());
        QVERIFY(!data.speedOfLight.empty());
        QVERIFY(!data.comparison.metrics.empty());
        // This worker cannot inspect: said, and the lines are left out with the reason.
        QVERIFY(panel()->sideText(1).contains(QStringLiteral("Absent: inspection: this is a fake "
                                                             "worker")));
        QCOMPARE(data.linesSkipped, std::string("Per-line differences need both sides inspected."));
        bool dram = false;
        QAbstractItemModel *model = panel()->tableView()->model();
        for (int row = 0; row < model->rowCount(); ++row)
            dram = dram || model->index(row, 1).data().toString() == QStringLiteral("DRAM %");
        QVERIFY(dram);
    }

    void aSideWithoutAGpuSaysWhy()
    {
        m_window->runController()->setCliPath(fakeCli(QStringLiteral("ok")));
        QSignalSpy shown(m_window->compareTool(), &CompareTool::shown);
        m_window->compareTool()->compareWithProject(sample("transpose/transpose_shared.cuwb"));
        QVERIFY(waitForComparison(shown));
        QVERIFY(panel()->hasComparison());
        QVERIFY(panel()->comparison().a.failed());
        QVERIFY(panel()->sideText(0).contains(QStringLiteral("Not collected: no-device")));
        QVERIFY(panel()->sideText(1).contains(QStringLiteral("this is a fake worker")));
        QVERIFY(panel()->comparison().comparison.verdict.empty());
    }

    void aHistoryEntryAgainstTheCurrentKernel()
    {
        m_window->runController()->setCliPath(fakeCli(QStringLiteral("inspect-ok")));
        Measurement stored;
        stored.samplesNs = {2.0e6, 2.01e6, 1.99e6, 2.0e6, 2.02e6};
        stored.statistics = computeStatistics(stored.samplesNs);
        stored.provenance.kernel = "transpose_naive";
        const HistoryEntry entry = measurementEntry(stored, "Transpose", "");
        QSignalSpy shown(m_window->compareTool(), &CompareTool::shown);
        m_window->compareTool()->compareWithHistoryEntry(7, QString::fromStdString(entry.json),
                                                         QStringLiteral("measurement"));
        QVERIFY(waitForComparison(shown));
        const CompareData &data = panel()->comparison();
        QCOMPARE(data.a.origin, std::string("history entry 7"));
        QCOMPARE(data.a.side.measurement->statistics.medianNs, stored.statistics.medianNs);
        QVERIFY(!data.a.side.inspection);
        QVERIFY(panel()->sideText(0).contains(
            QStringLiteral("Absent: metrics: the history entry keeps none")));
        QVERIFY(data.b.side.measurement && data.b.side.inspection);
        QVERIFY(data.comparison.time);
    }

    void theLessonOpensItsComparison()
    {
        LessonPanel *lesson = m_window->lessonTool()->panel();
        QVERIFY(lesson->hasLesson());
        QVERIFY(lesson->inspectBox()->isVisibleTo(lesson));
        QVERIFY(lesson->compareButton()->text().contains(QStringLiteral("transpose_padded.cuwb")));
        QSignalSpy shown(m_window->compareTool(), &CompareTool::shown);
        lesson->compareButton()->click();
        QVERIFY(waitForComparison(shown));
        QCOMPARE(panel()->comparison().a.side.name, std::string("transpose_shared"));
        QCOMPARE(panel()->comparison().b.side.name, std::string("transpose_padded"));

        QVERIFY(!lesson->checkInspectAnswer(QStringLiteral("conflict-ways"), QStringLiteral("4")));
        QVERIFY(lesson->inspectVerdict(QStringLiteral("conflict-ways"))
                    .startsWith(QStringLiteral("Not what Inspect shows")));
        QVERIFY(
            lesson->checkInspectAnswer(QStringLiteral("conflict-ways"), QStringLiteral("32-way")));
        QVERIFY(lesson->inspectVerdict(QStringLiteral("conflict-ways"))
                    .startsWith(QStringLiteral("Right")));
    }

    // The --compare-a/-b screenshot from the recorded inspections, and the live --compare one
    // on the worker; a side the worker cannot collect makes the exit code 1.
    void screenshotsOfAComparison()
    {
        const auto shoot = [this](CompareScreenshotRunner::Mode mode, const QString &png) {
            CompareScreenshotRunner runner(m_window.get(), png, mode);
            runner.setProjectB(sample("transpose/transpose_shared.cuwb"));
            runner.setRecorded(
                {QStringLiteral(CUWB_TEST_DATA_DIR "/inspect/transpose.json")},
                {QStringLiteral(CUWB_TEST_DATA_DIR "/inspect/transpose_shared.json")}, {});
            QSignalSpy finished(&runner, &CompareScreenshotRunner::finished);
            runner.start();
            // A runner starts from a compile result on screen: the window's first is long gone.
            m_window->compileController()->compileNow();
            if (!finished.wait(kCompareTimeoutMs) && finished.isEmpty())
                return -1;
            return finished.front().at(0).toInt();
        };
        const QString recordedPng = m_dir.filePath(QStringLiteral("recorded.png"));
        QCOMPARE(shoot(CompareScreenshotRunner::Mode::Open, recordedPng), 0);
        QVERIFY(!QImage(recordedPng).isNull());
        QCOMPARE(panel()->comparison().b.side.name, std::string("transpose_shared"));
        QVERIFY(panel()->comparison().b.side.inspection);

        m_window->runController()->setCliPath(fakeCli(QStringLiteral("inspect-ok")));
        const QString livePng = m_dir.filePath(QStringLiteral("live.png"));
        QCOMPARE(shoot(CompareScreenshotRunner::Mode::Run, livePng), 0);
        QVERIFY(!QImage(livePng).isNull());
        QVERIFY(panel()->comparison().b.side.measurement);

        m_window->runController()->setCliPath(fakeCli(QStringLiteral("ok")));
        const QString failedPng = m_dir.filePath(QStringLiteral("failed.png"));
        QCOMPARE(shoot(CompareScreenshotRunner::Mode::Run, failedPng), 1);
        QVERIFY(!QImage(failedPng).isNull());
    }

    void cancelStopsTheComparison()
    {
        m_window->runController()->setCliPath(fakeCli(QStringLiteral("measure-until-cancel")));
        QSignalSpy shown(m_window->compareTool(), &CompareTool::shown);
        m_window->compareTool()->compareWithProject(sample("transpose/transpose_shared.cuwb"));
        QVERIFY(panel()->cancelButton()->isVisibleTo(panel()));
        panel()->cancelButton()->click();
        QVERIFY(!m_window->compareTool()->controller()->isBusy());
        QVERIFY(!shown.isEmpty());
        QCOMPARE(panel()->messageText(), QStringLiteral("Comparison cancelled."));
    }
};

CUWB_TEST_MAIN(TestMainWindowCompare)
} // namespace tst_mainwindowcompare
} // namespace

#include "tst_mainwindowcompare.moc"
