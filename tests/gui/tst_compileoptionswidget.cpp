// The Compile Options dock: what the user types becomes the CompileOptions the compiler gets.

#include "gui/compile/compileoptionswidget.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

using namespace cuwb;

class TestCompileOptionsWidget : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void splitsDefines()
    {
        QCOMPARE(CompileOptionsWidget::splitDefines(QStringLiteral(" N=4; -DFAST  TILE=16;;")),
                 (QStringList{QStringLiteral("N=4"), QStringLiteral("FAST"),
                              QStringLiteral("TILE=16")}));
        QVERIFY(CompileOptionsWidget::splitDefines(QStringLiteral(" ; ")).isEmpty());
    }

    void splitsNameExpressionsOnSemicolonsOnly()
    {
        QCOMPARE(CompileOptionsWidget::splitNameExpressions(
                     QStringLiteral("scale<float>;  tile<16, 8> ; ;")),
                 (QStringList{QStringLiteral("scale<float>"), QStringLiteral("tile<16, 8>")}));
    }

    void optionsRoundTrip()
    {
        CompileOptionsWidget widget;
        CompileOptions options;
        options.arch = "sm_80";
        options.optLevel = 1;
        options.fastMath = true;
        options.lineInfo = false;
        options.maxRegisters = 64;
        options.defines = {"N=4", "FAST"};
        options.nameExpressions = {"scale<float>", "tile<16, 8>"};
        options.compiler = "nvrtc";
        options.flags = {"-ftz=true", "-Xptxas=-dlcm=cg"};
        QSignalSpy changed(&widget, &CompileOptionsWidget::optionsChanged);
        widget.setOptions(options);
        QCOMPARE(changed.count(), 1);
        QVERIFY(widget.options() == options);
        widget.setOptions(options);
        QCOMPARE(changed.count(), 1); // no change, no recompile
    }

    void typingATemplateInstantiationRecompiles()
    {
        CompileOptionsWidget widget;
        QLineEdit *templates = nullptr;
        for (QLineEdit *edit : widget.findChildren<QLineEdit *>()) {
            if (edit->placeholderText().contains(QLatin1Char('<')))
                templates = edit;
        }
        QVERIFY(templates);
        QSignalSpy changed(&widget, &CompileOptionsWidget::optionsChanged);
        templates->setFocus();
        QTest::keyClicks(templates, QStringLiteral("scale<double>"));
        QTest::keyClick(templates, Qt::Key_Return);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(widget.options().nameExpressions, std::vector<std::string>{"scale<double>"});
    }

    void choosingTheCompilerAndTypingFlagsRecompiles()
    {
        CompileOptionsWidget widget;
        QCOMPARE(widget.options().compiler, std::string("auto"));
        QLineEdit *flags = nullptr;
        for (QLineEdit *edit : widget.findChildren<QLineEdit *>()) {
            if (edit->placeholderText().startsWith(QStringLiteral("-ftz")))
                flags = edit;
        }
        QVERIFY(flags);
        QSignalSpy changed(&widget, &CompileOptionsWidget::optionsChanged);
        flags->setFocus();
        QTest::keyClicks(flags, QStringLiteral("-ftz=true   --restrict"));
        QTest::keyClick(flags, Qt::Key_Return);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(widget.options().flags, (std::vector<std::string>{"-ftz=true", "--restrict"}));
        QComboBox *compiler = nullptr;
        for (QComboBox *combo : widget.findChildren<QComboBox *>()) {
            if (combo->findData(QStringLiteral("nvrtc")) >= 0)
                compiler = combo;
        }
        QVERIFY(compiler);
        compiler->setCurrentIndex(compiler->findData(QStringLiteral("nvcc")));
        QCOMPARE(changed.count(), 2);
        QCOMPARE(widget.options().compiler, std::string("nvcc"));
    }
};

QTEST_MAIN(TestCompileOptionsWidget)
#include "tst_compileoptionswidget.moc"
