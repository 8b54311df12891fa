// Inspect in the main window, end to end against the stand-in worker (tests/support/
// fakeworker.cpp), which answers with inspections recorded on an H200 (data/inspect/): Run ▸
// Inspect sends the request through the run's worker and the result lands on the editor (heat
// gutter, annotations) and in the Inspect dock; the hot-line navigator and the dock's rows move
// the cursor; an edit takes the counters off the lines; a refusal and a fault are reported and
// leave the editor as it was; a result without line information offers the -lineinfo fix,
// which recompiles and inspects again; the SASS tab is linked with the editor and shows the
// counters beside its instructions (with the real nvdisasm; skipped with the reason without).
#include "gui/compile/compilecontroller.h"
#include "gui/compile/compileoptionswidget.h"
#include "gui/editor/document.h"
#include "gui/editor/sourceeditor.h"
#include "gui/inspect/inspectcontroller.h"
#include "gui/inspect/inspectlinesmodel.h"
#include "gui/inspect/inspectpanel.h"
#include "gui/inspect/inspecttool.h"
#include "gui/inspect/sassview.h"
#include "gui/launch/launchpanel.h"
#include "gui/run/runcontroller.h"
#include "gui/shell/mainwindow.h"
#include "gui/workspace/workspace.h"

#include "inspect/instructioncountersjson.h"
#include "inspect/nvdisasm.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
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
namespace tst_mainwindowinspect {

namespace {

constexpr int kCompileTimeoutMs = 30000;
constexpr int kInspectTimeoutMs = 60000;

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    return file.readAll();
}

} // namespace

