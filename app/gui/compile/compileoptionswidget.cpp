#include "gui/compile/compileoptionswidget.h"

#include "gui/common/qtconvert.h"
#include "gui/workspace/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cuwb {

namespace {

QStringList standards()
{
    QStringList list = toQStringList(supportedCppStandards());
    if (list.isEmpty())
        list << QStringLiteral("c++17");
    return list;
}

} // namespace

CompileOptionsWidget::CompileOptionsWidget(Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_compiler(new QComboBox(this))
    , m_arch(new QComboBox(this))
    , m_optLevel(new QComboBox(this))
    , m_standard(new QComboBox(this))
    , m_maxRegisters(new QSpinBox(this))
    , m_deviceDebug(new QCheckBox(tr("Device debug (-G)"), this))
    , m_lineInfo(new QCheckBox(tr("Line info (-lineinfo)"), this))
    , m_fastMath(new QCheckBox(tr("Fast math (--use_fast_math)"), this))
    , m_defines(new QLineEdit(this))
    , m_nameExpressions(new QLineEdit(this))
    , m_flags(new QLineEdit(this))
    , m_includeDirs(new QListWidget(this))
    , m_removeInclude(new QPushButton(tr("Remove"), this))
{
    m_compiler->addItem(tr("Auto (nvcc if the toolkit has it)"), QStringLiteral("auto"));
    m_compiler->addItem(tr("nvcc"), QStringLiteral("nvcc"));
    m_compiler->addItem(tr("NVRTC"), QStringLiteral("nvrtc"));
    m_compiler->setToolTip(
        tr("nvcc builds what your own build does (the same SASS); NVRTC needs no nvcc but its "
           "code can differ (docs/architecture.md). The status bar names the compiler used."));
    m_flags->setPlaceholderText(tr("-ftz=true -Xptxas=-dlcm=cg"));
    m_flags->setToolTip(tr("Further compiler options as you give them to nvcc or NVRTC, "
                           "separated by spaces (those that change code generation only)"));
    m_flags->setClearButtonEnabled(true);
    m_arch->addItems(toQStringList(Workspace::architectures()));
    m_arch->setToolTip(tr("Target architecture (-arch)"));
    for (int level = 0; level <= 3; ++level)
        m_optLevel->addItem(tr("-O%1").arg(level), level);
    m_optLevel->setToolTip(tr("ptxas optimisation level"));
    m_standard->addItems(standards());
    m_maxRegisters->setRange(0, 255);
    m_maxRegisters->setSpecialValueText(tr("No limit"));
    m_maxRegisters->setToolTip(tr("--maxrregcount: registers per thread (0 = no limit)"));
    m_defines->setPlaceholderText(tr("NAME=VALUE; OTHER"));
    m_defines->setToolTip(tr("Preprocessor definitions (-D), separated by spaces or semicolons"));
    m_defines->setClearButtonEnabled(true);
    m_nameExpressions->setPlaceholderText(tr("scale<float>; tile<16, 8>"));
    m_nameExpressions->setToolTip(
        tr("Template kernels to instantiate and list, separated by semicolons (NVRTC name "
           "expressions). They belong to the source being edited, so they are not saved."));
    m_nameExpressions->setClearButtonEnabled(true);
    m_includeDirs->setToolTip(tr("Extra include folders (-I); the CUDA toolkit's are always "
                                 "included"));
    m_includeDirs->setMinimumHeight(60);
    m_includeDirs->setMaximumHeight(110);
    m_removeInclude->setEnabled(false);

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Compiler:"), m_compiler);
    form->addRow(tr("Architecture:"), m_arch);
    form->addRow(tr("Optimisation:"), m_optLevel);
    form->addRow(tr("C++ standard:"), m_standard);
    form->addRow(tr("Max registers:"), m_maxRegisters);
    form->addRow(m_lineInfo);
    form->addRow(m_deviceDebug);
    form->addRow(m_fastMath);
    form->addRow(tr("Defines:"), m_defines);
    form->addRow(tr("Templates:"), m_nameExpressions);
    form->addRow(tr("Flags:"), m_flags);

    auto *addInclude = new QPushButton(tr("Add\u2026"), this);
    auto *includeButtons = new QHBoxLayout;
    includeButtons->addStretch(1);
    includeButtons->addWidget(addInclude);
    includeButtons->addWidget(m_removeInclude);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Include folders:"), this));
    layout->addWidget(m_includeDirs);
    layout->addLayout(includeButtons);
    layout->addStretch(1);

    showOptions();
    connect(m_workspace, &Workspace::compileOptionsChanged, this,
            &CompileOptionsWidget::showOptions);

    auto changed = [this] { edited(); };
    connect(m_arch, &QComboBox::activated, this, [this] { m_workspace->setArchitectureChosen(); });
    connect(m_arch, &QComboBox::currentIndexChanged, this, changed);
    connect(m_compiler, &QComboBox::currentIndexChanged, this, changed);
    connect(m_flags, &QLineEdit::editingFinished, this, [this, changed] {
        if (m_flags->isModified()) {
            m_flags->setModified(false);
            changed();
        }
    });
    connect(m_optLevel, &QComboBox::currentIndexChanged, this, changed);
    connect(m_standard, &QComboBox::currentIndexChanged, this, changed);
    connect(m_maxRegisters, &QSpinBox::valueChanged, this, changed);
    connect(m_deviceDebug, &QCheckBox::toggled, this, changed);
    connect(m_lineInfo, &QCheckBox::toggled, this, changed);
    connect(m_fastMath, &QCheckBox::toggled, this, changed);
    connect(m_defines, &QLineEdit::editingFinished, this, [this, changed] {
        if (m_defines->isModified()) {
            m_defines->setModified(false);
            changed();
        }
    });
    connect(m_nameExpressions, &QLineEdit::editingFinished, this, [this, changed] {
        if (m_nameExpressions->isModified()) {
            m_nameExpressions->setModified(false);
            changed();
        }
    });
    connect(addInclude, &QPushButton::clicked, this, &CompileOptionsWidget::addIncludeFolder);
    connect(m_removeInclude, &QPushButton::clicked, this,
            &CompileOptionsWidget::removeIncludeFolder);
    connect(m_includeDirs, &QListWidget::itemSelectionChanged, this,
            [this] { m_removeInclude->setEnabled(!m_includeDirs->selectedItems().isEmpty()); });
}

QStringList CompileOptionsWidget::splitDefines(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[\\s;]+"));
    QStringList result = text.split(separators, Qt::SkipEmptyParts);
    for (QString &define : result) {
        if (define.startsWith(QStringLiteral("-D")))
            define.remove(0, 2);
    }
    result.removeAll(QString());
    return result;
}

QStringList CompileOptionsWidget::splitNameExpressions(const QString &text)
{
    QStringList result;
    for (const QString &part : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const QString expression = part.trimmed();
        if (!expression.isEmpty())
            result << expression;
    }
    return result;
}

CompileOptions CompileOptionsWidget::shownOptions() const
{
    CompileOptions options;
    options.arch = toStdString(m_arch->currentText());
    options.optLevel = m_optLevel->currentData().toInt();
    options.cppStandard = toStdString(m_standard->currentText());
    options.maxRegisters = m_maxRegisters->value();
    options.deviceDebug = m_deviceDebug->isChecked();
    options.lineInfo = m_lineInfo->isChecked();
    options.fastMath = m_fastMath->isChecked();
    options.defines = toStdStringList(splitDefines(m_defines->text()));
    for (int row = 0; row < m_includeDirs->count(); ++row)
        options.includeDirs.push_back(toStdString(m_includeDirs->item(row)->text()));
    options.nameExpressions = toStdStringList(splitNameExpressions(m_nameExpressions->text()));
    options.compiler = toStdString(m_compiler->currentData().toString());
    options.flags = toStdStringList(
        m_flags->text().split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts));
    return options;
}

