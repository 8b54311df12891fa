#include "gui/workspace/workspace.h"

#include "cuda/nvrtcinfo.h"
#include "gui/common/qtconvert.h"
#include "launch/launchenvironment.h"
#include "launch/launchsequence.h"

#include <QSettings>

#include <algorithm>

namespace cuwb {

namespace {

bool contains(const std::vector<std::string> &list, const std::string &value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

} // namespace

Workspace::Workspace(QObject *parent)
    : QObject(parent)
    , m_sampleSettings(storedSampleSettings())
    , m_metrics(storedMetricsChoice())
{
    qRegisterMetaType<cuwb::LaunchSession::Change>();
    CompileOptions defaults;
    setCompileOptions(defaults, Edit::Automatic);
}

const std::vector<std::string> &Workspace::architectures()
{
    static const std::vector<std::string> list = [] {
        std::vector<std::string> archs;
        try {
            archs = nvrtcSupportedArchs();
        } catch (...) {
            // Without a list from NVRTC the user can still compile for the default.
        }
        if (archs.empty())
            archs.emplace_back(kDefaultArchitecture);
        return archs;
    }();
    return list;
}

void Workspace::setCompileOptions(const CompileOptions &options, Edit edit)
{
    CompileOptions fitted = options;
    const std::vector<std::string> &archs = architectures();
    if (!contains(archs, fitted.arch))
        fitted.arch = contains(archs, kDefaultArchitecture) ? std::string(kDefaultArchitecture)
                                                            : archs.back();
    fitted.optLevel = std::clamp(fitted.optLevel, 0, 3);
    fitted.maxRegisters = std::clamp(fitted.maxRegisters, 0, 255);
    if (!contains(compilerChoices(), fitted.compiler))
        fitted.compiler = "auto";
    if (!supportedCppStandards().empty() && !contains(supportedCppStandards(), fitted.cppStandard))
        fitted.cppStandard = m_options.cppStandard;
    if (fitted == m_options)
        return;
    m_options = std::move(fitted);
    Q_EMIT compileOptionsChanged();
    if (edit == Edit::User)
        Q_EMIT edited();
}

void Workspace::setDeviceArchitecture(const std::string &arch)
{
    m_deviceArch = arch;
    if (m_userChoseArch || arch.empty() || !contains(architectures(), arch))
        return;
    CompileOptions options = m_options;
    options.arch = arch;
    setCompileOptions(options, Edit::Automatic);
}

CompileOptions Workspace::editorCompileOptions() const
{
    CompileOptions options = m_options;
    LaunchSpec launch = m_launch.launchForCompile();
    (void)bindLaunchDefines(launch, options, launchKernelNames(launch, m_launch.verification()),
                            m_launch.deviceNames());
    return options;
}

void Workspace::changeLaunch(const LaunchSession::Change &change, Edit edit)
{
    Q_EMIT launchChanged(change);
    if (edit == Edit::User)
        Q_EMIT edited();
}

void Workspace::setModule(const CompileResult &result, const std::string &source,
                          const std::string &fileName)
{
    m_templates = result.templates;
    if (!result.success) {
        m_launch.setUncompiled();
        changeLaunch({}, Edit::Automatic);
        return;
    }
    changeLaunch(m_launch.setModule(result, source, fileName), Edit::Automatic);
}

void Workspace::clearModule()
{
    m_templates.clear();
    m_launch.clear();
    changeLaunch({true, true, true}, Edit::Automatic);
}

void Workspace::setLaunch(const LaunchSpec &spec, const Verification &verification, Edit edit)
{
    changeLaunch(m_launch.setLaunch(spec, verification), edit);
}

void Workspace::chooseKernel(int index)
{
    if (index == m_launch.kernelIndex())
        return;
    changeLaunch(m_launch.chooseKernel(index), Edit::User);
}

void Workspace::setLaunchSpec(const LaunchSpec &spec)
{
    if (spec == m_launch.spec())
        return;
    m_launch.setSpec(spec);
    changeLaunch({}, Edit::User);
}

void Workspace::setVerification(const Verification &verification)
{
    if (verification == m_launch.verification())
        return;
    m_launch.setVerification(verification);
    changeLaunch({}, Edit::User);
}

void Workspace::setDevice(const std::optional<DeviceInfo> &device,
                          std::optional<std::uint64_t> freeMemoryBytes)
{
    m_launch.setDevice(device, freeMemoryBytes);
    changeLaunch({}, Edit::Automatic);
}

RunRequest Workspace::runRequest() const
{
    RunRequest request;
    request.source = m_launch.source();
    request.fileName = m_launch.fileName().empty() ? std::string("kernel.cu") : m_launch.fileName();
    request.options = m_launch.options();
    request.launch = m_launch.spec();
    request.verification = m_launch.verification();
    return request;
}

QHash<QString, QString> Workspace::bufferTypeNames() const
{
    QHash<QString, QString> names;
    for (const ArgumentSpec &argument : m_launch.spec().arguments) {
        if (argument.isBuffer)
            names.insert(toQString(argument.parameter), toQString(argument.elementType.name()));
    }
    return names;
}

void Workspace::setSweep(const SweepSpec &spec, Edit edit)
{
    if (spec == m_sweep)
        return;
    m_sweep = spec;
    Q_EMIT sweepChanged();
    if (edit == Edit::User)
        Q_EMIT edited();
}

void Workspace::setPlacement(const Placement &placement)
{
    if (placement == m_placement)
        return;
    m_placement = placement;
    Q_EMIT placementChanged();
}

void Workspace::setSampleSettings(const SampleSettings &settings)
{
    QSettings stored;
    stored.beginGroup(QStringLiteral("measure"));
    stored.setValue(QStringLiteral("mode"), QString::fromLatin1(sampleModeName(settings.mode)));
    stored.setValue(QStringLiteral("timer"), QString::fromLatin1(timingSourceName(settings.timer)));
    stored.setValue(QStringLiteral("fixedSamples"), settings.fixedSamples);
    stored.setValue(QStringLiteral("minSamples"), settings.minSamples);
    stored.setValue(QStringLiteral("minGpuTimeSeconds"), settings.minGpuTimeSeconds);
    stored.setValue(QStringLiteral("targetRelativeNoise"), settings.targetRelativeNoise);
    stored.setValue(QStringLiteral("timeCapSeconds"), settings.timeCapSeconds);
    if (settings == m_sampleSettings)
        return;
    m_sampleSettings = settings;
    Q_EMIT sampleSettingsChanged();
}

void Workspace::setMetricsChoice(const MetricsChoice &choice)
{
    QSettings stored;
    stored.beginGroup(QStringLiteral("measure"));
    stored.setValue(QStringLiteral("collectMetrics"), choice.collect);
    // The defaults are not written down, so a later version's defaults reach the user.
    if (choice.metrics == defaultMetrics() || choice.metrics.empty())
        stored.remove(QStringLiteral("metrics"));
    else
        stored.setValue(QStringLiteral("metrics"), toQStringList(choice.metrics));
    if (choice == m_metrics)
        return;
    m_metrics = choice;
    Q_EMIT metricsChoiceChanged();
}

SampleSettings Workspace::storedSampleSettings()
{
    const SampleSettings defaults;
    QSettings stored;
    stored.beginGroup(QStringLiteral("measure"));
    SampleSettings settings = defaults;
    settings.mode = stored.value(QStringLiteral("mode")).toString() == QLatin1String("hot")
                        ? SampleMode::Hot
                        : SampleMode::Cold;
    const QString timer = stored.value(QStringLiteral("timer")).toString();
    for (const TimingSource source :
         {TimingSource::Cupti, TimingSource::Profiler, TimingSource::Events}) {
        if (timer == QLatin1String(timingSourceName(source)))
            settings.timer = source;
    }
    settings.fixedSamples =
        stored.value(QStringLiteral("fixedSamples"), defaults.fixedSamples).toInt();
    settings.minSamples = stored.value(QStringLiteral("minSamples"), defaults.minSamples).toInt();
    settings.minGpuTimeSeconds =
        stored.value(QStringLiteral("minGpuTimeSeconds"), defaults.minGpuTimeSeconds).toDouble();
    settings.targetRelativeNoise =
        stored.value(QStringLiteral("targetRelativeNoise"), defaults.targetRelativeNoise)
            .toDouble();
    settings.timeCapSeconds =
        stored.value(QStringLiteral("timeCapSeconds"), defaults.timeCapSeconds).toDouble();
    // Settings edited by hand into something unusable fall back to the defaults.
    return checkSampleSettings(settings) ? defaults : settings;
}

MetricsChoice Workspace::storedMetricsChoice()
{
    QSettings stored;
    stored.beginGroup(QStringLiteral("measure"));
    MetricsChoice choice;
    choice.collect = stored.value(QStringLiteral("collectMetrics"), false).toBool();
    const QStringList metrics = stored.value(QStringLiteral("metrics")).toStringList();
    if (!metrics.isEmpty())
        choice.metrics = toStdStringList(metrics);
    return choice;
}

bool Workspace::restoreSettings()
{
    setSampleSettings(storedSampleSettings());
    setMetricsChoice(storedMetricsChoice());
    QSettings settings;
    settings.beginGroup(QStringLiteral("compileOptions"));
    if (!settings.contains(QStringLiteral("arch")))
        return false;
    CompileOptions options;
    options.arch = toStdString(settings.value(QStringLiteral("arch")).toString());
    options.optLevel = settings.value(QStringLiteral("optLevel"), 3).toInt();
    options.cppStandard =
        toStdString(settings.value(QStringLiteral("std"), QStringLiteral("c++17")).toString());
    options.maxRegisters = settings.value(QStringLiteral("maxRegisters"), 0).toInt();
    options.deviceDebug = settings.value(QStringLiteral("deviceDebug"), false).toBool();
    options.lineInfo = settings.value(QStringLiteral("lineInfo"), true).toBool();
    options.fastMath = settings.value(QStringLiteral("fastMath"), false).toBool();
    options.defines = toStdStringList(settings.value(QStringLiteral("defines")).toStringList());
    options.includeDirs =
        toStdStringList(settings.value(QStringLiteral("includeDirs")).toStringList());
    options.compiler =
        toStdString(settings.value(QStringLiteral("compiler"), QStringLiteral("auto")).toString());
    options.flags = toStdStringList(settings.value(QStringLiteral("flags")).toStringList());
    m_userChoseArch = settings.value(QStringLiteral("archChosen"), false).toBool();
    setCompileOptions(options, Edit::Automatic);
    return true;
}

void Workspace::saveSettings() const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("compileOptions"));
    settings.setValue(QStringLiteral("arch"), toQString(m_options.arch));
    settings.setValue(QStringLiteral("archChosen"), m_userChoseArch);
    settings.setValue(QStringLiteral("optLevel"), m_options.optLevel);
    settings.setValue(QStringLiteral("std"), toQString(m_options.cppStandard));
    settings.setValue(QStringLiteral("maxRegisters"), m_options.maxRegisters);
    settings.setValue(QStringLiteral("deviceDebug"), m_options.deviceDebug);
    settings.setValue(QStringLiteral("lineInfo"), m_options.lineInfo);
    settings.setValue(QStringLiteral("fastMath"), m_options.fastMath);
    settings.setValue(QStringLiteral("defines"), toQStringList(m_options.defines));
    settings.setValue(QStringLiteral("includeDirs"), toQStringList(m_options.includeDirs));
    settings.setValue(QStringLiteral("compiler"), toQString(m_options.compiler));
    settings.setValue(QStringLiteral("flags"), toQStringList(m_options.flags));
}

} // namespace cuwb
