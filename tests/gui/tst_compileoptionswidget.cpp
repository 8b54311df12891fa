// The Compile Options dock: it shows the Workspace's CompileOptions, and what the user types
// becomes the Workspace's CompileOptions, the compiler's.

#include "gui/compile/compileoptionswidget.h"
#include "gui/workspace/workspace.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_compileoptionswidget {

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

    void showsTheWorkspacesOptionsWithoutAnEdit()
    {
        Workspace workspace;
        CompileOptionsWidget widget(&workspace);
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
        QSignalSpy changed(&workspace, &Workspace::compileOptionsChanged);
        QSignalSpy edited(&workspace, &Workspace::edited);
        workspace.setCompileOptions(options, Workspace::Edit::Automatic);
        QCOMPARE(changed.count(), 1);
        QVERIFY(workspace.compileOptions() == options);
        workspace.setCompileOptions(options, Workspace::Edit::User);
        QCOMPARE(changed.count(), 1); // no change, no recompile
        QCOMPARE(edited.count(), 0);  // and neither is an edit
        // The fields show it: the flags as typed, the architecture chosen.
        QLineEdit *flags = nullptr;
        for (QLineEdit *edit : widget.findChildren<QLineEdit *>()) {
            if (edit->placeholderText().startsWith(QStringLiteral("-ftz")))
                flags = edit;
        }
        QVERIFY(flags);
        QCOMPARE(flags->text(), QStringLiteral("-ftz=true -Xptxas=-dlcm=cg"));
        bool archShown = false;
        for (QComboBox *combo : widget.findChildren<QComboBox *>())
            archShown = archShown || combo->currentText() == QStringLiteral("sm_80");
        QVERIFY(archShown);
    }

    void anArchitectureNvrtcDoesNotListFallsBackToTheDefault()
    {
        Workspace workspace;
        CompileOptions options;
        options.arch = "sm_12";
        options.optLevel = 9;
        options.compiler = "gcc";
        workspace.setCompileOptions(options);
        QCOMPARE(workspace.compileOptions().arch, std::string(Workspace::kDefaultArchitecture));
        QCOMPARE(workspace.compileOptions().optLevel, 3);
        QCOMPARE(workspace.compileOptions().compiler, std::string("auto"));
    }

    void theGpusArchitectureIsTheTargetUntilTheUserChoosesOne()
    {
        Workspace workspace;
        QSignalSpy edited(&workspace, &Workspace::edited);
        workspace.setDeviceArchitecture("sm_80");
        QCOMPARE(workspace.compileOptions().arch, std::string("sm_80"));
        QCOMPARE(edited.count(), 0);
        workspace.setArchitectureChosen();
        CompileOptions options = workspace.compileOptions();
        options.arch = "sm_90";
        workspace.setCompileOptions(options);
        workspace.setDeviceArchitecture("sm_80");
        QCOMPARE(workspace.compileOptions().arch, std::string("sm_90"));
    }

    void typingATemplateInstantiationRecompiles()
    {
        Workspace workspace;
        CompileOptionsWidget widget(&workspace);
        QLineEdit *templates = nullptr;
        for (QLineEdit *edit : widget.findChildren<QLineEdit *>()) {
            if (edit->placeholderText().contains(QLatin1Char('<')))
                templates = edit;
        }
        QVERIFY(templates);
        QSignalSpy changed(&workspace, &Workspace::compileOptionsChanged);
        QSignalSpy edited(&workspace, &Workspace::edited);
        templates->setFocus();
        QTest::keyClicks(templates, QStringLiteral("scale<double>"));
        QTest::keyClick(templates, Qt::Key_Return);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(edited.count(), 1);
        QCOMPARE(workspace.compileOptions().nameExpressions,
                 std::vector<std::string>{"scale<double>"});
    }

    void choosingTheCompilerAndTypingFlagsRecompiles()
    {
        Workspace workspace;
        CompileOptionsWidget widget(&workspace);
        QCOMPARE(workspace.compileOptions().compiler, std::string("auto"));
        QLineEdit *flags = nullptr;
        for (QLineEdit *edit : widget.findChildren<QLineEdit *>()) {
            if (edit->placeholderText().startsWith(QStringLiteral("-ftz")))
                flags = edit;
        }
        QVERIFY(flags);
        QSignalSpy changed(&workspace, &Workspace::compileOptionsChanged);
        flags->setFocus();
        QTest::keyClicks(flags, QStringLiteral("-ftz=true   --restrict"));
        QTest::keyClick(flags, Qt::Key_Return);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(workspace.compileOptions().flags,
                 (std::vector<std::string>{"-ftz=true", "--restrict"}));
        QComboBox *compiler = nullptr;
        for (QComboBox *combo : widget.findChildren<QComboBox *>()) {
            if (combo->findData(QStringLiteral("nvrtc")) >= 0)
                compiler = combo;
        }
        QVERIFY(compiler);
        compiler->setCurrentIndex(compiler->findData(QStringLiteral("nvcc")));
        QCOMPARE(changed.count(), 2);
        QCOMPARE(workspace.compileOptions().compiler, std::string("nvcc"));
    }
};

CUWB_TEST_MAIN(TestCompileOptionsWidget)
} // namespace tst_compileoptionswidget
} // namespace

#include "tst_compileoptionswidget.moc"
