// The History panel and its model: the model under QAbstractItemModelTester, listing and
// filtering a database, Open and Compare as baseline handing over the stored document, notes,
// Delete with its confirmation, adding, and a database that cannot be opened.
#include "gui/history/historymodel.h"
#include "gui/history/historypanel.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_historypanel {
// moc reads raw strings with unbalanced braces as code: the helpers are not its business.
#ifndef Q_MOC_RUN

namespace {

HistoryEntry entry(HistoryKind kind, const std::string &project, const std::string &kernel,
                   const std::string &createdAt, const std::string &summary)
{
    HistoryEntry e;
    e.kind = kind;
    e.createdAt = createdAt;
    e.projectName = project;
    e.projectPath = "/home/student/" + project + ".cuwb";
    e.kernel = kernel;
    e.deviceName = "NVIDIA H200";
    e.sourceHash = "fnv1a64:0123456789abcdef";
    e.summary = summary;
    e.json = R"({"kernel":")" + kernel + R"(","summary":")" + summary + R"("})";
    return e;
}

HistoryItem item(qint64 id, HistoryKind kind, const std::string &kernel, const std::string &note)
{
    HistoryItem i;
    i.id = id;
    i.kind = kind;
    i.createdAt = "2025-03-14T09:26:53Z";
    i.projectName = "Vector add";
    i.kernel = kernel;
    i.deviceName = "NVIDIA H200";
    i.summary = "median 199.3 µs, 2694 GB/s";
    i.note = note;
    return i;
}

// Answers the next modal dialog (a QMessageBox or a QInputDialog) as soon as it shows.
void answerNextDialog(std::function<void(QWidget *)> answer)
{
    auto *timer = new QTimer(qApp);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, answer] {
        if (QWidget *dialog = QApplication::activeModalWidget()) {
            timer->stop();
            timer->deleteLater();
            answer(dialog);
        }
    });
    timer->start(10);
}

} // namespace

#endif // Q_MOC_RUN

