// The lesson.md parser (core/lesson/): every sample's lesson parses, and malformed lessons are
// refused with the line and what is wrong.

#include "lesson/lesson.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "support/testmain.h"

namespace {
namespace tst_lesson {

namespace {

const char *const kGood = "# Title\n"
                          "Intro *one*.\n"
                          "\n"
                          "Intro two.\n"
                          "## Try\n"
                          "Run it.\n"
                          "## Predict\n"
                          "- [best-block] Which block?\n"
                          "- [speedup] How much faster?\n"
                          "## Experiment\n"
                          "sweep\n"
                          "## Questions\n"
                          "- Why?\n"
                          "- Why not?\n";

} // namespace

class TestLesson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesGood()
    {
        const cuwb::LessonParse parse = cuwb::parseLesson(kGood);
        QVERIFY2(parse.ok(), parse.error.c_str());
        const cuwb::Lesson &lesson = *parse.lesson;
        QCOMPARE(lesson.title, std::string("Title"));
        QCOMPARE(lesson.intro, std::string("Intro *one*.\n\nIntro two."));
        QCOMPARE(lesson.tryText, std::string("Run it."));
        QCOMPARE(lesson.predictions.size(), std::size_t(2));
        QCOMPARE(lesson.predictions[0].id, std::string("best-block"));
        QCOMPARE(lesson.predictions[0].question, std::string("Which block?"));
        QCOMPARE(lesson.predictions[1].id, std::string("speedup"));
        QCOMPARE(lesson.experiment, cuwb::LessonExperiment::Sweep);
        QCOMPARE(lesson.questions.size(), std::size_t(2));
        QCOMPARE(lesson.questions[1], std::string("Why not?"));
    }