class TestMainWindowInspect : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    QString m_log;

    // A cuwb stand-in: `devices` lists the fake H200; anything else is the fake worker in
    // `mode`, answering inspections with `result` (a file under data/inspect/ or m_dir).
    QString fakeCli(const QString &mode, const QString &result = {})
    {
        const QString path = m_dir.filePath(
            QStringLiteral("cuwb-%1-%2").arg(mode).arg(QFileInfo(result).completeBaseName()));
        QFile script(path);
        if (!script.open(QIODevice::WriteOnly))
            return {};
        script.write("#!/bin/sh\nif [ \"$1\" = devices ]; then exec '" CUWB_FAKE_WORKER_PATH
                     "' devices; fi\nFAKE_INSPECT_RESULT='" +
                     result.toUtf8() + "' CUWB_FAKE_WORKER_LOG='" + m_log.toUtf8() + "' exec '" +
                     CUWB_FAKE_WORKER_PATH "' " + mode.toUtf8() + "\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    static QString recorded(const char *name)
    {
        return QStringLiteral(CUWB_TEST_DATA_DIR "/inspect/") + QLatin1String(name);
    }

    // The naive transpose's recording without line information, as -lineinfo off gives it.
    QString withoutLines()
    {
        nlohmann::json json = nlohmann::json::parse(readFile(recorded("transpose.json")));
        json["lineInfo"] = false;
        for (nlohmann::json &instruction : json["instructions"]) {
            instruction["line"] = 0;
            instruction["file"] = "";
        }
        const QString path = m_dir.filePath(QStringLiteral("nolines.json"));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(QByteArray::fromStdString(json.dump()));
        return path;
    }

    SourceEditor *editor() const { return m_window->currentDocument()->editor(); }
    QAction *inspectAction() const { return m_window->launchPanel()->inspectAction(); }
    InspectPanel *panel() const { return m_window->inspectTool()->panel(); }

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

    // Triggers Inspect with the worker `cli` and waits for what it shows.
    bool inspectWith(const QString &cli)
    {
        m_window->runController()->setCliPath(cli);
        QSignalSpy shown(m_window->inspectTool(), &InspectTool::shown);
        if (!inspectAction()->isEnabled())
            return false;
        inspectAction()->trigger();
        return shown.wait(kInspectTimeoutMs) || !shown.isEmpty();
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
        settings.cliPath = fakeCli(QStringLiteral("inspect-ok"), recorded("transpose.json"));
        m_window = std::make_unique<MainWindow>(settings);
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openPath(QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose.cuwb")));
        // The fake H200 makes Run, Measure and Inspect available.
        QVERIFY(waitForKernel());
    }

    void cleanupTestCase() { m_window.reset(); }

    void inspectIsInTheRunMenu()
    {
        QMenu *run = nullptr;
        for (QAction *action : m_window->menuBar()->actions()) {
            if (action->text() == QStringLiteral("&Run"))
                run = action->menu();
        }
        QVERIFY(run);
        QVERIFY(run->actions().contains(inspectAction()));
        QVERIFY(run->actions().contains(panel()->nextHotLineAction()));
        QVERIFY(run->actions().contains(panel()->previousHotLineAction()));
        QCOMPARE(inspectAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
        // Like Measure, it waits while a sweep measures.
        m_window->launchPanel()->setSweepRunning(true);
        QVERIFY(!inspectAction()->isEnabled());
        m_window->launchPanel()->setSweepRunning(false);
        QVERIFY(inspectAction()->isEnabled());
    }

    void inspectShowsTheLinesAndTheDock()
    {
        QFile::remove(m_log);
        m_window->runController()->setCliPath(
            fakeCli(QStringLiteral("inspect-ok"), recorded("transpose.json")));
        QSignalSpy shown(m_window->inspectTool(), &InspectTool::shown);
        inspectAction()->trigger();
        // One request at a time: Run, Measure and Inspect wait for it.
        QVERIFY(!inspectAction()->isEnabled());
        QVERIFY(!m_window->launchPanel()->runAction()->isEnabled());
        QVERIFY(shown.wait(kInspectTimeoutMs));
        QVERIFY(inspectAction()->isEnabled());
        QVERIFY(readFile(m_log).contains("inspect"));

        // The store of line 19 is the hottest line and is flagged.
        QCOMPARE(editor()->heatLevel(19), SourceEditor::kHeatLevels);
        QVERIFY(editor()->heatLevel(17) > 0 && editor()->heatLevel(17) < editor()->heatLevel(19));
        QCOMPARE(editor()->heatLevel(2), 0);
        QCOMPARE(editor()->marginWidth(SourceEditor::kHeatMargin) > 0, true);
        QCOMPARE(editor()->inspectAnnotation(19),
                 QStringLiteral("uncoalesced store: 32.0 sectors per request, 4.0 ideal"));
        QVERIFY(editor()->annotation(18).contains(QStringLiteral("uncoalesced store")));
        QVERIFY(editor()->inspectAnnotation(17).isEmpty());

        // The dock: the kernel's summary and one row per line, hottest first.
        QVERIFY(m_window->inspectTool()->dock()->isVisible());
        QVERIFY(panel()->summaryText().contains(QStringLiteral("transpose_naive")));
        QCOMPARE(panel()->model()->rowCount(), 6);
        QCOMPARE(panel()->view()->model()->index(0, 0).data().toString(), QStringLiteral("19"));
        QVERIFY(panel()->messageText().isEmpty());
    }

    void navigatorWalksTheHotLines()
    {
        QVERIFY(panel()->nextHotLineAction()->isEnabled());
        panel()->nextHotLineAction()->trigger();
        QCOMPARE(editor()->cursorLine(), 19);
        panel()->nextHotLineAction()->trigger();
        QCOMPARE(editor()->cursorLine(), 17);
        panel()->previousHotLineAction()->trigger();
        QCOMPARE(editor()->cursorLine(), 19);
        panel()->previousHotLineAction()->trigger(); // wraps to the coolest hot line
        QCOMPARE(editor()->cursorLine(), 20);
        // The dock's row of the line is selected.
        const QModelIndexList selected = panel()->view()->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.front().data().toString(), QStringLiteral("20"));

        // A double-click on a row goes to its line.
        QAbstractItemModel *rows = panel()->view()->model();
        for (int row = 0; row < rows->rowCount(); ++row) {
            if (rows->index(row, 0).data().toString() == QStringLiteral("16"))
                Q_EMIT panel()->view()->doubleClicked(rows->index(row, 1));
        }
        QCOMPARE(editor()->cursorLine(), 16);
    }

    void sassTabIsLinkedAndShowsTheCounters()
    {
        const NvdisasmTool tool = findNvdisasm();
        if (!tool.found())
            QSKIP(qPrintable(QStringLiteral("no nvdisasm to run: %1")
                                 .arg(QString::fromStdString(tool.problem))));
        QSignalSpy sass(m_window->inspectTool(), &InspectTool::sassShown);
        m_window->inspectTool()->showSassTab();
        QVERIFY(sass.wait(kInspectTimeoutMs) || !sass.isEmpty());
        SassView *view = m_window->inspectTool()->sassView();
        QVERIFY2(view->hasListing(), qPrintable(view->messageText()));
        // The store of line 19 among the instructions highlighted for it.
        const auto storeLine = [view] {
            for (int line : view->highlightedLines()) {
                if (view->listing()->text(line - 1).contains(QStringLiteral("STG")))
                    return line;
            }
            return -1;
        };
        editor()->goToLocation(19, 1);
        QTRY_VERIFY(storeLine() > 0);
        QCOMPARE(view->functionChooser()->currentText(), QStringLiteral("transpose_naive"));
        // The inspection was counted on this very code: its figures sit beside the
        // instructions.
        QVERIFY2(view->countersShown(), qPrintable(view->countersText()));
        QVERIFY(view->countersAt(storeLine()).contains(QStringLiteral("32.0/4.0")));
        // An instruction of line 16 moves the editor there.
        editor()->goToLocation(2, 1);
        QTRY_VERIFY(view->highlightedLines().empty());
        editor()->goToLocation(16, 1);
        QTRY_VERIFY(!view->highlightedLines().empty());
        const int line16 = view->highlightedLines().front();
        editor()->goToLocation(2, 1);
        QTRY_VERIFY(view->highlightedLines().empty());
        view->listing()->setCursorPosition(line16 - 1, 6);
        QTRY_COMPARE(editor()->cursorLine(), 16);
    }

    void anEditTakesTheCountersOffTheLines()
    {
        QVERIFY(editor()->hasInspection());
        editor()->insertAt(QStringLiteral("// an edit\n"), 0, 0);
        QVERIFY(!editor()->hasInspection());
        QCOMPARE(editor()->heatLevel(20), 0); // where line 19 went
        QVERIFY(editor()->inspectAnnotation(20).isEmpty());
        QVERIFY(!editor()->annotation(19).contains(QStringLiteral("uncoalesced")));
        QVERIFY(!editor()->annotation(20).contains(QStringLiteral("uncoalesced")));
        QVERIFY(panel()->isStale());
        QVERIFY(panel()->messageText().contains(QStringLiteral("edited after this inspection")));
        QVERIFY(!panel()->nextHotLineAction()->isEnabled());
        QVERIFY(m_window->inspectTool()->controller()->isStale());
        QVERIFY(!m_window->inspectTool()->sassView()->countersShown());
        // Undoing the edit does not bring back counters that were taken off.
        editor()->undo();
        QVERIFY(!editor()->hasInspection());
        QVERIFY(waitForKernel());
    }

    void anEditWhileInspectingShowsNothingOnTheLines()
    {
        m_window->runController()->setCliPath(
            fakeCli(QStringLiteral("inspect-ok"), recorded("transpose.json")));
        QSignalSpy shown(m_window->inspectTool(), &InspectTool::shown);
        inspectAction()->trigger();
        editor()->insertAt(QStringLiteral("\n"), 0, 0); // before the answer can come
        QVERIFY(shown.wait(kInspectTimeoutMs));
        QVERIFY(!editor()->hasInspection());
        QVERIFY(panel()->isStale());
        QCOMPARE(panel()->model()->rowCount(), 6); // the figures, marked stale
        editor()->undo();
        QVERIFY(waitForKernel());
    }

    void aRefusalLeavesTheEditorAsItWas()
    {
        QVERIFY(inspectWith(fakeCli(QStringLiteral("inspect-ok"), recorded("transpose.json"))));
        QCOMPARE(editor()->heatLevel(19), SourceEditor::kHeatLevels);

        QVERIFY(inspectWith(fakeCli(QStringLiteral("inspect-denied"))));
        QVERIFY2(panel()->messageText().contains(QStringLiteral("need permission")),
                 qPrintable(panel()->messageText()));
        QVERIFY(panel()->messageText().contains(QStringLiteral("NVreg_RestrictProfilingToAdmin")));
        QCOMPARE(editor()->heatLevel(19), SourceEditor::kHeatLevels);
        QVERIFY(!editor()->inspectAnnotation(19).isEmpty());
    }

    void aFaultIsReported()
    {
        QVERIFY(inspectWith(fakeCli(QStringLiteral("inspect-fault"))));
        QVERIFY2(panel()->messageText().startsWith(QStringLiteral("The inspection failed:")),
                 qPrintable(panel()->messageText()));
        QVERIFY(panel()->messageText().contains(QStringLiteral("illegal memory access")));
        QCOMPARE(editor()->heatLevel(19), SourceEditor::kHeatLevels);
        // The worker exited after the fault; the next inspection gets a fresh one.
        QVERIFY(inspectWith(fakeCli(QStringLiteral("inspect-ok"), recorded("transpose.json"))));
        QVERIFY(panel()->messageText().isEmpty());
    }

    void withoutLineInfoTheFixIsOneClick()
    {
        // The project compiled without -lineinfo; the worker's counters have no lines.
        CompileOptions options = m_window->workspace()->compileOptions();
        options.lineInfo = false;
        m_window->workspace()->setCompileOptions(options);
        QVERIFY(QTest::qWaitFor(
            [this] {
                return m_window->currentDocument()->lastResult().success &&
                       !m_window->currentDocument()->lastResult().options.lineInfo &&
                       m_window->launchPanel()->canRun();
            },
            kCompileTimeoutMs));
        QVERIFY(inspectWith(fakeCli(QStringLiteral("inspect-ok"), withoutLines())));
        QVERIFY2(panel()->messageText().contains(QStringLiteral("-lineinfo is off")),
                 qPrintable(panel()->messageText()));
        QVERIFY(panel()->lineInfoButton()->isVisible());
        QVERIFY(!editor()->hasInspection());

        // One click: -lineinfo on, a compile, and the inspection again (now with lines).
        m_window->runController()->setCliPath(
            fakeCli(QStringLiteral("inspect-ok"), recorded("transpose.json")));
        QSignalSpy shown(m_window->inspectTool(), &InspectTool::shown);
        panel()->lineInfoButton()->click();
        QVERIFY(m_window->workspace()->compileOptions().lineInfo);
        QVERIFY(shown.wait(kInspectTimeoutMs));
        QVERIFY(m_window->currentDocument()->lastResult().options.lineInfo);
        QCOMPARE(editor()->heatLevel(19), SourceEditor::kHeatLevels);
        QVERIFY(panel()->messageText().isEmpty());
    }
};

CUWB_TEST_MAIN(TestMainWindowInspect)
} // namespace tst_mainwindowinspect
} // namespace

#include "tst_mainwindowinspect.moc"
