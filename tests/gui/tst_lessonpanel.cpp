// The Lesson dock: every sample's lesson renders (title, one field per prediction), the
// predictions lock when the experiment starts, the measured values stand beside the
// predictions for a synthetic sweep, and the lab report is written. With CUWB_LESSON_PNG set,
// the panel is also saved as a PNG for a look at its layout.

#include "gui/automation/lessonscreenshotrunner.h"
#include "gui/lesson/labreport.h"
#include "gui/lesson/lessonpanel.h"
#include "gui/lesson/lessontool.h"
#include "gui/shell/mainwindow.h"
#include "sweeptestdata.h"

#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextDocument>

#include <QTest>
#include <QTextBrowser>
#include <sys/stat.h>

#include "support/testmain.h"

namespace {
namespace tst_lessonpanel {

namespace {

QString lessonOf(const QString &sample)
{
    return QStringLiteral(CUWB_SAMPLES_DIR "/") + sample + QStringLiteral("/lesson.md");
}

} // namespace

class TestLessonPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rendersEverySample_data()
    {
        QTest::addColumn<QString>("path");
        QDirIterator it(QStringLiteral(CUWB_SAMPLES_DIR), {QStringLiteral("lesson.md")},
                        QDir::Files, QDirIterator::Subdirectories);
        int count = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            QTest::newRow(qPrintable(QDir(QStringLiteral(CUWB_SAMPLES_DIR)).relativeFilePath(path)))
                << path;
            ++count;
        }
        QVERIFY(count >= 10);
    }

    void rendersEverySample()
    {
        QFETCH(QString, path);
        cuwb::LessonPanel panel;
        QCOMPARE(panel.loadLesson(path), QString());
        QVERIFY(panel.hasLesson());
        const cuwb::Lesson &lesson = *panel.lesson();
        QCOMPARE(panel.titleLabel()->text(), QString::fromStdString(lesson.title));
        QVERIFY(!panel.titleLabel()->text().isEmpty());
        QCOMPARE(panel.predictionEdits().size(), lesson.predictions.size());
        QCOMPARE(panel.measuredLabels().size(), lesson.predictions.size());
        QVERIFY(panel.textBrowser()->toPlainText().contains(QStringLiteral("Try")));
        QVERIFY(!panel.questionsView()->toPlainText().isEmpty());
        QVERIFY(panel.runButton()->isEnabled());
    }