    void experiments()
    {
        for (const char *word : {"sweep", "measure", "run"}) {
            std::string text = kGood;
            text.replace(text.find("\nsweep\n") + 1, 5, word);
            const cuwb::LessonParse parse = cuwb::parseLesson(text);
            QVERIFY2(parse.ok(), parse.error.c_str());
            QCOMPARE(std::string(cuwb::lessonExperimentName(parse.lesson->experiment)),
                     std::string(word));
        }
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        const QString good = QString::fromUtf8(kGood);
        auto with = [&good](const char *from, const char *to) {
            QString text = good;
            return text.replace(QString::fromUtf8(from), QString::fromUtf8(to));
        };
        QTest::newRow("empty") << QString()
                               << QStringLiteral("line 1: a lesson starts with its title");
        QTest::newRow("no title") << with("# Title\n", "Title\n")
                                  << QStringLiteral("line 1: a lesson starts with its title");
        QTest::newRow("no id") << with("- [speedup] How", "- How")
                               << QStringLiteral("line 9: a prediction needs an id in brackets: "
                                                 "- [id] question");
        QTest::newRow("empty id") << with("[speedup]", "[]")
                                  << QStringLiteral("line 9: a prediction needs an id");
        QTest::newRow("duplicate id") << with("[speedup]", "[best-block]")
                                      << QStringLiteral("line 9: the prediction id [best-block] "
                                                        "is used twice");
        QTest::newRow("no question") << with("[speedup] How much faster?", "[speedup]")
                                     << QStringLiteral("line 9: the prediction [speedup] has no "
                                                       "question");
        QTest::newRow("bad experiment") << with("\nsweep\n", "\nprofile\n")
                                        << QStringLiteral("line 11: unknown experiment `profile`");
        QTest::newRow("two experiments") << with("\nsweep\n", "\nsweep\nrun\n")
                                         << QStringLiteral("line 12: ## Experiment is one word");
        QTest::newRow("empty experiment")
            << with("\nsweep\n", "\n") << QStringLiteral("line 10: ## Experiment is empty");
        QTest::newRow("order") << with("## Try", "## Tries")
                               << QStringLiteral("line 5: expected ## Try, found ## Tries");
        QTest::newRow("missing questions") << with("## Questions\n- Why?\n- Why not?\n", "")
                                           << QStringLiteral("no ## Questions section");
        QTest::newRow("no predictions")
            << with("- [best-block] Which block?\n- [speedup] How much faster?\n", "")
            << QStringLiteral("line 7: ## Predict has no predictions");
        QTest::newRow("no questions") << with("- Why?\n- Why not?\n", "")
                                      << QStringLiteral("line 12: ## Questions has no questions");
        QTest::newRow("extra section") << good + QStringLiteral("## Answers\n")
                                       << QStringLiteral("line 15: unexpected section `Answers`");
        QTest::newRow("empty inspect")
            << good + QStringLiteral("## Inspect\nJust text.\n")
            << QStringLiteral("line 15: ## Inspect needs a compare line");
        QTest::newRow("inspect without answer")
            << good + QStringLiteral("## Inspect\n- [line] Which line?\n")
            << QStringLiteral("line 16: the Inspect question [line] has no answer");
        QTest::newRow("inspect compare of one")
            << good + QStringLiteral("## Inspect\ncompare a.cuwb\n")
            << QStringLiteral("line 16: compare names two projects");
        QTest::newRow("after inspect")
            << good + QStringLiteral("## Inspect\ncompare a.cuwb b.cuwb\n## More\n")
            << QStringLiteral("line 17: unexpected section `More` after ## Inspect");
        // Limits (issue 15): what would stretch or freeze the window is refused, with its line.
        QString many;
        for (int k = 0; k < 21; ++k)
            many += QStringLiteral("- [p%1] Question %1?\n").arg(k);
        QTest::newRow("21 predictions")
            << with("- [best-block] Which block?\n", many.toUtf8().constData())
            << QStringLiteral("line 28: a lesson may ask for at most 20 predictions");
        QString questions;
        for (int k = 0; k < 51; ++k)
            questions += QStringLiteral("- Why %1?\n").arg(k);
        QTest::newRow("51 questions")
            << with("- Why?\n- Why not?\n", questions.toUtf8().constData())
            << QStringLiteral("line 63: a lesson may ask at most 50 questions");
        QTest::newRow("a 20,000-character word")
            << with("Intro two.", QByteArray(20000, 'w').constData())
            << QStringLiteral("line 4: the line has 20000 characters; a lesson's lines may have "
                              "at most 2000");
        QTest::newRow("image in a prediction")
            << with("How much faster?", "![x](/dev/zero)")
            << QStringLiteral("line 9: a prediction's question has no images");
        QTest::newRow("over a megabyte")
            << good + QString(1 << 20, QLatin1Char('\n'))
            << QStringLiteral("line 1: the lesson is 1048743 bytes; a lesson.md may have at most "
                              "1048576 bytes");
    }

    void malformed()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const cuwb::LessonParse parse = cuwb::parseLesson(text.toStdString());
        QVERIFY(!parse.ok());
        QVERIFY2(QString::fromStdString(parse.error).startsWith(error) ||
                     QString::fromStdString(parse.error).contains(error),
                 parse.error.c_str());
    }

    void parsesInspect()
    {
        const std::string text = std::string(kGood) +
                                 "## Inspect\n"
                                 "Open both *variants*.\n"
                                 "compare a.cuwb b.cuwb\n"
                                 "- [conflict-line] Which line has the conflict? = 37 | line 37\n"
                                 "- [ways] How many ways = a = 32\n";
        const cuwb::LessonParse parse = cuwb::parseLesson(text);
        QVERIFY2(parse.ok(), parse.error.c_str());
        const cuwb::Lesson &lesson = *parse.lesson;
        QVERIFY(lesson.comparison);
        QCOMPARE(lesson.comparison->a, std::string("a.cuwb"));
        QCOMPARE(lesson.comparison->b, std::string("b.cuwb"));
        QCOMPARE(lesson.inspectText, std::string("Open both *variants*."));
        QCOMPARE(lesson.inspectQuestions.size(), std::size_t(2));
        const cuwb::InspectQuestion &line = lesson.inspectQuestions[0];
        QCOMPARE(line.id, std::string("conflict-line"));
        QCOMPARE(line.question, std::string("Which line has the conflict?"));
        QCOMPARE(line.answers, (std::vector<std::string>{"37", "line 37"}));
        // The last " = " separates the answer, so a question may contain one.
        QCOMPARE(lesson.inspectQuestions[1].question, std::string("How many ways = a"));
        QCOMPARE(lesson.inspectQuestions[1].answers, std::vector<std::string>{"32"});
        // Without the section, none of it.
        const cuwb::LessonParse plain = cuwb::parseLesson(kGood);
        QVERIFY(!plain.lesson->comparison);
        QVERIFY(plain.lesson->inspectQuestions.empty());
    }

