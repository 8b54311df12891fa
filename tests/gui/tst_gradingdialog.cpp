// "Grade a Folder…" (gui/grading/gradingdialog.h): a class of three submissions graded from
// the dialog against the stand-in worker with a GPU (support/fakeworker.cpp, "measure-ok",
// whose measurement is scaled by the source's FAKE_TIME_SCALE): the table shows each verdict,
// the ranks with the tie marked, the failure's reason; the report is saved; a folder that is no
// folder is said so; the window's Run menu has the action. With CUWB_SCREENSHOT_DIR set, the
// dialog is saved there as grade-folder.png (docs/images/).
#include "gui/grading/classtablemodel.h"
#include "gui/grading/gradingdialog.h"
#include "gui/grading/gradingrun.h"
#include "gui/shell/mainwindow.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_gradingdialog {

namespace {

// The lab project of data/grading_lab.cuwb, its kernel inline, measured `scale` times the
// stand-in's time; `wrong` makes its verification read a buffer that is not there.
void addSubmission(const QDir &root, const QString &student, const char *scale, bool wrong = false)
{
    QVERIFY(root.mkpath(student));
    QFile lab(QStringLiteral(CUWB_TEST_DATA_DIR "/grading_lab.cuwb"));
    QVERIFY(lab.open(QIODevice::ReadOnly));
    QByteArray project = lab.readAll();
    project.replace("@SCALE@", scale);
    project.replace("@EXPRESSION@", wrong ? "a[i] + 1.0f + wrong[i]" : "a[i] + 1.0f");
    QFile file(root.filePath(student + QStringLiteral("/lab.cuwb")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(project);
}

QString cell(const ClassTableModel *model, int row, int column)
{
    return model->data(model->index(row, column)).toString();
}

} // namespace

class TestGradingDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aClassIsGradedAndRanked();
    void aFolderThatIsNoFolderIsSaidSo();
    void theWindowHasTheAction();
};

void TestGradingDialog::aClassIsGradedAndRanked()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QDir root(dir.filePath(QStringLiteral("lab3")));
    addSubmission(root, QStringLiteral("ada"), "1.0");
    addSubmission(root, QStringLiteral("alan"), "1.003");
    addSubmission(root, QStringLiteral("grace"), "0.82");
    addSubmission(root, QStringLiteral("linus"), "0.9", true);

    GradingDialog dialog;
    dialog.run()->setCliPath(QStringLiteral(CUWB_CLI_PATH));
    dialog.run()->setExtraArguments(
        {QStringLiteral("--worker"), QStringLiteral(CUWB_FAKE_WORKER_PATH " measure-ok")});
    dialog.setFolder(root.path());
    dialog.setMeasure(true);
    dialog.show();
    QSignalSpy finished(&dialog, &GradingDialog::gradingFinished);
    dialog.startGrading();
    QVERIFY(dialog.run()->isRunning());
    QVERIFY(finished.wait(60000));
    QVERIFY2(dialog.statusText().startsWith(QStringLiteral("4 submissions: 3 passed, 1 failed.")),
             qPrintable(dialog.statusText()));

    const ClassTableModel *model = dialog.model();
    QCOMPARE(model->rowCount(), 4);
    QCOMPARE(cell(model, 0, ClassTableModel::Student), QStringLiteral("ada"));
    QCOMPARE(cell(model, 0, ClassTableModel::Rank), QStringLiteral("=2"));
    QCOMPARE(cell(model, 1, ClassTableModel::Rank), QStringLiteral("=2"));
    QCOMPARE(cell(model, 2, ClassTableModel::Rank), QStringLiteral("1"));
    QCOMPARE(cell(model, 3, ClassTableModel::Verdict), QStringLiteral("FAILED"));
    QVERIFY(!cell(model, 3, ClassTableModel::Reason).isEmpty());
    QVERIFY(cell(model, 3, ClassTableModel::Rank).isEmpty());
    QVERIFY(cell(model, 2, ClassTableModel::Median).endsWith(QStringLiteral("µs")));

    if (const QByteArray shots = qgetenv("CUWB_SCREENSHOT_DIR"); !shots.isEmpty()) {
        // As a grader's folder would read, not the test's temporary one.
        const QString folder = root.path();
        dialog.setFolder(QStringLiteral("/home/ta/parallel-computing/lab3"));
        QVERIFY(dialog.grab().save(
            QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("grade-folder.png"))));
        dialog.setFolder(folder);
    }

    const QString report = dir.filePath(QStringLiteral("report"));
    dialog.saveReportTo(report);
    QVERIFY(QFile::exists(report + QStringLiteral("/class.html")));
    QVERIFY(QFile::exists(report + QStringLiteral("/students/03-grace.txt")));
}

void TestGradingDialog::aFolderThatIsNoFolderIsSaidSo()
{
    GradingDialog dialog;
    dialog.setFolder(QStringLiteral("/no/such/folder"));
    dialog.startGrading();
    QVERIFY(!dialog.run()->isRunning());
    QVERIFY2(dialog.statusText().contains(QStringLiteral("is not a folder")),
             qPrintable(dialog.statusText()));
}

void TestGradingDialog::theWindowHasTheAction()
{
    MainWindow::Settings settings;
    settings.restoreLayout = false;
    settings.probeDevices = false;
    settings.prompts = false;
    MainWindow window(settings);
    QAction *grade = nullptr;
    for (QAction *menu : window.menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction *action : menu->menu()->actions()) {
            if (action->text() == QStringLiteral("&Grade a Folder\u2026"))
                grade = action;
        }
    }
    QVERIFY(grade);
    grade->trigger();
    auto *dialog = window.findChild<GradingDialog *>();
    QVERIFY(dialog && dialog->isVisible());
    grade->trigger(); // the same dialog again
    QCOMPARE(window.findChildren<GradingDialog *>().size(), 1);
}

CUWB_TEST_MAIN(TestGradingDialog)
} // namespace tst_gradingdialog
} // namespace

#include "tst_gradingdialog.moc"