    void badLessonSaysWhy()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lesson.md"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# T\nintro\n## Try\nx\n## Predict\n- no id\n");
        file.close();
        cuwb::LessonPanel panel;
        const QString error = panel.loadLesson(path);
        QVERIFY(error.contains(QStringLiteral("line 6")));
        QVERIFY(!panel.hasLesson());
        QVERIFY(panel.textBrowser()->toPlainText().contains(QStringLiteral("line 6")));
    }

    // A hostile lesson (issue 15): an image of /dev/zero, a huge image and one outside the
    // folder are not loaded (the lesson still shows), one beside the lesson is; a lesson.md
    // that is a FIFO is refused at once; a long word does not widen the panel.
    void hostileLessonStaysBounded()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lesson.md"));
        QImage small(8, 8, QImage::Format_RGB32);
        small.fill(Qt::red);
        QVERIFY(small.save(dir.filePath(QStringLiteral("ok.png"))));
        QImage big(5000, 4, QImage::Format_RGB32); // wider than kMaxLessonImageSide
        big.fill(Qt::blue);
        QVERIFY(big.save(dir.filePath(QStringLiteral("big.png"))));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# T\n![zero](/dev/zero) ![ok](ok.png) ![big](big.png) ![up](../x.png)\n"
                   "## Try\nx\n## Predict\n- [p] " +
                   QByteArray(1900, 'w') + "?\n## Experiment\nrun\n## Questions\n- q\n");
        file.close();
        cuwb::LessonPanel panel;
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(panel.loadLesson(path), QString());
        panel.resize(600, 500);
        panel.show();
        QCoreApplication::processEvents();
        QVERIFY(timer.elapsed() < 5000);
        QTextDocument *document = panel.textBrowser()->document();
        const auto image = [document](const char *name) {
            return document->resource(QTextDocument::ImageResource,
                                      QUrl(QString::fromLatin1(name)));
        };
        const auto size = [&image](const char *name) { return image(name).value<QImage>().size(); };
        QCOMPARE(size("ok.png"), QSize(8, 8));
        QCOMPARE(size("/dev/zero"), QSize(16, 16)); // the refused image's grey box
        QCOMPARE(size("big.png"), QSize(16, 16));
        QCOMPARE(size("../x.png"), QSize(16, 16));
        QVERIFY2(panel.minimumSizeHint().width() < 1500,
                 qPrintable(QString::number(panel.minimumSizeHint().width())));

        const QString fifo = dir.filePath(QStringLiteral("fifo/lesson.md"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("fifo")));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const QString error = panel.loadLesson(fifo);
        QVERIFY2(error.contains(QStringLiteral("a FIFO (named pipe), not a file")),
                 qPrintable(error));
    }

    void predictionsLockOnRun()
    {
        cuwb::LessonPanel panel;
        QCOMPARE(panel.loadLesson(lessonOf(QStringLiteral("copy"))), QString());
        QVERIFY(panel.setPrediction(QStringLiteral("best-block"), QStringLiteral("256")));
        QVERIFY(!panel.setPrediction(QStringLiteral("nope"), QStringLiteral("1")));
        QSignalSpy requested(&panel, &cuwb::LessonPanel::experimentRequested);
        QVERIFY(!panel.predictionsLocked());
        QTest::mouseClick(panel.runButton(), Qt::LeftButton);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).value<cuwb::LessonExperiment>(),
                 cuwb::LessonExperiment::Sweep);
        QVERIFY(panel.predictionsLocked());
        for (QLineEdit *edit : panel.predictionEdits())
            QVERIFY(edit->isReadOnly());
        QCOMPARE(panel.prediction(QStringLiteral("best-block")), QStringLiteral("256"));
    }

    void measuredBesidePrediction()
    {
        cuwb::LessonPanel panel;
        QCOMPARE(panel.loadLesson(lessonOf(QStringLiteral("copy")),
                                  QStringLiteral(CUWB_SAMPLES_DIR "/copy/copy.cuwb")),
                 QString());
        panel.setPrediction(QStringLiteral("best-block"), QStringLiteral("block.x = 1024"));
        panel.setPrediction(QStringLiteral("speedup"), QStringLiteral("2x"));
        panel.startExperiment();
        QSignalSpy shown(&panel, &cuwb::LessonPanel::resultShown);
        const cuwb::SweepResult result = cuwb::testdata::copySweep();
        const auto best = result.bestPoint();
        QVERIFY(best);
        panel.showSweepResult(result);
        QCOMPARE(shown.count(), 1);
        const QString bestText = panel.measuredText(QStringLiteral("best-block"));
        QVERIFY2(bestText.contains(QString::fromStdString(result.points[*best].point.label())),
                 qPrintable(bestText));
        const QString speedup = panel.measuredText(QStringLiteral("speedup"));
        QVERIFY2(speedup.contains(QStringLiteral("\u00d7")), qPrintable(speedup));
        QVERIFY2(speedup.contains(QStringLiteral("slowest")), qPrintable(speedup));
        QVERIFY(panel.predictionsLocked());

        if (const QByteArray png = qgetenv("CUWB_LESSON_PNG"); !png.isEmpty()) {
            panel.resize(900, 820);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QVERIFY(panel.grab().save(QString::fromLocal8Bit(png)));
        }

        QTemporaryDir dir;
        const QString report = dir.filePath(QStringLiteral("report.html"));
        QCOMPARE(panel.exportReport(report), QString());
        QFile file(report);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(file.readAll());
        QVERIFY(html.contains(QStringLiteral("block.x = 1024")));
        QVERIFY(html.contains(QString::fromStdString(panel.lesson()->title).toHtmlEscaped()));
    }

    // The main window loads the lesson beside a project; the --lesson screenshot fills in the
    // predictions, runs the lesson's sweep (against the stand-in worker with a GPU), captures
    // and writes the lab report.
    void lessonScreenshotRunsTheSweep()
    {
        QTemporaryDir settingsDir;
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
        QTemporaryDir dir;
        const QString cli = dir.filePath(QStringLiteral("cuwb"));
        QFile script(cli);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nif [ \"$1\" = devices ]; then exec '" CUWB_FAKE_WORKER_PATH
                     "' devices; fi\nexec '" CUWB_FAKE_SWEEP_WORKER_PATH "'\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        cuwb::MainWindow::Settings settings;
        settings.samplesDir = QStringLiteral(CUWB_SAMPLES_DIR);
        settings.restoreLayout = false;
        settings.prompts = false;
        settings.cliPath = cli;
        cuwb::MainWindow window(settings);
        QVERIFY(window.openPath(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb")));
        QVERIFY(window.lessonTool()->panel()->hasLesson());
        QVERIFY(!window.lessonTool()->dock()->isHidden());
        window.resize(1600, 1000);

        const QString png = dir.filePath(QStringLiteral("lesson.png"));
        const QString report = dir.filePath(QStringLiteral("report.html"));
        cuwb::LessonScreenshotRunner runner(&window, png);
        runner.setPredictions({{QStringLiteral("best-block"), QStringLiteral("256")},
                               {QStringLiteral("speedup"), QStringLiteral("3")}});
        runner.setReportPath(report);
        QSignalSpy finished(&runner, &cuwb::LessonScreenshotRunner::finished);
        runner.start();
        window.show();
        QVERIFY(finished.wait(120000) || !finished.isEmpty());
        QCOMPARE(finished.front().at(0).toInt(), 0);
        QVERIFY(QFile::exists(png));
        QVERIFY(QFile::exists(report));
        QVERIFY(window.lessonTool()->panel()->predictionsLocked());
        QCOMPARE(window.lessonTool()->panel()->prediction(QStringLiteral("best-block")),
                 QStringLiteral("256"));
        QVERIFY(
            !window.lessonTool()->panel()->measuredText(QStringLiteral("best-block")).isEmpty());
        QVERIFY(!window.lessonTool()->panel()->measuredText(QStringLiteral("speedup")).isEmpty());
        if (const QByteArray keep = qgetenv("CUWB_LESSON_SCREENSHOT"); !keep.isEmpty()) {
            QFile::remove(QString::fromLocal8Bit(keep));
            QFile::copy(png, QString::fromLocal8Bit(keep));
        }

        // A project without a lesson beside it clears the panel.
        QVERIFY(window.openPath(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu")));
    }

    void noPredictionOfThatIdFails()
    {
        QTemporaryDir settingsDir;
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
        cuwb::MainWindow::Settings settings;
        settings.samplesDir = QStringLiteral(CUWB_SAMPLES_DIR);
        settings.restoreLayout = false;
        settings.prompts = false;
        settings.probeDevices = false;
        cuwb::MainWindow window(settings);
        QVERIFY(window.openPath(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cuwb")));
        QTemporaryDir dir;
        cuwb::LessonScreenshotRunner runner(&window, dir.filePath(QStringLiteral("x.png")));
        runner.setPredictions({{QStringLiteral("nope"), QStringLiteral("1")}});
        QSignalSpy finished(&runner, &cuwb::LessonScreenshotRunner::finished);
        runner.start();
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.front().at(0).toInt(), 1);
    }
};

CUWB_TEST_MAIN(TestLessonPanel)
} // namespace tst_lessonpanel
} // namespace

#include "tst_lessonpanel.moc"
