#include "compiler/kernelcompiler.h"
#include "gui/common/expressionfield.h"
#include "gui/launch/argumentsmodel.h"
#include "gui/launch/globalsmodel.h"
#include "gui/launch/launchpanel.h"
#include "gui/launch/sequencewidget.h"
#include "gui/launch/stepargumentsmodel.h"
#include "gui/launch/variablesmodel.h"
#include "gui/launch/verificationwidget.h"
#include "gui/workspace/workspace.h"
#include "launch/launchenvironment.h"
#include "launch/launchmerge.h"
#include "project/project.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_launchpanel {

namespace {

QString vectorAddSource()
{
    QFile file(QStringLiteral(CUWB_SAMPLES_DIR "/vector_add/vector_add.cu"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

QStringList issueTexts(const LaunchPanel &panel)
{
    QStringList texts;
    for (int i = 0; i < panel.issuesList()->count(); ++i)
        texts << panel.issuesList()->item(i)->text();
    return texts;
}

void typeInto(ExpressionField *field, const QString &text)
{
    field->lineEdit()->selectAll();
    QTest::keyClicks(field->lineEdit(), text);
}

} // namespace

class TestLaunchPanel : public QObject
{
    Q_OBJECT

private:
    CompileResult m_result;
    QString m_source;

private Q_SLOTS:
    void initTestCase()
    {
        m_source = vectorAddSource();
        QVERIFY(!m_source.isEmpty());
        KernelCompiler compiler;
        CompileOptions options;
        options.arch = "sm_90";
        m_result = compiler.compile(m_source.toStdString(), "vector_add.cu", options);
        QVERIFY2(m_result.success, m_result.log.c_str());
    }

    void signatureBecomesRows()
    {
        Workspace workspace;
        LaunchPanel panel(&workspace);
        QAbstractItemModelTester argumentsTester(
            panel.argumentsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester variablesTester(
            panel.variablesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setRunAvailability(true, {});
        workspace.setModule(m_result, m_source.toStdString(), "vector_add.cu");
        QCOMPARE(panel.currentKernel(), QStringLiteral("vector_add"));
        QVERIFY(panel.signatureText().startsWith(QStringLiteral("vector_add(")));

        ArgumentsModel *arguments = panel.argumentsModel();
        QCOMPARE(arguments->rowCount(), 4);
        const QStringList names{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"),
                                QStringLiteral("n")};
        for (int row = 0; row < 4; ++row)
            QCOMPARE(arguments->index(row, ArgumentsModel::ParameterColumn).data().toString(),
                     names[row]);
        QVERIFY(arguments->index(0, 0).data(ArgumentsModel::IsBufferRole).toBool());
        QVERIFY(!arguments->index(3, 0).data(ArgumentsModel::IsBufferRole).toBool());
        // Roles from const: a, b in; c out.
        QCOMPARE(arguments->index(0, ArgumentsModel::RoleColumn)
                     .data(ArgumentsModel::ChoiceRole)
                     .toInt(),
                 int(BufferRole::In));
        QCOMPARE(arguments->index(2, ArgumentsModel::RoleColumn)
                     .data(ArgumentsModel::ChoiceRole)
                     .toInt(),
                 int(BufferRole::Out));
        QCOMPARE(workspace.launch().spec().arguments.size(), std::size_t(4));

        // A valid default launch can run.
        QVERIFY2(panel.issues().empty(), qPrintable(issueTexts(panel).join(QLatin1Char('\n'))));
        QVERIFY(panel.runAction()->isEnabled());
        QCOMPARE(panel.gridField(0)->resultText(), QStringLiteral("= 4096")); // 2^20 / 256

        // CUWB_LAUNCH_SCREENSHOT_DIR=DIR keeps the panel as drawn, to look at.
        if (const QString keep = qEnvironmentVariable("CUWB_LAUNCH_SCREENSHOT_DIR");
            !keep.isEmpty()) {
            panel.resize(520, 900);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QVERIFY(panel.grab().save(keep + QStringLiteral("/launch-panel.png")));
        }
    }

    void expressionsShowValueOrError()
    {
        Workspace workspace;
        LaunchPanel panel(&workspace);
        workspace.setModule(m_result, m_source.toStdString(), "vector_add.cu");
        VariablesModel *variables = panel.variablesModel();
        QVERIFY(variables->setData(variables->index(0, VariablesModel::ExpressionColumn),
                                   QStringLiteral("1 << 10")));
        QCOMPARE(variables->index(0, VariablesModel::ValueColumn).data().toString(),
                 QStringLiteral("1024"));
        QCOMPARE(workspace.launch().spec().variables.front().second, std::string("1 << 10"));
        QCOMPARE(panel.gridField(0)->resultText(), QStringLiteral("= 4"));

        // An unknown variable: the error and its position, in the table and in the field.
        QVERIFY(variables->setData(variables->index(0, VariablesModel::ExpressionColumn),
                                   QStringLiteral("1024 + M")));
        const QString error = variables->index(0, VariablesModel::ValueColumn).data().toString();
        QVERIFY2(error.contains(QStringLiteral("unknown variable 'M'")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("at 7")), qPrintable(error));
        QVERIFY(!panel.runAction()->isEnabled());

        QVERIFY(variables->setData(variables->index(0, VariablesModel::ExpressionColumn),
                                   QStringLiteral("4096")));
        typeInto(panel.gridField(1), QStringLiteral("2 * K"));
        QVERIFY(panel.gridField(1)->hasError());
        QVERIFY2(
            panel.gridField(1)->resultText().contains(QStringLiteral("unknown variable 'K' at 4")),
            qPrintable(panel.gridField(1)->resultText()));
        QVERIFY(panel.gridField(1)->lineEdit()->toolTip().contains(QStringLiteral("'K'")));
        QCOMPARE(workspace.launch().spec().grid[1], std::string("2 * K"));

        // An argument's count expression.
        ArgumentsModel *arguments = panel.argumentsModel();
        QVERIFY(arguments->setData(arguments->index(0, ArgumentsModel::ExpressionColumn),
                                   QStringLiteral("N / 2")));
        QVERIFY(arguments->index(0, ArgumentsModel::ValueColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("2048")));
        QCOMPARE(workspace.launch().spec().arguments.front().count, std::string("N / 2"));
    }

    void tooLargeABlockIsAnIssue()
    {
        Workspace workspace;
        LaunchPanel panel(&workspace);
        panel.setRunAvailability(true, {});
        workspace.setModule(m_result, m_source.toStdString(), "vector_add.cu");
        typeInto(panel.blockField(0), QStringLiteral("2048"));
        QCOMPARE(panel.blockField(0)->resultText(), QStringLiteral("= 2048"));
        QVERIFY(!panel.issues().empty());
        const QString all = issueTexts(panel).join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("2048")) && all.contains(QStringLiteral("1024")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("block")), qPrintable(all));
        QVERIFY(!panel.runAction()->isEnabled());
        QVERIFY(panel.runAction()->toolTip().contains(QStringLiteral("2048")));

        typeInto(panel.blockField(0), QStringLiteral("512"));
        QVERIFY(panel.issues().empty());
        QVERIFY(panel.runAction()->isEnabled());
    }

    void runNeedsAGpu()
    {
        Workspace workspace;
        LaunchPanel panel(&workspace);
        const QString reason =
            QStringLiteral("Run needs a CUDA GPU: No CUDA driver (libcuda.so.1 not found)");
        panel.setRunAvailability(false, reason);
        workspace.setModule(m_result, m_source.toStdString(), "vector_add.cu");
        QVERIFY(panel.issues().empty());
        QVERIFY(!panel.runAction()->isEnabled());
        QCOMPARE(panel.runAction()->toolTip(), reason);
        QCOMPARE(panel.runBlockedReason(), reason);
    }

    void cppKernelKeepsTheNameTheProjectGave()
    {
        // An overloaded C++ kernel named by its signature, with a define that follows the block
        // and the tuner defines: the panel finds the kernel in the compiled variant, keeps the
        // user's spelling in the launch it runs, and shows the define's value.
        const std::string source =
            "namespace demo {\n"
            "__global__ void scale(float *x, int n) { if (threadIdx.x < n) x[0] *= F; }\n"
            "__global__ void scale(double *x, int n) { if (threadIdx.x < block_size_x) x[0] *= F; "
            "}\n"
            "}\n";
        LaunchSpec spec;
        spec.kernel = "scale(double*, int)";
        spec.variables = {{"N", "1 << 20"}};
        spec.defines = {{"F", "block.x / 64"}};
        spec.tunerDefines = true;
        ArgumentSpec x;
        x.parameter = "x";
        x.elementType = parseElementType("double").value();
        x.count = "N";
        x.role = BufferRole::InOut;
        ArgumentSpec n;
        n.parameter = "n";
        n.isBuffer = false;
        n.elementType = parseElementType("int").value();
        n.value = "N";
        spec.arguments = {x, n};
        spec.grid = {"N / block.x", "1", "1"};
        spec.block = {"256", "1", "1"};

        Workspace workspace;

        LaunchPanel panel(&workspace);
        QAbstractItemModelTester definesTester(
            panel.definesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        workspace.setLaunch(spec, VerificationSpec{});
        // What the editor compiles with: the launch's defines bound (F=4, block_size_x=256).
        CompileOptions options;
        LaunchSpec bound = workspace.launch().launchForCompile();
        QVERIFY(bindLaunchDefines(bound, options, {bound.kernel}).empty());
        QVERIFY(std::find(options.defines.begin(), options.defines.end(), "F=4") !=
                options.defines.end());
        KernelCompiler compiler;
        const CompileResult result = compiler.compile(source, "scale.cu", options);
        QVERIFY2(result.success, result.log.c_str());
        workspace.setModule(result, source, "scale.cu");

        QCOMPARE(panel.currentKernel(), QStringLiteral("_ZN4demo5scaleEPdi"));
        QCOMPARE(workspace.launch().spec().kernel, std::string("scale(double*, int)"));
        QCOMPARE(workspace.runRequest().launch.kernel, std::string("scale(double*, int)"));
        QCOMPARE(workspace.launch().spec().defines, spec.defines);
        QVERIFY(workspace.launch().spec().tunerDefines);
        QCOMPARE(panel.definesModel()->rowCount(), 1);
        QCOMPARE(panel.definesModel()->index(0, VariablesModel::ValueColumn).data().toString(),
                 QStringLiteral("4"));
        QVERIFY2(panel.issues().empty(), qPrintable(issueTexts(panel).join(QLatin1Char('\n'))));
    }

    void keepsValuesWhenTheSameParametersRemain()
    {
        Workspace workspace;
        LaunchPanel panel(&workspace);
        workspace.setModule(m_result, m_source.toStdString(), "vector_add.cu");
        ArgumentsModel *arguments = panel.argumentsModel();
        QVERIFY(arguments->setData(arguments->index(3, ArgumentsModel::ExpressionColumn),
                                   QStringLiteral("N - 1")));
        // The same kernel compiled again (e.g. after an edit elsewhere): values stay.
        workspace.setModule(m_result, m_source.toStdString(), "vector_add.cu");
        QCOMPARE(workspace.launch().spec().arguments[3].value, std::string("N - 1"));

        // A changed signature keeps what still matches and defaults the rest.
        LaunchSpec previous = workspace.launch().spec();
        KernelSignature changed = workspace.launch().signature();
        changed.parameters[2].name = "out";
        const LaunchSpec merged = mergeLaunch(previous, changed);
        QCOMPARE(merged.arguments.size(), std::size_t(4));
        QCOMPARE(merged.arguments[3].value, std::string("N - 1"));
        QCOMPARE(merged.arguments[2].parameter, std::string("out"));
    }
    void addingStopsAtTheProjectLimit()
    {
        // One more entry than a project may hold would save, and then be refused on load:
        // each add button of the dock stops at the limit and says why.
        Workspace workspace;
        LaunchPanel panel(&workspace);
        const std::size_t limit = kMaxProjectListEntries;
        VariablesModel::Definitions definitions;
        for (std::size_t i = 0; i + 1 < limit; ++i)
            definitions.emplace_back("V" + std::to_string(i), "1");
        std::vector<GlobalSpec> globals(limit - 1);
        for (std::size_t i = 0; i < globals.size(); ++i)
            globals[i].name = "g" + std::to_string(i);
        struct List
        {
            const char *button;
            QAbstractItemModel *model;
            QString entries;
        };
        panel.variablesModel()->setDefinitions(definitions);
        panel.definesModel()->setDefinitions(definitions);
        panel.globalsModel()->setGlobals(globals);
        const List lists[] = {
            {"addVariableButton", panel.variablesModel(), QStringLiteral("launch variables")},
            {"addDefineButton", panel.definesModel(), QStringLiteral("launch defines")},
            {"addGlobalButton", panel.globalsModel(), QStringLiteral("globals")},
        };
        for (const List &list : lists) {
            auto *add = panel.findChild<QToolButton *>(QLatin1String(list.button));
            QVERIFY2(add, list.button);
            const QString tip = add->toolTip();
            QVERIFY(add->isEnabled());
            QCOMPARE(list.model->rowCount(), int(limit) - 1);
            // The last one that fits.
            QTest::mouseClick(add, Qt::LeftButton);
            QCOMPARE(list.model->rowCount(), int(limit));
            QVERIFY2(!add->isEnabled(), list.button);
            QCOMPARE(add->toolTip(),
                     QStringLiteral("A project holds at most 1,000 %1; remove one to add another.")
                         .arg(list.entries));
            // One past it is refused.
            add->click();
            QCOMPARE(list.model->rowCount(), int(limit));
        }
        // Removing one makes room again.
        panel.variablesModel()->removeVariable(0);
        panel.definesModel()->removeVariable(0);
        panel.globalsModel()->removeGlobal(0);
        for (const List &list : lists) {
            auto *add = panel.findChild<QToolButton *>(QLatin1String(list.button));
            QCOMPARE(list.model->rowCount(), int(limit) - 1);
            QVERIFY2(add->isEnabled(), list.button);
            QVERIFY2(!add->toolTip().contains(QStringLiteral("at most")), list.button);
        }
    }

    void sequenceOfKernels()
    {
        const QString source = QStringLiteral(
            "extern \"C\" __global__ void add_one(const float *a, float *c, int n)\n"
            "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + 1; }\n"
            "extern \"C\" __global__ void twice(const float *c, float *d, int n)\n"
            "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = 2 * c[i]; }\n");
        KernelCompiler compiler;
        CompileOptions options;
        options.arch = "sm_90";
        const CompileResult result = compiler.compile(source.toStdString(), "seq.cu", options);
        QVERIFY2(result.success, result.log.c_str());
        Workspace workspace;
        LaunchPanel panel(&workspace);
        panel.setRunAvailability(true, {});
        workspace.setModule(result, source.toStdString(), "seq.cu");
        QCOMPARE(panel.currentKernel(), QStringLiteral("add_one"));
        SequenceWidget *sequence = panel.sequenceWidget();
        QAbstractItemModelTester tester(sequence->argumentsModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(sequence->list()->count(), 1); // the launch's own kernel
        QCOMPARE(sequence->kernelChoice()->count(), 2);
        QSignalSpy edited(&workspace, &Workspace::edited);

        // Add `twice`: its `c` is bound to the first kernel's `c`, its `d` is a new output.
        sequence->kernelChoice()->setCurrentText(QStringLiteral("twice"));
        QTest::mouseClick(sequence->addButton(), Qt::LeftButton);
        QCOMPARE(edited.count(), 1);
        LaunchSpec spec = workspace.launch().spec();
        QCOMPARE(spec.then.size(), std::size_t(1));
        QCOMPARE(spec.then[0].kernel, std::string("twice"));
        QCOMPARE(spec.then[0].arguments[0].buffer, std::string("c"));
        QVERIFY(spec.then[0].arguments[1].buffer.empty());
        QCOMPARE(spec.then[0].arguments[1].role, BufferRole::Out);
        QCOMPARE(sequence->list()->count(), 2);
        QCOMPARE(sequence->currentStep(), 0);
        QVERIFY2(panel.issues().empty(), qPrintable(issueTexts(panel).join(QLatin1Char('\n'))));
        // Its arguments: bound `c`, a new `d`, the value of `n`.
        StepArgumentsModel *arguments = sequence->argumentsModel();
        QCOMPARE(arguments->rowCount(), 3);
        QCOMPARE(arguments->index(0, StepArgumentsModel::BindingColumn).data().toString(),
                 QStringLiteral("c"));
        QCOMPARE(arguments->index(1, StepArgumentsModel::BindingColumn).data().toString(),
                 StepArgumentsModel::newBufferChoice());

        // Its grid: an expression the panel evaluates with the step's own block.
        typeInto(sequence->gridField(0), QStringLiteral("ceil(N / block.x) + 1"));
        QCOMPARE(workspace.launch().spec().then[0].grid[0], std::string("ceil(N / block.x) + 1"));
        QVERIFY(!sequence->gridField(0)->hasError());
        // A binding to a buffer that does not exist is an issue of the step.
        arguments->setData(arguments->index(0, StepArgumentsModel::BindingColumn), 2,
                           StepArgumentsModel::ChoiceRole); // "new buffer" named c: a clash
        QVERIFY2(
            issueTexts(panel)
                .join(QLatin1Char('\n'))
                .contains(QStringLiteral("then[0] (twice): argument c: declares a buffer `c`")),
            qPrintable(issueTexts(panel).join(QLatin1Char('\n'))));
        arguments->setData(arguments->index(0, StepArgumentsModel::BindingColumn), 1,
                           StepArgumentsModel::ChoiceRole); // back to `c`
        QVERIFY(panel.issues().empty());

        // A second further kernel, moved before the first one, then removed.
        sequence->kernelChoice()->setCurrentText(QStringLiteral("add_one"));
        QTest::mouseClick(sequence->addButton(), Qt::LeftButton);
        QCOMPARE(workspace.launch().spec().then.size(), std::size_t(2));
        QCOMPARE(sequence->currentStep(), 1);
        sequence->moveStep(-1);
        QCOMPARE(workspace.launch().spec().then[0].kernel, std::string("add_one"));
        QCOMPARE(workspace.launch().spec().then[1].kernel, std::string("twice"));
        QCOMPARE(sequence->currentStep(), 0);
        sequence->removeStep();
        QCOMPARE(workspace.launch().spec().then.size(), std::size_t(1));
        QCOMPARE(workspace.launch().spec().then[0].kernel, std::string("twice"));
        // The request carries the sequence.
        QCOMPARE(workspace.runRequest().launch.then.size(), std::size_t(1));
        // A project's sequence is shown as it was saved; `d`, which the further kernel
        // declares, is an output a check may verify.
        LaunchSpec saved = workspace.launch().spec();
        VerificationSpec ofD;
        ofD.kind = ReferenceKind::Expression;
        ofD.output = "d";
        ofD.expression = "2 * (a[i] + 1)";
        workspace.setLaunch(saved, Verification(ofD));
        QCOMPARE(sequence->list()->count(), 2);
        QCOMPARE(workspace.launch().spec().then, saved.then);
        QVERIFY2(panel.issues().empty(), qPrintable(issueTexts(panel).join(QLatin1Char('\n'))));
    }

    void deviceNamesAndWhereTheyComeFrom()
    {
        Workspace workspace;
        LaunchPanel panel(&workspace);
        panel.setRunAvailability(true, {});
        workspace.setModule(m_result, m_source.toStdString(), "vector_add.cu");
        typeInto(panel.gridField(0), QStringLiteral("device.smCount * 4"));
        QVERIFY(!panel.gridField(0)->hasError());
        QCOMPARE(panel.gridField(0)->resultText(), QStringLiteral("= 528"));
        QVERIFY2(panel.deviceNamesLabel()->text().contains(
                     QStringLiteral("catalogue entry for sm_90; no GPU")),
                 qPrintable(panel.deviceNamesLabel()->text()));
        QVERIFY(panel.deviceNamesLabel()->toolTip().contains(
            QStringLiteral("device.smCount = 132 (multiprocessors (SMs))")));
        DeviceInfo device;
        device.name = "Small GPU";
        device.major = 9;
        device.minor = 0;
        device.smCount = 66;
        workspace.setDevice(device);
        QCOMPARE(panel.gridField(0)->resultText(), QStringLiteral("= 264"));
        QVERIFY(
            panel.deviceNamesLabel()->text().contains(QStringLiteral("Small GPU (the device)")));
    }

    // A template kernel is offered by the names of its template parameters (a template of an
    // unsigned is not offered as <float>); choosing it asks for the arguments, and the next
    // compile, with the launch's name added as an instantiation, has it chosen.
    void templatesAreOfferedAndInstantiated()
    {
        const QString source =
            QStringLiteral("template <unsigned BLOCK, typename T>\n"
                           "__global__ void fill(T *out, T value, int n)\n"
                           "{\n"
                           "    const int i = blockIdx.x * BLOCK + threadIdx.x;\n"
                           "    if (i < n) out[i] = value;\n"
                           "}\n");
        KernelCompiler compiler;
        CompileOptions options;
        const CompileResult bare = compiler.compile(source.toStdString(), "fill.cu", options);
        QVERIFY2(bare.success, bare.log.c_str());
        QVERIFY(bare.kernels.empty());
        QCOMPARE(bare.templates.size(), std::size_t(1));

        Workspace workspace;

        LaunchPanel panel(&workspace);
        QString asked;
        panel.setTemplateArgumentsPrompt([&asked](const QString &placeholder, const QString &) {
            asked = placeholder;
            return QStringLiteral("fill<128, float>");
        });
        bool edited = false;
        connect(&workspace, &Workspace::edited, this, [&edited] { edited = true; });
        workspace.setModule(bare, source.toStdString(), "fill.cu");
        auto *combo = panel.findChild<QComboBox *>();
        QVERIFY(combo);
        QVERIFY(combo->isEnabled());
        const int entry = combo->findData(QStringLiteral("template:fill<BLOCK, T>"));
        QVERIFY2(entry >= 0, qPrintable(combo->itemText(0)));
        QVERIFY(combo->itemData(entry, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("template <unsigned BLOCK, typename T>")));
        combo->setCurrentIndex(entry);
        QCOMPARE(asked, QStringLiteral("fill<BLOCK, T>"));
        QVERIFY(edited);
        // What the window compiles next: the launch names the instantiation.
        LaunchSpec launch = workspace.launch().launchForCompile();
        QCOMPARE(launch.kernel, std::string("fill<128, float>"));
        CompileOptions withInstance = options;
        QVERIFY(bindLaunchDefines(launch, withInstance, {launch.kernel}).empty());
        const CompileResult compiled =
            compiler.compile(source.toStdString(), "fill.cu", withInstance);
        QVERIFY2(compiled.success, compiled.log.c_str());
        workspace.setModule(compiled, source.toStdString(), "fill.cu");
        QCOMPARE(panel.currentKernel(), QStringLiteral("_Z4fillILj128EfEvPT0_S0_i"));
        QVERIFY2(panel.signatureText().startsWith(QStringLiteral("fill<128u, float>(float *out")),
                 qPrintable(panel.signatureText()));
        // The template stays on offer for another instantiation.
        QVERIFY(combo->findData(QStringLiteral("template:fill<BLOCK, T>")) > 0);
    }
};

CUWB_TEST_MAIN(TestLaunchPanel)
} // namespace tst_launchpanel
} // namespace

#include "tst_launchpanel.moc"
