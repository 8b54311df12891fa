#include "gui/compile/compilecontroller.h"
#include "gui/compile/compilestatuswidget.h"
#include "gui/compile/kernelsmodel.h"
#include "gui/compile/kernelspanel.h"
#include "gui/compile/problemsmodel.h"
#include "gui/compile/problemspanel.h"
#include "gui/device/deviceprobe.h"
#include "gui/editor/document.h"
#include "gui/editor/documenttabs.h"
#include "gui/editor/ptxview.h"
#include "gui/editor/sourceeditor.h"
#include "gui/launch/launchpanel.h"
#include "gui/shell/mainwindow.h"
#include "gui/workspace/workspace.h"

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <sys/stat.h>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_mainwindow {

namespace {

constexpr int CompileTimeoutMs = 20000;

QString vectorAddPath()
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu");
}

// The first line outside comments that contains needle, 0-based.
int lineContaining(const SourceEditor *editor, const QString &needle)
{
    for (int line = 0; line < editor->lines(); ++line) {
        const QString text = editor->text(line);
        if (!text.trimmed().startsWith(QStringLiteral("//")) && text.contains(needle))
            return line;
    }
    return -1;
}

// Has a diagnostic of this severity at a 1-based line.
bool hasProblemAt(const ProblemsModel *model, Severity severity, int line)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, 0);
        if (index.data(ProblemsModel::SeverityRole).toInt() == int(severity) &&
            index.data(ProblemsModel::LineRole).toInt() == line)
            return true;
    }
    return false;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    std::unique_ptr<MainWindow> m_window;

    Document *openVectorAdd()
    {
        Document *document = m_window->openPath(vectorAddPath());
        if (!document)
            return nullptr;
        // Wait for a result of the current text; earlier results may still be on screen.
        if (!QTest::qWaitFor(
                [&] {
                    return document->hasResult() && !m_window->compileController()->isBusy() &&
                           !m_window->compileController()->isDebouncing();
                },
                CompileTimeoutMs))
            return nullptr;
        return document;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settingsDir.isValid());
        cuwb::test::keepSettingsIn(m_settingsDir.path());

        MainWindow::Settings settings;
        settings.samplesDir = QStringLiteral(CUWB_SAMPLES_DIR);
        settings.restoreLayout = false;
        settings.prompts = false;
        // The build tree's cuwb; where the tests were moved to another machine (a GPU host),
        // the one beside the test executable, as the application itself finds it.
        if (QFileInfo::exists(QStringLiteral(CUWB_CLI_PATH)))
            settings.cliPath = QStringLiteral(CUWB_CLI_PATH);
        m_window = std::make_unique<MainWindow>(settings);
        m_window->resize(1400, 900);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase() { m_window.reset(); }

    void launchProblemsShowWhereTheLaunchDockIsCovered()
    {
        QVERIFY(openVectorAdd());
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->launchPanel()->currentKernel().isEmpty(), 30000);
        auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("launchDock"));
        QVERIFY(dock);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Launch"));
        QCOMPARE(m_window->problemsPanel()->placeholderText(), QStringLiteral("No problems"));

        // A block too large for any GPU: the launch cannot run, the source compiles.
        const LaunchSpec good = m_window->workspace()->launch().spec();
        LaunchSpec bad = good;
        bad.block = {"4096", "1", "1"};
        m_window->workspace()->setLaunch(bad, m_window->workspace()->launch().verification());
        QTRY_VERIFY(!m_window->launchPanel()->issues().empty());
        const std::size_t issues = m_window->launchPanel()->issues().size();
        const QString count =
            issues == 1 ? QStringLiteral("1 problem") : QStringLiteral("%1 problems").arg(issues);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Launch (%1)").arg(count));
        const QString placeholder = m_window->problemsPanel()->placeholderText();
        QVERIFY2(placeholder.startsWith(QStringLiteral("No compile problems. The launch has ") +
                                        count + QStringLiteral(", the first: ")),
                 qPrintable(placeholder));
        QVERIFY2(placeholder.contains(QStringLiteral("4096")), qPrintable(placeholder));

        m_window->workspace()->setLaunch(good, m_window->workspace()->launch().verification());
        QTRY_COMPARE(dock->windowTitle(), QStringLiteral("Launch"));
        QCOMPARE(m_window->problemsPanel()->placeholderText(), QStringLiteral("No problems"));
    }

    void verificationThatCannotCompileIsAProblem()
    {
        // The worker would compile the expression and fail after the launch; the window finds
        // it first, off the GUI thread, and lists it in the Problems dock.
        QVERIFY(openVectorAdd());
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->launchPanel()->currentKernel().isEmpty(), 30000);
        const LaunchSpec launch = m_window->workspace()->launch().spec();
        const Verification good = m_window->workspace()->launch().verification();
        VerificationSpec bad;
        bad.kind = ReferenceKind::Expression;
        bad.output = "c";
        bad.expression = "a[i] + missing[i]";
        m_window->workspace()->setLaunch(launch, Verification(bad));
        QTRY_COMPARE_WITH_TIMEOUT(m_window->problemsModel()->findingCount(), std::size_t(1),
                                  CompileTimeoutMs);
        const QString message =
            m_window->problemsModel()
                ->index(m_window->problemsModel()->rowCount() - 1, ProblemsModel::MessageColumn)
                .data()
                .toString();
        QVERIFY2(message.startsWith(QStringLiteral("verification: expression: ")) &&
                     message.contains(QStringLiteral("\"missing\" is undefined")),
                 qPrintable(message));

        m_window->workspace()->setLaunch(launch, good);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->problemsModel()->findingCount(), std::size_t(0),
                                  CompileTimeoutMs);
    }

    void aFileThatCannotOpenSaysWhy()
    {
        // The reason the CLI gives, for main.cpp's "cannot open FILE: REASON".
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe.cu"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QVERIFY(!m_window->openPath(fifo));
        QVERIFY2(m_window->lastOpenError().contains(QStringLiteral("it is a FIFO")),
                 qPrintable(m_window->lastOpenError()));
        const QString project = dir.filePath(QStringLiteral("broken.cuwb"));
        QFile file(project);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"schemaVersion\": 1,\n \"source\": 4}");
        file.close();
        QVERIFY(!m_window->openPath(project));
        QVERIFY2(m_window->lastOpenError().contains(QStringLiteral("source: expected an object")),
                 qPrintable(m_window->lastOpenError()));
    }

    void openingTheSampleCompilesCleanly()
    {
        Document *document = openVectorAdd();
        QVERIFY(document);
        QVERIFY2(document->lastResult().success, document->lastResult().log.c_str());
        QCOMPARE(m_window->problemsModel()->rowCount(), 0);
        QCOMPARE(document->editor()->diagnosticCount(), 0);

        const KernelsModel *kernels = m_window->kernelsModel();
        QCOMPARE(kernels->rowCount(), 1);
        QCOMPARE(kernels->index(0, KernelsModel::LoweredNameColumn).data().toString(),
                 QStringLiteral("vector_add"));
        QVERIFY(kernels->index(0, 0).data(KernelsModel::OccupancyRole).toDouble() > 0.0);
        QCOMPARE(kernels->index(0, 0).data(KernelsModel::SourceLineRole).toInt(),
                 lineContaining(document->editor(), QStringLiteral("__global__")) + 1);
        QVERIFY(m_window->compileStatusWidget()->text().startsWith(
            QStringLiteral("0 errors, 0 warnings \u2014 ")));
        QVERIFY(!m_window->ptxView()->text().isEmpty());
        QVERIFY(m_window->ptxView()->text().contains(QStringLiteral(".entry vector_add")));

        // Clicking the kernel goes to its declaration.
        document->editor()->setCursorPosition(0, 0);
        QTableView *table = m_window->kernelsPanel()->view();
        const QRect cell = table->visualRect(table->model()->index(0, KernelsModel::NameColumn));
        QVERIFY(cell.isValid());
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(document->editor()->cursorLine(),
                 lineContaining(document->editor(), QStringLiteral("__global__")) + 1);
    }

    void aTypedBugIsShownInPlaceAndClearedWhenFixed()
    {
        Document *document = openVectorAdd();
        QVERIFY(document);
        SourceEditor *editor = document->editor();
        const int line = lineContaining(editor, QStringLiteral("if (i < n)"));
        QVERIFY(line >= 0);
        const int index = static_cast<int>(editor->text(line).indexOf(QStringLiteral("n)")));

        // "n" -> "nn": an undefined identifier at a known line and column.
        editor->insertAt(QStringLiteral("n"), line, index);
        QTRY_VERIFY_WITH_TIMEOUT(hasProblemAt(m_window->problemsModel(), Severity::Error, line + 1),
                                 CompileTimeoutMs);
        const QModelIndex problem = m_window->problemsModel()->index(0, 0);
        QCOMPARE(problem.data(ProblemsModel::LineRole).toInt(), line + 1);
        QCOMPARE(problem.data(ProblemsModel::ColumnRole).toInt(), index + 1);
        QVERIFY(problem.siblingAtColumn(ProblemsModel::MessageColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("\"nn\"")));

        // Annotation under the line, squiggle over the token, marker in the gutter.
        QVERIFY(editor->annotation(line).contains(QStringLiteral("\"nn\" is undefined")));
        QCOMPARE(editor->diagnosticIndicatorAt(line, index), int(SourceEditor::ErrorIndicator));
        QCOMPARE(editor->diagnosticIndicatorAt(line, index + 1), int(SourceEditor::ErrorIndicator));
        QCOMPARE(editor->diagnosticIndicatorAt(line, index + 2), -1); // ")" is not underlined
        QCOMPARE(editor->diagnosticIndicatorAt(line, 0), -1);
        QVERIFY(editor->markersAtLine(line) & (1u << SourceEditor::ErrorMarker));
        QVERIFY(m_window->compileStatusWidget()->text().startsWith(QStringLiteral("1 error")));
        QVERIFY(m_window->kernelsModel()->rowCount() == 0);

        // Enter on the problem in the Problems dock puts the cursor on it.
        editor->setCursorPosition(0, 0);
        QTreeView *view = m_window->problemsPanel()->view();
        view->setFocus();
        view->setCurrentIndex(view->model()->index(0, ProblemsModel::MessageColumn));
        QTest::keyClick(view, Qt::Key_Return);
        int cursorLine = -1;
        int cursorIndex = -1;
        editor->getCursorPosition(&cursorLine, &cursorIndex);
        QCOMPARE(cursorLine, line);
        QCOMPARE(cursorIndex, index);

        // Undo the edit: everything clears.
        editor->undo();
        QCOMPARE(editor->text(line).indexOf(QStringLiteral("nn)")), qsizetype(-1));
        QTRY_COMPARE_WITH_TIMEOUT(m_window->problemsModel()->rowCount(), 0, CompileTimeoutMs);
        QVERIFY(editor->annotation(line).isEmpty());
        QCOMPARE(editor->diagnosticIndicatorAt(line, index), -1);
        QCOMPARE(editor->markersAtLine(line) & (1u << SourceEditor::ErrorMarker), 0u);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->kernelsModel()->rowCount(), 1, CompileTimeoutMs);
    }

    void cursorLineHighlightsItsPtxAndPtxClicksMoveTheCursor()
    {
        Document *document = openVectorAdd();
        QVERIFY(document);
        SourceEditor *editor = document->editor();
        PtxView *ptx = m_window->ptxView();
        const int bodyLine = lineContaining(editor, QStringLiteral("c[i] = a[i] + b[i]"));
        QVERIFY(bodyLine >= 0);

        // QScintilla reports cursor moves when it next updates the view, so wait for them.
        editor->setCursorPosition(0, 0);
        QTRY_VERIFY(ptx->highlightedLines().empty()); // a comment generates no PTX
        editor->setCursorPosition(bodyLine, 4);
        QTRY_VERIFY(!ptx->highlightedLines().empty());
        const std::vector<int> highlighted = ptx->highlightedLines();
        bool sawGlobalAccess = false;
        for (int ptxLine : highlighted) {
            QVERIFY(ptx->isLineHighlighted(ptxLine));
            sawGlobalAccess |= ptx->text(ptxLine - 1).contains(QStringLiteral(".global"));
        }
        QVERIFY2(sawGlobalAccess, "the loads and store of c[i] = a[i] + b[i] are highlighted");
        // The first highlighted line is scrolled into view.
        const int first = highlighted.front() - 1;
        const int top = ptx->firstVisibleLine();
        QVERIFY(first >= top);
        QVERIFY(first < top + int(ptx->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN)));
        // A line with no PTX clears the highlight.
        editor->setCursorPosition(0, 0);
        QTRY_VERIFY(ptx->highlightedLines().empty());
        QVERIFY(!ptx->isLineHighlighted(highlighted.front()));

        // Click that PTX line: the source cursor goes to the line that generated it.
        const long position = ptx->positionFromLineIndex(first, 0);
        const int x =
            int(ptx->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0UL, position)) + 20;
        const int y =
            int(ptx->SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0UL, position)) +
            int(ptx->SendScintilla(QsciScintillaBase::SCI_TEXTHEIGHT, first)) / 2;
        QTest::mouseClick(ptx->viewport(), Qt::LeftButton, {}, QPoint(x, y));
        QTRY_COMPARE(editor->cursorLine(), bodyLine + 1);
    }

    void emptyFileHasNoKernels()
    {
        Document *document = m_window->documentTabs()->newDocument();
        QVERIFY(document);
        QTRY_VERIFY_WITH_TIMEOUT(document->hasResult() && !m_window->compileController()->isBusy(),
                                 CompileTimeoutMs);
        QCOMPARE(m_window->kernelsModel()->rowCount(), 0);
        QVERIFY(document->lastResult().kernels.empty());
        QVERIFY(m_window->documentTabs()->closeDocument(document));
    }

    void latin1FileOpensWithAWarning()
    {
        Document *document = m_window->openPath(QStringLiteral(CUWB_TEST_DATA_DIR "/latin1.cu"));
        QVERIFY(document);
        QVERIFY(document->editor()->text().contains(QStringLiteral("caf\u00e9 \u00b5s")));
        QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("Latin-1")));
        QVERIFY(!document->isModified());
        QTRY_VERIFY_WITH_TIMEOUT(document->hasResult(), CompileTimeoutMs);
        QVERIFY(m_window->documentTabs()->closeDocument(document));
    }

    void deviceLineIsPlain()
    {
        QTRY_VERIFY_WITH_TIMEOUT(m_window->deviceProbe()->isFinished(), CompileTimeoutMs);
        const QString text = m_window->deviceStatusText();
        QVERIFY(!text.isEmpty());
        QVERIFY2(!text.contains(QStringLiteral("failed")), qPrintable(text));
        if (m_window->deviceProbe()->query().devices.empty())
            QVERIFY2(text.contains(QStringLiteral("compile-only mode")), qPrintable(text));
        else
            QVERIFY(text.contains(
                QString::fromStdString(m_window->deviceProbe()->query().devices.front().name)));
    }

    void missingCliIsReportedPlainly()
    {
        DeviceProbe probe;
        probe.setCliPath(QStringLiteral("/nonexistent/cuwb"));
        probe.start();
        QTRY_VERIFY(probe.isFinished());
        QVERIFY(probe.summary().contains(QStringLiteral("/nonexistent/cuwb")));
    }
};

CUWB_TEST_MAIN(TestMainWindow)
} // namespace tst_mainwindow
} // namespace

#include "tst_mainwindow.moc"