void CompileOptionsWidget::showOptions()
{
    const CompileOptions &options = m_workspace->compileOptions();
    m_updating = true;
    m_arch->setCurrentIndex(m_arch->findText(toQString(options.arch)));
    m_optLevel->setCurrentIndex(options.optLevel);
    const int standard = m_standard->findText(toQString(options.cppStandard));
    if (standard >= 0)
        m_standard->setCurrentIndex(standard);
    m_maxRegisters->setValue(options.maxRegisters);
    m_deviceDebug->setChecked(options.deviceDebug);
    m_lineInfo->setChecked(options.lineInfo);
    m_fastMath->setChecked(options.fastMath);
    m_defines->setText(toQStringList(options.defines).join(QStringLiteral("; ")));
    m_nameExpressions->setText(toQStringList(options.nameExpressions).join(QStringLiteral("; ")));
    const int compiler = m_compiler->findData(toQString(options.compiler));
    m_compiler->setCurrentIndex(compiler >= 0 ? compiler : 0);
    m_flags->setText(toQStringList(options.flags).join(QLatin1Char(' ')));
    m_includeDirs->clear();
    m_includeDirs->addItems(toQStringList(options.includeDirs));
    const std::string &deviceArch = m_workspace->deviceArchitecture();
    m_arch->setToolTip(
        deviceArch.empty()
            ? tr("Target architecture (-arch)")
            : tr("Target architecture (-arch); %1 is the GPU's").arg(toQString(deviceArch)));
    m_updating = false;
}

void CompileOptionsWidget::edited()
{
    if (!m_updating)
        m_workspace->setCompileOptions(shownOptions(), Workspace::Edit::User);
}

void CompileOptionsWidget::addIncludeFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Add Include Folder"));
    if (dir.isEmpty())
        return;
    m_includeDirs->addItem(QDir::toNativeSeparators(dir));
    edited();
}

void CompileOptionsWidget::removeIncludeFolder()
{
    const QList<QListWidgetItem *> selected = m_includeDirs->selectedItems();
    if (selected.isEmpty())
        return;
    qDeleteAll(selected);
    edited();
}

} // namespace cuwb