    void checksAnswers()
    {
        const cuwb::InspectQuestion question{"line", "Which line?", {"37", "line 37"}};
        QVERIFY(cuwb::checkAnswer(question, "37"));
        QVERIFY(cuwb::checkAnswer(question, " Line 37. "));
        QVERIFY(cuwb::checkAnswer(question, "line37"));
        QVERIFY(!cuwb::checkAnswer(question, "36"));
        QVERIFY(!cuwb::checkAnswer(question, "137"));
        QVERIFY(!cuwb::checkAnswer(question, ""));
        QVERIFY(!cuwb::checkAnswer(question, "   "));
    }

    // The lessons that use Compare and Inspect: the compare line names two projects beside the
    // lesson, and the question's answer is what Inspect shows on the H200 (docs/results).
    void samplesWithInspect_data()
    {
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("wrong");
        QTest::newRow("transpose")
            << QStringLiteral("transpose") << QStringLiteral("32") << QStringLiteral("4");
        QTest::newRow("matmul") << QStringLiteral("matmul") << QStringLiteral("27")
                                << QStringLiteral("47");
        QTest::newRow("reduction")
            << QStringLiteral("reduction") << QStringLiteral("A") << QStringLiteral("B");
    }

    void samplesWithInspect()
    {
        QFETCH(QString, lesson);
        QFETCH(QString, right);
        QFETCH(QString, wrong);
        const QDir dir(QStringLiteral(CUWB_SAMPLES_DIR "/") + lesson);
        QFile file(dir.filePath(QStringLiteral("lesson.md")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const cuwb::LessonParse parse = cuwb::parseLesson(file.readAll().toStdString());
        QVERIFY2(parse.ok(), parse.error.c_str());
        QVERIFY(parse.lesson->comparison);
        QVERIFY(QFile::exists(dir.filePath(QString::fromStdString(parse.lesson->comparison->a))));
        QVERIFY(QFile::exists(dir.filePath(QString::fromStdString(parse.lesson->comparison->b))));
        QCOMPARE(parse.lesson->inspectQuestions.size(), std::size_t(1));
        const cuwb::InspectQuestion &question = parse.lesson->inspectQuestions.front();
        QVERIFY(cuwb::checkAnswer(question, right.toStdString()));
        QVERIFY(!cuwb::checkAnswer(question, wrong.toStdString()));
    }

    void samples_data()
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

    void samples()
    {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const cuwb::LessonParse parse = cuwb::parseLesson(file.readAll().toStdString());
        QVERIFY2(parse.ok(), parse.error.c_str());
        QVERIFY(!parse.lesson->title.empty());
        QVERIFY(!parse.lesson->intro.empty());
        QVERIFY(!parse.lesson->predictions.empty());
        QVERIFY(!parse.lesson->questions.empty());
    }

    void lessonBesideProject()
    {
        const QString samples = QStringLiteral(CUWB_SAMPLES_DIR);
        const auto found = cuwb::lessonPathFor(
            (samples + QStringLiteral("/vector_add/vector_add.cuwb")).toStdString());
        QVERIFY(found);
        QVERIFY(QString::fromStdString(*found).endsWith(QStringLiteral("vector_add/lesson.md")));
        QTemporaryDir dir;
        QVERIFY(!cuwb::lessonPathFor((dir.path() + QStringLiteral("/p.cuwb")).toStdString()));
        QVERIFY(!cuwb::lessonPathFor(std::string()));
    }
};

CUWB_TEST_GUILESS_MAIN(TestLesson)
} // namespace tst_lesson
} // namespace

#include "tst_lesson.moc"
