// The Inspect dock's parts without a window: the per-line table model (checked with
// QAbstractItemModelTester), the overlay that goes on the editor (heat, annotations, hot lines)
// and the panel's messages, on inspections recorded on an H200 (data/inspect/), with stall
// samples added where a test needs them; and the SASS listing's highlighting.
#include "gui/inspect/inspectlinesmodel.h"
#include "gui/inspect/inspectoverlay.h"
#include "gui/inspect/inspectpanel.h"
#include "gui/inspect/sasslexer.h"

#include "inspect/instructioncountersjson.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_inspectpanel {

namespace {

InspectResult recorded(const char *name)
{
    QFile file(QStringLiteral(CUWB_TEST_DATA_DIR "/inspect/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", name);
    return nlohmann::json::parse(file.readAll().toStdString()).get<InspectResult>();
}

QStringList transposeSource()
{
    QFile file(QStringLiteral(CUWB_SAMPLES_DIR "/transpose/transpose.cu"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open the transpose sample");
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
}

// The naive transpose with PC samples: most of them at the store of line 19.
InspectResult withStalls(InspectResult result)
{
    const auto sample = [&](std::uint32_t offset, std::uint32_t line,
                            std::map<std::string, std::uint64_t> reasons) {
        PcStallSamples pc;
        pc.function = result.kernel;
        pc.pcOffset = offset;
        pc.file = "transpose.cu";
        pc.line = line;
        pc.reasons = std::move(reasons);
        for (const auto &[reason, samples] : pc.reasons)
            pc.samples += samples;
        result.stalls.push_back(pc);
        result.stallSamples += pc.samples;
    };
    sample(0x0190, 19, {{"lg_throttle", 610}, {"long_scoreboard", 120}});
    sample(0x0150, 19, {{"long_scoreboard", 100}});
    sample(0x0070, 16, {{"selected", 100}});
    sample(0x00a0, 17, {{"wait", 70}});
    return result;
}

} // namespace

class TestInspectPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void modelPassesTheTester()
    {
        InspectLinesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSummary(summarise(recorded("transpose.json")), transposeSource(), "transpose.cu");
        model.clear();
        model.setSummary(summarise(recorded("transpose_shared.json")), transposeSource(),
                         "transpose.cu");
    }

    void rowsSayWhatEachLineDid()
    {
        InspectLinesModel model;
        model.setSummary(summarise(recorded("transpose.json")), transposeSource(), "transpose.cu");
        QCOMPARE(model.rowCount(), 6);
        QVERIFY(!model.hasSamples());
        const int row = model.rowOfLine(19);
        QVERIFY(row >= 0);
        const auto cell = [&](int column) { return model.index(row, column).data().toString(); };
        QCOMPARE(cell(InspectLinesModel::LineColumn), QStringLiteral("19"));
        QVERIFY(cell(InspectLinesModel::SourceColumn).startsWith(QStringLiteral("out[")));
        QCOMPARE(cell(InspectLinesModel::ExecutedColumn), QStringLiteral("48.1 %"));
        QCOMPARE(cell(InspectLinesModel::SectorsColumn), QStringLiteral("18.0"));
        QCOMPARE(cell(InspectLinesModel::IdealSectorsColumn), QStringLiteral("4.0"));
        QVERIFY(cell(InspectLinesModel::FindingsColumn)
                    .contains(QStringLiteral("uncoalesced store: 32.0 sectors per request, 4.0 "
                                             "ideal")));
        QCOMPARE(model.index(row, 0).data(InspectLinesModel::SourceLineRole).toInt(), 19);

        // The shared-memory tile: line 37's conflict in the wavefronts column.
        model.setSummary(summarise(recorded("transpose_shared.json")), transposeSource(),
                         "transpose.cu");
        const int conflict = model.rowOfLine(37);
        QVERIFY(conflict >= 0);
        QVERIFY(model.index(conflict, InspectLinesModel::WavefrontsColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("(32\u00d7)")));
        QVERIFY(model.index(conflict, InspectLinesModel::FindingsColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("32-way bank conflict")));
    }

    void sortsByNumbers()
    {
        InspectLinesModel model;
        model.setSummary(summarise(withStalls(recorded("transpose.json"))), transposeSource(),
                         "transpose.cu");
        QVERIFY(model.hasSamples());
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(InspectLinesModel::SortRole);
        proxy.sort(InspectLinesModel::StallsColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, InspectLinesModel::LineColumn).data().toString(),
                 QStringLiteral("19"));
        QCOMPARE(proxy.index(0, InspectLinesModel::StallsColumn).data().toString(),
                 QStringLiteral("83.0 %"));
        QVERIFY(proxy.index(0, InspectLinesModel::ReasonsColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("lg_throttle 73 %")));
        proxy.sort(InspectLinesModel::LineColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, InspectLinesModel::LineColumn).data().toString(),
                 QStringLiteral("13"));
    }