class TestHistoryPanel : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_counter = 0;

    // A database with four entries: two measurements and a sweep of "copy" in project Lab,
    // and a measurement of "scale" in project Übung. Returns the ids, oldest first.
    QString filledDatabase(std::vector<qint64> *ids = nullptr)
    {
        const std::string path =
            m_dir.filePath(QStringLiteral("db%1/history.sqlite").arg(++m_counter)).toStdString();
        HistoryStore store = HistoryStore::open(path);
        std::vector<qint64> added{
            store.add(entry(HistoryKind::Measurement, "Lab", "copy", "2025-03-01T10:00:00Z",
                            "median 210.0 µs, 2556 GB/s")),
            store.add(entry(HistoryKind::Sweep, "Lab", "copy", "2025-03-02T10:00:00Z",
                            "32 points, best block.x=256: 196 µs")),
            store.add(entry(HistoryKind::Measurement, "Übung", "scale", "2025-03-03T10:00:00Z",
                            "median 12.5 ms, 1.2 GB/s")),
            store.add(entry(HistoryKind::Measurement, "Lab", "copy", "2025-03-04T10:00:00Z",
                            "median 199.3 µs, 2694 GB/s")),
        };
        if (ids)
            *ids = added;
        return QString::fromStdString(path);
    }

    static bool waitForList(HistoryPanel &panel)
    {
        QSignalSpy listed(&panel, &HistoryPanel::listUpdated);
        return listed.wait(10000);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void modelPassesTheTester()
    {
        HistoryModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setItems({item(3, HistoryKind::Measurement, "copy", ""),
                        item(2, HistoryKind::Sweep, "copy", "two\nlines"),
                        item(1, HistoryKind::Measurement, "scale", "")});
        QVERIFY(model.setNote(3, "better"));
        QVERIFY(!model.setNote(99, "nobody"));
        QVERIFY(model.removeId(2));
        QVERIFY(!model.removeId(2));
        model.clear();
        model.setItems({item(5, HistoryKind::Sweep, "tile", "")});
    }

    void modelShowsTheColumns()
    {
        HistoryModel model;
        model.setItems({item(7, HistoryKind::Sweep, "copy", "baseline\nbefore tiling")});
        QCOMPARE(model.columnCount(), int(HistoryModel::ColumnCount));
        const auto cell = [&model](int column) { return model.index(0, column).data().toString(); };
        QCOMPARE(cell(HistoryModel::KindColumn), QStringLiteral("Sweep"));
        QCOMPARE(cell(HistoryModel::ProjectColumn), QStringLiteral("Vector add"));
        QCOMPARE(cell(HistoryModel::KernelColumn), QStringLiteral("copy"));
        QCOMPARE(cell(HistoryModel::DeviceColumn), QStringLiteral("NVIDIA H200"));
        QCOMPARE(cell(HistoryModel::SummaryColumn), QStringLiteral("median 199.3 µs, 2694 GB/s"));
        QCOMPARE(cell(HistoryModel::NoteColumn), QStringLiteral("baseline \u2026"));
        QCOMPARE(model.index(0, 0).data(HistoryModel::NoteRole).toString(),
                 QStringLiteral("baseline\nbefore tiling"));
        QCOMPARE(model.index(0, 0).data(HistoryModel::IdRole).toLongLong(), 7);
        QCOMPARE(model.index(0, 0).data(HistoryModel::KindRole).toString(),
                 QStringLiteral("sweep"));
        const QDateTime when = model.index(0, 0).data(HistoryModel::CreatedAtRole).toDateTime();
        QCOMPARE(when, QDateTime(QDate(2025, 3, 14), QTime(9, 26, 53), Qt::UTC));
        QCOMPARE(cell(HistoryModel::WhenColumn),
                 when.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
        QCOMPARE(model.headerData(HistoryModel::SummaryColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Summary"));
    }

    void listsNewestFirst()
    {
        std::vector<qint64> ids;
        HistoryPanel panel;
        panel.setDatabasePath(filledDatabase(&ids));
        QVERIFY(waitForList(panel));
        QVERIFY(panel.isDatabaseOpen());
        HistoryModel *model = panel.model();
        QCOMPARE(model->rowCount(), 4);
        QCOMPARE(model->index(0, 0).data(HistoryModel::IdRole).toLongLong(), ids[3]);
        QCOMPARE(model->index(3, 0).data(HistoryModel::IdRole).toLongLong(), ids[0]);
        QCOMPARE(panel.statusText(), QStringLiteral("4 entries"));
        // Nothing selected: nothing to act on.
        QVERIFY(!panel.openAction()->isEnabled());
        panel.selectId(ids[1]);
        QVERIFY(panel.openAction()->isEnabled());
        QVERIFY(panel.deleteAction()->isEnabled());
        QCOMPARE(panel.selectedId(), std::optional<qint64>(ids[1]));
    }

    void filtersByKindAndText()
    {
        HistoryPanel panel;
        panel.setDatabasePath(filledDatabase());
        QVERIFY(waitForList(panel));

        panel.kindFilter()->setCurrentIndex(2); // Sweeps
        QVERIFY(waitForList(panel));
        QCOMPARE(panel.model()->rowCount(), 1);
        QCOMPARE(panel.model()->index(0, 0).data(HistoryModel::KindRole).toString(),
                 QStringLiteral("sweep"));

        panel.kindFilter()->setCurrentIndex(1); // Measurements
        QVERIFY(waitForList(panel));
        QCOMPARE(panel.model()->rowCount(), 3);

        panel.textFilter()->setText(QStringLiteral("Übung"));
        QVERIFY(waitForList(panel));
        QCOMPARE(panel.model()->rowCount(), 1);
        QCOMPARE(panel.model()->index(0, HistoryModel::KernelColumn).data().toString(),
                 QStringLiteral("scale"));

        panel.textFilter()->setText(QStringLiteral("no such thing"));
        QVERIFY(waitForList(panel));
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY(!panel.view()->isVisibleTo(&panel));

        panel.textFilter()->clear();
        panel.kindFilter()->setCurrentIndex(0); // lists at once, without waiting for typing
        QVERIFY(waitForList(panel));
        QCOMPARE(panel.model()->rowCount(), 4);
        QVERIFY(panel.view()->isVisibleTo(&panel));
    }

    void openAndCompareHandOverTheDocument()
    {
        std::vector<qint64> ids;
        HistoryPanel panel;
        panel.setDatabasePath(filledDatabase(&ids));
        QVERIFY(waitForList(panel));
        QSignalSpy opened(&panel, &HistoryPanel::openRequested);
        QSignalSpy baseline(&panel, &HistoryPanel::baselineRequested);

        panel.selectId(ids[1]);
        panel.openAction()->trigger();
        QVERIFY(opened.wait(10000));
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).toLongLong(), ids[1]);
        QCOMPARE(
            opened.at(0).at(1).toString(),
            QStringLiteral(R"({"kernel":"copy","summary":"32 points, best block.x=256: 196 µs"})"));
        QCOMPARE(opened.at(0).at(2).toString(), QStringLiteral("sweep"));
        QCOMPARE(baseline.count(), 0);

        panel.selectId(ids[2]);
        panel.compareAction()->trigger();
        QVERIFY(baseline.wait(10000));
        QCOMPARE(baseline.at(0).at(0).toLongLong(), ids[2]);
        QVERIFY(baseline.at(0).at(1).toString().contains(QStringLiteral("scale")));
        QCOMPARE(baseline.at(0).at(2).toString(), QStringLiteral("measurement"));
        QCOMPARE(opened.count(), 1);

        // Double-click opens too.
        const QModelIndex first = panel.model()->index(0, HistoryModel::SummaryColumn);
        Q_EMIT panel.view()->doubleClicked(first);
        QVERIFY(opened.wait(10000));
        QCOMPARE(opened.at(1).at(0).toLongLong(), ids[3]);
    }

    // Two quick requests: only the newer one is delivered.
    void aNewerLoadSupersedesAnOlderOne()
    {
        std::vector<qint64> ids;
        HistoryPanel panel;
        panel.setDatabasePath(filledDatabase(&ids));
        QVERIFY(waitForList(panel));
        QSignalSpy opened(&panel, &HistoryPanel::openRequested);
        panel.openEntry(ids[0]);
        panel.openEntry(ids[3]);
        QVERIFY(opened.wait(10000));
        // The older result finished first (one database thread) and was dropped.
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).toLongLong(), ids[3]);
    }

    void editsANote()
    {
        std::vector<qint64> ids;
        HistoryPanel panel;
        const QString path = filledDatabase(&ids);
        panel.setDatabasePath(path);
        QVERIFY(waitForList(panel));
        panel.selectId(ids[0]);
        answerNextDialog([](QWidget *dialog) {
            auto *input = qobject_cast<QInputDialog *>(dialog);
            QVERIFY(input);
            input->setTextValue(QStringLiteral("before the fix ✓"));
            input->accept();
        });
        QSignalSpy changed(panel.model(), &QAbstractItemModel::dataChanged);
        panel.editNoteAction()->trigger();
        QVERIFY(changed.wait(10000));
        QCOMPARE(panel.model()->item(ids[0])->note, std::string("before the fix ✓"));
        HistoryStore store = HistoryStore::open(path.toStdString());
        QCOMPARE(store.load(ids[0])->note, std::string("before the fix ✓"));
    }

    void deleteAsksFirst()
    {
        std::vector<qint64> ids;
        HistoryPanel panel;
        const QString path = filledDatabase(&ids);
        panel.setDatabasePath(path);
        QVERIFY(waitForList(panel));
        QSignalSpy removed(&panel, &HistoryPanel::entryRemoved);

        panel.selectId(ids[2]);
        answerNextDialog([](QWidget *dialog) {
            auto *box = qobject_cast<QMessageBox *>(dialog);
            QVERIFY(box);
            QVERIFY(box->text().contains(QStringLiteral("scale")));
            box->button(QMessageBox::No)->click();
        });
        panel.deleteAction()->trigger(); // returns once the question is answered
        QCOMPARE(removed.count(), 0);
        QCOMPARE(panel.model()->rowCount(), 4);

        answerNextDialog([](QWidget *dialog) {
            qobject_cast<QMessageBox *>(dialog)->button(QMessageBox::Yes)->click();
        });
        panel.deleteAction()->trigger();
        QVERIFY(removed.wait(10000));
        QCOMPARE(removed.at(0).at(0).toLongLong(), ids[2]);
        QCOMPARE(panel.model()->rowCount(), 3);
        QCOMPARE(panel.model()->rowOfId(ids[2]), -1);
        QCOMPARE(panel.statusText(), QStringLiteral("3 entries"));
        HistoryStore store = HistoryStore::open(path.toStdString());
        QVERIFY(!store.load(ids[2]));
    }

    void addsAnEntry()
    {
        HistoryPanel panel;
        const QString path = m_dir.filePath(QStringLiteral("new/history.sqlite"));
        panel.setDatabasePath(path);
        // Asked for while the database is still opening: kept, not lost.
        panel.addEntry(entry(HistoryKind::Sweep, "Lab", "tile", "", "8 points"));
        QSignalSpy added(&panel, &HistoryPanel::entryAdded);
        QVERIFY(added.wait(10000));
        QTRY_COMPARE_WITH_TIMEOUT(panel.model()->rowCount(), 1, 10000);
        QCOMPARE(panel.model()->index(0, HistoryModel::SummaryColumn).data().toString(),
                 QStringLiteral("8 points"));
        QCOMPARE(panel.model()->index(0, 0).data(HistoryModel::IdRole).toLongLong(),
                 added.at(0).at(0).toLongLong());
    }

    // Two windows on one file: what one adds, the other lists on refresh; what one deletes,
    // the other cannot open any more and says so.
    void twoPanelsShareTheDatabase()
    {
        std::vector<qint64> ids;
        const QString path = filledDatabase(&ids);
        HistoryPanel first;
        HistoryPanel second;
        first.setDatabasePath(path);
        second.setDatabasePath(path);
        QVERIFY(waitForList(first));
        QTRY_COMPARE_WITH_TIMEOUT(second.model()->rowCount(), 4, 10000);

        QSignalSpy added(&first, &HistoryPanel::entryAdded);
        first.addEntry(entry(HistoryKind::Sweep, "Lab", "tile", "", "8 points"));
        QVERIFY(added.wait(10000));
        second.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(second.model()->rowCount(), 5, 10000);

        QSignalSpy removed(&first, &HistoryPanel::entryRemoved);
        first.removeEntry(ids[0]);
        QVERIFY(removed.wait(10000));
        QSignalSpy failed(&second, &HistoryPanel::databaseErrorOccurred);
        QSignalSpy opened(&second, &HistoryPanel::openRequested);
        second.openEntry(ids[0]);
        QVERIFY(failed.wait(10000));
        QVERIFY(second.statusText().contains(QStringLiteral("no longer in the history")));
        QCOMPARE(opened.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(second.model()->rowOfId(ids[0]), -1, 10000);
    }

    void showsWhyTheDatabaseCannotBeOpened()
    {
        const QString path = m_dir.filePath(QStringLiteral("garbage/history.sqlite"));
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray(4096, 'x'));
        }
        HistoryPanel panel;
        QSignalSpy failed(&panel, &HistoryPanel::databaseErrorOccurred);
        panel.setDatabasePath(path);
        QVERIFY(failed.wait(10000));
        QVERIFY(!panel.isDatabaseOpen());
        QVERIFY(panel.openErrorMessage().contains(path));
        QVERIFY(panel.openErrorMessage().contains(QStringLiteral("not a database")));
        QVERIFY(!panel.view()->isVisibleTo(&panel));
        bool shown = false;
        for (const QLabel *label : panel.findChildren<QLabel *>())
            shown = shown || (label->isVisibleTo(&panel) && label->text().contains(path));
        QVERIFY(shown);
        QVERIFY(!panel.kindFilter()->isEnabled());

        // Adding is refused with the reason, never a crash; Try again works once it is fixed.
        QSignalSpy added(&panel, &HistoryPanel::entryAdded);
        panel.addEntry(entry(HistoryKind::Measurement, "Lab", "copy", "", "median 1 µs"));
        QCOMPARE(failed.count(), 2);
        QVERIFY(panel.statusText().contains(QStringLiteral("Not kept in the history")));
        QVERIFY(QFile::remove(path));
        QPushButton *retry = nullptr;
        for (QPushButton *button : panel.findChildren<QPushButton *>())
            if (button->text() == QStringLiteral("Try again"))
                retry = button;
        QVERIFY(retry && retry->isVisibleTo(&panel));
        retry->click();
        QVERIFY(waitForList(panel));
        QVERIFY(panel.isDatabaseOpen());
        QVERIFY(!panel.view()->isVisibleTo(&panel)); // empty: the "no entries yet" page
        QCOMPARE(added.count(), 0);
    }

    void defaultPathIsInTheDataFolder()
    {
        const QString path = defaultHistoryPath();
        QVERIFY(path.endsWith(QStringLiteral("/history.sqlite")));
        QVERIFY(path.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
    }

    // Not a check: with CUWB_SCREENSHOT_DIR set, renders the panel with a few entries to
    // historypanel.png there, to look at.
    void screenshot()
    {
        const QByteArray folder = qgetenv("CUWB_SCREENSHOT_DIR");
        if (folder.isEmpty())
            QSKIP("set CUWB_SCREENSHOT_DIR to render the panel");
        std::vector<qint64> ids;
        const QString path = filledDatabase(&ids);
        {
            HistoryStore store = HistoryStore::open(path.toStdString());
            store.setNote(ids[0], "before coalescing the loads");
            store.setNote(ids[3], "tiled, 2 elements per thread\nsecond line");
        }
        HistoryPanel panel;
        panel.resize(1100, 260);
        panel.setDatabasePath(path);
        QVERIFY(waitForList(panel));
        panel.selectId(ids[1]);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QString file = QString::fromLocal8Bit(folder) + QStringLiteral("/historypanel.png");
        QVERIFY(panel.grab().save(file));

        HistoryPanel empty;
        empty.resize(700, 220);
        empty.setDatabasePath(m_dir.filePath(QStringLiteral("empty/history.sqlite")));
        QVERIFY(waitForList(empty));
        empty.show();
        QVERIFY(QTest::qWaitForWindowExposed(&empty));
        QVERIFY(empty.grab().save(QString::fromLocal8Bit(folder) +
                                  QStringLiteral("/historypanel-empty.png")));

        HistoryPanel failed;
        failed.resize(700, 220);
        const QString broken = m_dir.filePath(QStringLiteral("broken.sqlite"));
        {
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, 'x'));
        }
        QSignalSpy error(&failed, &HistoryPanel::databaseErrorOccurred);
        failed.setDatabasePath(broken);
        QVERIFY(error.wait(10000));
        failed.show();
        QVERIFY(QTest::qWaitForWindowExposed(&failed));
        QVERIFY(failed.grab().save(QString::fromLocal8Bit(folder) +
                                   QStringLiteral("/historypanel-error.png")));
    }
};

CUWB_TEST_MAIN(TestHistoryPanel)
} // namespace tst_historypanel
} // namespace

#include "tst_historypanel.moc"
