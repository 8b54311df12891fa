#include "gui/launch/launchpanel.h"

#include "gui/common/expressionfield.h"
#include "gui/common/qtconvert.h"
#include "gui/launch/argumentsmodel.h"
#include "gui/launch/bufferinitwidget.h"
#include "gui/launch/globalsmodel.h"
#include "gui/launch/sequencewidget.h"
#include "gui/launch/variablesmodel.h"
#include "gui/launch/verificationwidget.h"
#include "gui/measure/measureoptionsdialog.h"
#include "gui/workspace/workspace.h"

#include "compiler/kernellookup.h"
#include "launch/launchenvironment.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QTableView>
#include <QToolButton>

namespace cuwb {

LaunchPanel::~LaunchPanel() = default;

QString LaunchPanel::formatSignature(const KernelSignature &signature, const QString &name)
{
    QStringList parameters;
    for (const KernelParameter &parameter : signature.parameters) {
        QString text = toQString(parameter.typeText);
        if (!text.endsWith(QLatin1Char('*')) && !text.endsWith(QLatin1Char('&')))
            text += QLatin1Char(' ');
        parameters << text + toQString(parameter.name);
    }
    return QStringLiteral("%1(%2)").arg(name, parameters.join(QStringLiteral(", ")));
}

const LaunchSession &LaunchPanel::session() const
{
    return m_workspace->launch();
}

void LaunchPanel::onLaunchChanged(const LaunchSession::Change &change)
{
    if (m_editing)
        return; // the widgets show it already
    showKernels();
    if (session().kernels().empty()) {
        showNoKernels();
        return;
    }
    if (change.specChanged) {
        showSpec();
    } else if (!(m_verificationWidget->verification() == session().verification())) {
        m_updating = true;
        m_verificationWidget->setVerification(session().verification());
        m_updating = false;
    }
    revalidate();
}

void LaunchPanel::showKernels()
{
    const std::vector<KernelTemplate> &templates = m_workspace->kernelTemplates();
    const auto declaration = [this](const KernelTemplate &kernel) {
        QStringList head;
        for (const std::string &parameter : kernel.templateParameters)
            head << toQString(parameter);
        return tr("template <%1> __global__ %2(%3), line %4")
            .arg(head.join(QStringLiteral(", ")), toQString(kernel.name),
                 toQString(kernel.parameters))
            .arg(kernel.line);
    };
    // The list is rebuilt only when its entries change (a compile usually keeps them): each
    // kernel by its lowered name, each template by its placeholder and declaration.
    QStringList entries;
    for (const KernelInfo &kernel : session().kernels())
        entries << toQString(kernel.loweredName);
    for (const KernelTemplate &kernel : templates)
        entries << QStringLiteral("template:") + toQString(kernel.placeholder()) +
                       QLatin1Char('\n') + declaration(kernel);
    QStringList shown;
    for (int index = 0; index < m_kernelCombo->count(); ++index) {
        const QString data = m_kernelCombo->itemData(index).toString();
        if (data.startsWith(QStringLiteral("template:")))
            shown << data + QLatin1Char('\n') +
                         m_kernelCombo->itemData(index, Qt::ToolTipRole).toString();
        else if (!data.isEmpty())
            shown << data;
    }
    const QSignalBlocker blocker(m_kernelCombo);
    if (entries != shown) {
        m_kernelCombo->clear();
        for (const KernelInfo &kernel : session().kernels()) {
            // "fill<128u, float>", not the demangler's "void fill<128u, float>".
            m_kernelCombo->addItem(toQString(displayName(kernel)).section(QLatin1Char('('), 0, 0),
                                   toQString(kernel.loweredName));
        }
        // The templates, each by the name a user completes with arguments.
        if (!templates.empty() && !session().kernels().empty())
            m_kernelCombo->insertSeparator(m_kernelCombo->count());
        for (const KernelTemplate &kernel : templates) {
            const QString placeholder = toQString(kernel.placeholder());
            m_kernelCombo->addItem(tr("%1 \u2026 (template: name its arguments)").arg(placeholder),
                                   QStringLiteral("template:") + placeholder);
            m_kernelCombo->setItemData(m_kernelCombo->count() - 1, declaration(kernel),
                                       Qt::ToolTipRole);
        }
    }
    m_kernelCombo->setCurrentIndex(session().kernels().empty() ? -1 : session().kernelIndex());
    m_kernelCombo->setEnabled(session().kernels().size() + templates.size() > 1 ||
                              (session().kernels().empty() && !templates.empty()));
}

void LaunchPanel::instantiateTemplate(const QString &expression)
{
    const QString name = expression.trimmed();
    if (name.isEmpty())
        return;
    LaunchSpec spec = session().launchForCompile();
    spec.kernel = toStdString(name);
    // The compile adds the instantiation; the list then shows it.
    m_workspace->setLaunch(spec, session().verification(), Workspace::Edit::User);
    m_signatureLabel->setText(tr("%1: compiling this instantiation\u2026").arg(name));
}

void LaunchPanel::showNoKernels()
{
    QString reason;
    if (!m_workspace->kernelTemplates().empty())
        reason = tr("The source's kernels are templates: choose one in the list above to name "
                    "its arguments.");
    else if (session().compiled())
        reason = tr("The source has no __global__ function to launch.");
    else
        reason = tr("Open a source with a __global__ function to set up a launch.");
    m_updating = true;
    m_argumentsModel->setArguments({}, {});
    m_updating = false;
    m_signatureLabel->setText(reason);
    fitRows(m_argumentsView, 1, 1);
    fitRows(m_variablesView, 1, 6);
    updateInitEditor();
    revalidate();
}

bool LaunchPanel::selectKernel(const QString &loweredName)
{
    const int index = m_kernelCombo->findData(loweredName);
    if (index < 0)
        return false;
    m_kernelCombo->setCurrentIndex(index);
    return true;
}

QString LaunchPanel::currentKernel() const
{
    return toQString(session().loweredName());
}

void LaunchPanel::onKernelChosen(int index)
{
    const QString data = m_kernelCombo->itemData(index).toString();
    if (data.startsWith(QStringLiteral("template:"))) {
        {
            const QSignalBlocker blocker(m_kernelCombo);
            m_kernelCombo->setCurrentIndex(session().kernels().empty() ? -1
                                                                       : session().kernelIndex());
        }
        const QString placeholder = data.mid(9);
        const QString declaration = m_kernelCombo->itemData(index, Qt::ToolTipRole).toString();
        const QString expression =
            m_askTemplateArguments
                ? m_askTemplateArguments(placeholder, declaration)
                : QInputDialog::getText(
                      this, tr("Instantiate a Template Kernel"),
                      tr("%1\n\nThe kernel with its template arguments (a name a launch define "
                         "gives, as the tuners do, also works):")
                          .arg(declaration),
                      QLineEdit::Normal, placeholder);
        instantiateTemplate(expression);
        return;
    }
    if (index == session().kernelIndex())
        return;
    syncFromWidgets();
    m_workspace->chooseKernel(index);
}

void LaunchPanel::showSpec()
{
    m_updating = true;
    const LaunchSpec &spec = session().spec();
    const KernelSignature &signature = session().signature();
    const QString name = m_kernelCombo->currentText();
    if (!signature.error.empty())
        m_signatureLabel->setText(tr("%1: %2").arg(name, toQString(signature.error)));
    else
        m_signatureLabel->setText(formatSignature(signature, name));

    m_variablesModel->setDefinitions(spec.variables);
    m_definesModel->setDefinitions(spec.defines);
    m_tunerDefines->setChecked(spec.tunerDefines);
    m_globalsModel->setGlobals(spec.globals);
    m_argumentsModel->setArguments(signature.parameters, spec.arguments);
    m_argumentsModel->setVariables(m_variablesModel->values());
    for (int axis = 0; axis < 3; ++axis) {
        m_block[std::size_t(axis)]->setExpression(toQString(spec.block[std::size_t(axis)]));
        m_grid[std::size_t(axis)]->setExpression(toQString(spec.grid[std::size_t(axis)]));
    }
    m_shared->setExpression(toQString(spec.dynamicSharedBytes));
    m_deadline->setValue(spec.deadlineSeconds);

    showVerificationChoices();
    showSequence();

    m_argumentsView->resizeColumnsToContents();
    fitRows(m_argumentsView, 1, 8);
    m_variablesView->resizeColumnsToContents();
    fitRows(m_variablesView, 1, 6);
    m_definesView->resizeColumnsToContents();
    fitRows(m_definesView, 1, 6);
    m_globalsView->resizeColumnsToContents();
    fitRows(m_globalsView, 1, 6);
    m_updating = false;
    updateGlobalInitEditor();
    updateInitEditor();
}

void LaunchPanel::syncFromWidgets()
{
    LaunchSpec spec = session().spec();
    if (spec.kernel.empty())
        return;
    spec.variables = m_variablesModel->definitions();
    spec.defines = m_definesModel->definitions();
    spec.globals = m_globalsModel->globals();
    spec.tunerDefines = m_tunerDefines->isChecked();
    if (!m_argumentsModel->arguments().empty() || session().signature().parameters.empty())
        spec.arguments = m_argumentsModel->arguments();
    for (int axis = 0; axis < 3; ++axis) {
        spec.block[std::size_t(axis)] =
            toStdString(m_block[std::size_t(axis)]->expression().trimmed());
        spec.grid[std::size_t(axis)] =
            toStdString(m_grid[std::size_t(axis)]->expression().trimmed());
    }
    spec.dynamicSharedBytes = toStdString(m_shared->expression().trimmed());
    spec.deadlineSeconds = m_deadline->value();
    spec.then = m_sequenceWidget->steps();
    m_editing = true;
    m_workspace->setLaunchSpec(spec);
    m_editing = false;
}

// What a check may verify: every buffer of the sequence, then the module's globals.
void LaunchPanel::showVerificationChoices()
{
    const LaunchSpec &spec = session().spec();
    QStringList buffers;
    for (const ArgumentSpec &argument : spec.arguments) {
        if (argument.isBuffer)
            buffers << toQString(argument.parameter);
    }
    for (const KernelStep &step : spec.then) {
        for (const ArgumentSpec &argument : step.arguments) {
            if (argument.isBuffer && argument.buffer.empty())
                buffers << toQString(argument.parameter);
        }
    }
    for (const ModuleVariable &variable : moduleVariables(session().ptx(), session().source()))
        buffers << toQString(variable.name);
    QStringList otherKernels;
    for (const std::string &other : session().otherKernelNames())
        otherKernels << toQString(other);
    m_verificationWidget->setChoices(buffers, otherKernels);
    const int chosenCheck = m_verificationWidget->currentCheck();
    m_verificationWidget->setVerification(session().verification());
    m_verificationWidget->chooseCheck(chosenCheck);
}

void LaunchPanel::showSequence()
{
    const LaunchSpec &spec = session().spec();
    QStringList kernels;
    for (const KernelInfo &kernel : session().kernels())
        kernels << toQString(preferredName(session().kernels(), kernel));
    m_sequenceWidget->setKernels(kernels);
    QStringList firstBuffers;
    for (const ArgumentSpec &argument : spec.arguments) {
        if (argument.isBuffer)
            firstBuffers << toQString(argument.parameter);
    }
    m_sequenceWidget->setSequence(toQString(spec.kernel), firstBuffers, spec.then,
                                  session().sequenceKernels().signatures);
}

void LaunchPanel::addStep(int kernelIndex)
{
    if (!session().hasKernel())
        return;
    syncFromWidgets();
    LaunchSpec spec = session().spec();
    spec.then.push_back(session().newStep(kernelIndex));
    m_editing = true;
    m_workspace->setLaunchSpec(spec);
    m_editing = false;
    showSequence();
    m_sequenceWidget->chooseStep(int(spec.then.size()) - 1);
    revalidate();
}

void LaunchPanel::edited()
{
    if (m_updating)
        return;
    syncFromWidgets();
    revalidate();
}

void LaunchPanel::verificationEdited(const Verification &verification)
{
    if (m_updating)
        return;
    m_editing = true;
    m_workspace->setVerification(verification);
    m_editing = false;
    revalidate();
}

void LaunchPanel::setRunAvailability(bool available, const QString &reason)
{
    m_available = available;
    m_unavailableReason = reason;
    updateRunState();
}

void LaunchPanel::setRunning(bool running)
{
    m_running = running;
    updateRunState();
}

void LaunchPanel::setSweepRunning(bool running)
{
    m_sweepRunning = running;
    updateRunState();
}

void LaunchPanel::revalidate()
{
    const bool haveKernel = session().hasKernel();
    const LaunchSpec &spec = session().spec();
    // Each field shows its own value or error; the launch's defines and the tuner defines are
    // names the fields may use (launch/launchenvironment.h).
    const DeviceNames deviceNames = session().deviceNames();
    const LaunchEnvironment environment =
        evaluateLaunchEnvironment(spec, session().options().defines, deviceNames);
    m_variablesModel->setContext(environment.values);
    m_definesModel->setContext(environment.values);
    m_globalsModel->setModule(
        haveKernel ? std::optional(moduleVariables(session().ptx(), session().source()))
                   : std::nullopt,
        environment.values);
    Variables variables = m_variablesModel->values();
    for (const auto &[name, value] : environment.values) {
        if (name.find('.') == std::string::npos || isDeviceName(name))
            variables.emplace(name, value);
    }
    m_argumentsModel->setVariables(variables);
    showFieldValues(haveKernel, variables);
    m_sequenceWidget->setVariables(environment.values);
    // Where device.smCount and the others come from, and what they are.
    QStringList known;
    for (const DeviceNameInfo &info : deviceNameList()) {
        if (const auto found = deviceNames.values.find(info.name);
            found != deviceNames.values.end())
            known << tr("%1 = %2 (%3)")
                         .arg(QString::fromLatin1(info.name),
                              ExpressionField::valueText(found->second),
                              QString::fromLatin1(info.meaning));
    }
    m_deviceNamesLabel->setText(
        deviceNames.source.empty()
            ? tr("device.* names: none (no device and no known architecture)")
            : tr("device.* names from %1").arg(toQString(deviceNames.source)));
    m_deviceNamesLabel->setToolTip(known.join(QLatin1Char('\n')));

    // The whole launch against the limits.
    const ValidationContext context = session().validationContext();
    m_limitsLabel->setText(
        tr("Checked against the limits of %1%2")
            .arg(toQString(context.limitsName),
                 session().device() ? QString() : tr(" (no GPU: the target architecture)")));
    std::vector<LaunchIssue> globalIssues;
    for (int row = 0; row < m_globalsModel->rowCount(); ++row) {
        const QModelIndex index = m_globalsModel->index(row, 0);
        const QString problem = index.data(GlobalsModel::ErrorRole).toString();
        if (!problem.isEmpty())
            globalIssues.push_back({toStdString(tr("global %1").arg(index.data().toString())),
                                    toStdString(problem), -1});
    }
    m_issues = session().validate(globalIssues);

    m_issuesList->clear();
    for (const LaunchIssue &issue : m_issues) {
        auto *item = new QListWidgetItem(
            style()->standardIcon(QStyle::SP_MessageBoxWarning),
            tr("%1: %2").arg(toQString(issue.field), toQString(issue.message)), m_issuesList);
        if (issue.position >= 0)
            item->setToolTip(tr("at character %1").arg(issue.position));
    }
    if (m_issues.empty() && haveKernel) {
        new QListWidgetItem(style()->standardIcon(QStyle::SP_DialogApplyButton),
                            tr("The launch fits the limits."), m_issuesList);
    }
    updateRunState();
    Q_EMIT issuesChanged();
}

void LaunchPanel::showFieldValues(bool haveKernel, const Variables &variables)
{
    Variables withBlock = variables;
    const auto show = [&](ExpressionField *field, const Variables &names, const QString &unit,
                          const char *bind) {
        if (!haveKernel) {
            field->showNothing();
            return;
        }
        const ExpressionValue value = evaluateExpression(toStdString(field->expression()), names);
        if (!value.ok()) {
            field->showError(*value.error);
            return;
        }
        field->showValue(value.value, unit);
        if (bind)
            withBlock[bind] = value.value;
    };
    const char *const blockNames[] = {"block.x", "block.y", "block.z"};
    for (int axis = 0; axis < 3; ++axis)
        show(m_block[std::size_t(axis)], variables, {}, blockNames[axis]);
    for (int axis = 0; axis < 3; ++axis)
        show(m_grid[std::size_t(axis)], withBlock, {}, nullptr);
    show(m_shared, withBlock, tr("B"), nullptr);
}

void LaunchPanel::updateGlobalInitEditor()
{
    const int row = m_globalsView->currentIndex().row();
    m_globalInitWidget->setVisible(m_globalsModel->rowCount() > 0);
    if (row < 0 || row >= m_globalsModel->rowCount()) {
        m_globalInitWidget->showHint(tr("Select a global to edit its initial contents."));
        return;
    }
    const GlobalSpec &global = m_globalsModel->globals()[std::size_t(row)];
    m_globalInitWidget->setInit(toQString(global.name), global.init, {});
}

void LaunchPanel::updateInitEditor()
{
    const int row = m_argumentsView->currentIndex().row();
    const auto &arguments = m_argumentsModel->arguments();
    if (row < 0 || std::size_t(row) >= arguments.size()) {
        m_initWidget->showHint(tr("Select a buffer to edit its initial contents."));
        return;
    }
    const ArgumentSpec &argument = arguments[std::size_t(row)];
    const QString name = toQString(argument.parameter);
    if (!m_argumentsModel->parameters()[std::size_t(row)].supported) {
        m_initWidget->showHint(
            toQString(m_argumentsModel->parameters()[std::size_t(row)].unsupportedReason));
    } else if (!argument.isBuffer) {
        m_initWidget->showHint(
            tr("%1 is a scalar: its value is the expression in the table.").arg(name));
    } else if (argument.role == BufferRole::Out) {
        m_initWidget->showHint(tr("%1 is an output: it starts filled with a poison value (NaN or "
                                  "0xFF bytes) so that elements never written are found.")
                                   .arg(name));
    } else {
        m_initWidget->setInit(name, argument.init, m_argumentsModel->otherBuffers(row));
    }
}

bool LaunchPanel::canRun() const
{
    return m_blockedReason.isEmpty();
}

void LaunchPanel::updateRunState()
{
    QString reason;
    const KernelSignature &signature = session().signature();
    if (!m_available)
        reason = m_unavailableReason.isEmpty() ? tr("Run needs a CUDA GPU") : m_unavailableReason;
    else if (!session().hasKernel())
        reason = tr("There is no kernel to run");
    else if (!session().compiled())
        reason = tr("The source does not compile");
    else if (!signature.error.empty())
        reason =
            tr("The kernel's parameters could not be read: %1").arg(toQString(signature.error));
    else if (!signature.drivable())
        reason = tr("A parameter of this kernel cannot be driven from the launch panel");
    else if (!m_issues.empty())
        reason = tr("Fix the launch first: %1: %2")
                     .arg(toQString(m_issues.front().field), toQString(m_issues.front().message));
    else if (m_running)
        reason = tr("A run is in progress");
    else if (m_sweepRunning)
        reason = tr("A sweep is measuring on the GPU; run once it ends (two measurements at once "
                    "would disturb each other)");
    m_blockedReason = reason;
    m_runAction->setEnabled(reason.isEmpty());
    m_runAction->setToolTip(reason.isEmpty() ? tr("Run %1 on the GPU (Ctrl+R)").arg(currentKernel())
                                             : reason);
    m_runReason->setText(reason);
    m_runReason->setToolTip(reason);
    m_measureAction->setEnabled(reason.isEmpty());
    m_measureAction->setToolTip(
        reason.isEmpty()
            ? tr("Measure %1: time it over many launches (Ctrl+Shift+R)").arg(currentKernel())
            : reason);
    m_inspectAction->setEnabled(reason.isEmpty());
    m_inspectAction->setToolTip(
        reason.isEmpty() ? tr("Inspect %1: where its time goes, line by line (Ctrl+Shift+I)")
                               .arg(currentKernel())
                         : reason);
}

void LaunchPanel::setMeasurementCancellable(bool cancellable)
{
    m_cancelMeasurementAction->setEnabled(cancellable);
    m_cancelMeasurementButton->setVisible(cancellable);
}

QString LaunchPanel::metricsArchitecture() const
{
    return toQString(session().metricsArchitecture());
}

void LaunchPanel::editMeasureOptions()
{
    MeasureOptionsDialog dialog(this);
    dialog.setSettings(m_workspace->sampleSettings());
    dialog.setMetricsChoice(m_workspace->metricsChoice());
    dialog.setArchitecture(metricsArchitecture());
    if (dialog.exec() == QDialog::Accepted) {
        m_workspace->setSampleSettings(dialog.settings());
        m_workspace->setMetricsChoice(dialog.metricsChoice());
    }
}

QString LaunchPanel::signatureText() const
{
    return m_signatureLabel->text();
}

} // namespace cuwb