    void overlayFollowsInstructionsWithoutSamples()
    {
        const InspectOverlay overlay =
            makeInspectOverlay(summarise(recorded("transpose.json")), "transpose.cu");
        QVERIFY(!overlay.bySamples);
        QCOMPARE(overlay.hotLines.front(), 19);
        QCOMPARE(overlay.hotLines, (std::vector<int>{19, 17, 16, 18, 13, 20}));
        const auto heat = std::find_if(overlay.heat.begin(), overlay.heat.end(),
                                       [](const auto &entry) { return entry.first == 19; });
        QVERIFY(heat != overlay.heat.end());
        QCOMPARE(heat->second, 1.0);
        QCOMPARE(overlay.annotations.size(), std::size_t(1));
        QCOMPARE(overlay.annotations.at(19),
                 QStringLiteral("uncoalesced store: 32.0 sectors per request, 4.0 ideal"));

        const InspectOverlay shared =
            makeInspectOverlay(summarise(recorded("transpose_shared.json")), "transpose.cu");
        QVERIFY(shared.annotations.at(37).startsWith(QStringLiteral("32-way bank conflict")));
        QCOMPARE(shared.hotLines.front(), 31);
    }

    void overlayFollowsTheSamples()
    {
        const InspectOverlay overlay =
            makeInspectOverlay(summarise(withStalls(recorded("transpose.json"))), "transpose.cu");
        QVERIFY(overlay.bySamples);
        QCOMPARE(overlay.hotLines, (std::vector<int>{19, 16, 17}));
        // Lines without samples have no heat.
        for (const auto &[line, value] : overlay.heat)
            QVERIFY2(line == 19 || line == 16 || line == 17, qPrintable(QString::number(line)));
        const QString annotation = overlay.annotations.at(19);
        QVERIFY2(annotation.contains(QStringLiteral("uncoalesced store")), qPrintable(annotation));
        QVERIFY2(annotation.contains(
                     QStringLiteral("where warps wait: 83.0 % of the samples \u2014 lg_throttle "
                                    "73 %, long_scoreboard 27 %")),
                 qPrintable(annotation));
        QVERIFY(overlay.annotations.at(16).startsWith(QStringLiteral("where warps wait")));
    }

    void headerLinesAreNotTheSourcesLines()
    {
        InspectResult result = recorded("transpose.json");
        for (SassInstructionCounters &i : result.instructions) {
            if (i.line == 19)
                i.file = "/usr/local/cuda/include/helper.cuh";
        }
        const InspectOverlay overlay = makeInspectOverlay(summarise(result), "transpose.cu");
        QVERIFY(!overlay.annotations.count(19));
        QVERIFY(std::find(overlay.hotLines.begin(), overlay.hotLines.end(), 19) ==
                overlay.hotLines.end());
        InspectLinesModel model;
        model.setSummary(summarise(result), transposeSource(), "transpose.cu");
        QCOMPARE(model.rowOfLine(19), -1);
    }

