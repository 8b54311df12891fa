// The window of a first start, at two screen sizes: it takes most of the screen, the editor
// shows MainWindow::kEditorColumns columns of code, the Problems dock several rows, and
// View > Reset Layout brings that back after the docks were moved and resized. The offscreen
// platform has one fixed screen, so the screen's free area is handed to applyDefaultLayout.
#include "gui/common/theme.h"
#include "gui/compile/problemspanel.h"
#include "gui/editor/document.h"
#include "gui/editor/ptxview.h"
#include "gui/editor/sourceeditor.h"
#include "gui/shell/mainwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QFontMetrics>
#include <QHeaderView>
#include <QSettings>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <memory>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_mainwindowlayout {

namespace {

// The columns of text the editor shows: its viewport less the margins drawn inside it.
int visibleColumns(const SourceEditor *editor)
{
    int margins = 0;
    for (int margin = 0; margin < editor->margins(); ++margin)
        margins += editor->marginWidth(margin);
    const int text = editor->viewport()->width() - margins - 2; // Scintilla's text padding
    return text / QFontMetrics(Theme::editorFont()).horizontalAdvance(QLatin1Char('0'));
}

// The rows of messages the Problems list has room for below its header (it shows a
// placeholder while there are none, so the panel's height is what counts).
int visibleProblemRows(const ProblemsPanel *panel)
{
    const QTreeView *view = panel->view();
    const int rowHeight = view->fontMetrics().height() + 6;
    return (panel->height() - view->header()->sizeHint().height()) / rowHeight;
}

} // namespace

class TestMainWindowLayout : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    std::unique_ptr<MainWindow> m_window;

    QDockWidget *dock(const char *name) const
    {
        return m_window->findChild<QDockWidget *>(QString::fromLatin1(name));
    }

    void checkLayout(const QRect &available)
    {
        QCoreApplication::processEvents();
        const QRect frame = m_window->frameGeometry();
        QVERIFY2(available.contains(frame), qPrintable(QStringLiteral("%1,%2 %3x%4")
                                                           .arg(frame.x())
                                                           .arg(frame.y())
                                                           .arg(frame.width())
                                                           .arg(frame.height())));
        // Most of the screen.
        QVERIFY(frame.width() >= available.width() * 9 / 10);
        QVERIFY(frame.height() >= available.height() * 9 / 10);
        const SourceEditor *editor = m_window->currentDocument()->editor();
        const int columns = visibleColumns(editor);
        QVERIFY2(columns >= MainWindow::kEditorColumns,
                 qPrintable(QStringLiteral("%1 columns in %2 px")
                                .arg(columns)
                                .arg(editor->viewport()->width())));
        const int rows = visibleProblemRows(m_window->problemsPanel());
        QVERIFY2(rows >= 5, qPrintable(QStringLiteral("%1 rows in %2 px")
                                           .arg(rows)
                                           .arg(m_window->problemsPanel()->height())));
        // The PTX view and the Launch dock stay beside it (on 1366×768 the editor's columns
        // leave the PTX view about 150 px).
        const int ptxMinimum = available.width() >= 1600 ? 300 : 120;
        QVERIFY2(m_window->ptxView()->width() >= ptxMinimum,
                 qPrintable(QString::number(m_window->ptxView()->width())));
        QVERIFY(dock("launchDock")->width() >= 300);
        QVERIFY(!dock("problemsDock")->isFloating());
        QVERIFY(dock("problemsDock")->isVisible());
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
        settings.probeDevices = false;
        m_window = std::make_unique<MainWindow>(settings);
        QVERIFY(m_window->openPath(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu")));
    }

    void cleanupTestCase() { m_window.reset(); }

    void aSmallScreenIsFilled()
    {
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        const QRect available(0, 0, 1366, 768);
        m_window->applyDefaultLayout(available);
        QCOMPARE(m_window->frameGeometry(), available);
        checkLayout(available);
    }

    void aLargeScreenKeepsAMargin()
    {
        const QRect available(0, 0, 1920, 1080);
        m_window->applyDefaultLayout(available);
        QVERIFY(m_window->width() < available.width());
        checkLayout(available);
    }

    void resetLayoutRestoresIt()
    {
        // What a user might have done: a wide Launch dock, a floating Problems dock, a hidden
        // Kernels dock, the PTX view dragged over the editor; and a layout saved on quitting.
        m_window->resizeDocks({dock("launchDock")}, {900}, Qt::Horizontal);
        dock("problemsDock")->setFloating(true);
        dock("kernelsDock")->hide();
        auto *splitter = m_window->findChild<QSplitter *>(QStringLiteral("editorSplitter"));
        QVERIFY(splitter);
        splitter->setSizes({150, 2000});
        QSettings().setValue(QStringLiteral("mainWindow/state"), m_window->saveState());
        QCoreApplication::processEvents();
        QVERIFY(visibleColumns(m_window->currentDocument()->editor()) < 100);

        auto *reset = m_window->findChild<QAction *>(QStringLiteral("resetLayoutAction"));
        QVERIFY(reset);
        // The offscreen screen is smaller than any real one; lay out on a 1366×768 area as the
        // action would on such a screen, after the action has put the docks back.
        reset->trigger();
        QVERIFY(!QSettings().contains(QStringLiteral("mainWindow/state")));
        QVERIFY(dock("kernelsDock")->isVisible());
        QVERIFY(!dock("problemsDock")->isFloating());
        QCOMPARE(m_window->dockWidgetArea(dock("problemsDock")), Qt::BottomDockWidgetArea);
        m_window->applyDefaultLayout(QRect(0, 0, 1366, 768));
        checkLayout(QRect(0, 0, 1366, 768));
    }
};

CUWB_TEST_MAIN(TestMainWindowLayout)
} // namespace tst_mainwindowlayout
} // namespace

#include "tst_mainwindowlayout.moc"