    void panelShowsTheResultAndItsMessages()
    {
        InspectPanel panel;
        QSignalSpy activated(&panel, &InspectPanel::lineActivated);
        QSignalSpy fix(&panel, &InspectPanel::lineInfoFixRequested);
        const InspectResult result = recorded("transpose.json");
        panel.showResult(result, summarise(result), transposeSource(), "transpose.cu", false);
        QCOMPARE(panel.model()->rowCount(), 6);
        QVERIFY(panel.summaryText().contains(QStringLiteral("transpose_naive")));
        QVERIFY(panel.summaryText().contains(QStringLiteral("executed instructions")));
        QVERIFY(panel.messageText().isEmpty());
        // Without samples the stall columns are hidden; sorted by executed share.
        QVERIFY(panel.view()->isColumnHidden(InspectLinesModel::StallsColumn));
        QCOMPARE(panel.view()->model()->index(0, 0).data().toString(), QStringLiteral("19"));

        // Double-click a row: its line.
        const QModelIndex first = panel.view()->model()->index(0, 1);
        Q_EMIT panel.view()->doubleClicked(first);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.front().front().toInt(), 19);

        panel.showFailure(QStringLiteral("hardware metrics need permission to use the GPU's "
                                         "performance counters"),
                          true);
        QVERIFY(panel.messageText().contains(QStringLiteral("need permission")));
        QCOMPARE(panel.model()->rowCount(), 6); // what was shown stays

        panel.setStale(true);
        QVERIFY(panel.messageText().contains(QStringLiteral("edited after this inspection")));
        QVERIFY(!panel.view()->isEnabled());

        // No line information: said, with the fix a click away.
        InspectResult noLines = result;
        noLines.lineInfo = false;
        for (SassInstructionCounters &i : noLines.instructions) {
            i.line = 0;
            i.file.clear();
        }
        panel.showResult(noLines, summarise(noLines), transposeSource(), "transpose.cu", false);
        QVERIFY(!panel.isStale());
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY(panel.messageText().contains(QStringLiteral("-lineinfo is off")));
        QVERIFY(panel.notesText().contains(QStringLiteral("without line information")));
        QVERIFY(panel.lineInfoButton()->isVisibleTo(&panel));
        panel.lineInfoButton()->click();
        QCOMPARE(fix.count(), 1);
    }

    void navigationActionsHaveTheirKeys()
    {
        InspectPanel panel;
        QCOMPARE(panel.nextHotLineAction()->shortcut(), QKeySequence(Qt::Key_F8));
        QCOMPARE(panel.previousHotLineAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F8));
        QVERIFY(!panel.nextHotLineAction()->isEnabled());
        panel.setNavigationEnabled(true);
        QVERIFY(panel.nextHotLineAction()->isEnabled());
    }

    void sassLexerStylesInstructions()
    {
        const QByteArray line = "    0150  @P0 LDG.E.CONSTANT R7, desc[UR4][R6.64]";
        const QByteArray styles = SassLexer::styleLine(line);
        QCOMPARE(int(styles.at(4)), int(SassLexer::Offset));
        QCOMPARE(int(styles.at(line.indexOf('@'))), int(SassLexer::Predicate));
        QCOMPARE(int(styles.at(line.indexOf("LDG"))), int(SassLexer::Opcode));
        QCOMPARE(int(styles.at(line.indexOf("R7"))), int(SassLexer::Default));

        const QByteArray spill = "    0200  STL [R1+0x4], R2            // spill store, 4 bytes";
        QCOMPARE(int(SassLexer::styleLine(spill).at(spill.indexOf("//"))), int(SassLexer::Note));
        QCOMPARE(int(SassLexer::styleLine("transpose.cu:19: out[x] = in[y];").at(0)),
                 int(SassLexer::SourceLine));
        QCOMPARE(int(SassLexer::styleLine(".L_x_3:").at(0)), int(SassLexer::Label));
    }
};

CUWB_TEST_MAIN(TestInspectPanel)
} // namespace tst_inspectpanel
} // namespace

#include "tst_inspectpanel.moc"
