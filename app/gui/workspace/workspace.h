// Workspace: the open project's state, owned in one place apart from any widget — the compile
// options, the launch being set up (a LaunchSession: the compiled module the launch uses, its
// kernels, the chosen kernel's launch and the verification), the sweep, and how Measure samples
// and which metrics follow — and where it all runs (the placement). Panels show it and edit it
// through its setters, and are told of every change by its signals, whoever made it; nothing
// reads the project out of a widget.
// Saving, autosave, "modified", the Slurm snapshot, a run's request and a comparison all read
// these same values. The source is not here: it is the editor's buffer, and each buffer keeps
// its own latest compile (gui/editor/document.h), since several can be open.
//
// Each setter says whether the change is the user's (Edit::User: the project now has unsaved
// changes, `edited()` follows) or one the window makes by itself (Edit::Automatic: a compile
// adopting the project's launch, the GPU's architecture becoming the target, a project being
// opened). A setter given the value already held changes nothing and emits nothing.
//
// The user's defaults for a new project (compile options, measurement options, metrics) are
// kept in QSettings: restoreSettings() at start, saveSettings() at exit; the measurement
// options are written as they are set, as the dialog that edits them has always done.
#pragma once

#include "cluster/placement.h"
#include "compiler/compileoptions.h"
#include "compiler/compileresult.h"
#include "launch/launchsession.h"
#include "measure/measurement.h"
#include "measure/metrics.h"
#include "run/runrequest.h"
#include "sweep/sweep.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

// Whether Measure runs the metrics pass after the timing, and the metrics it asks for.
struct MetricsChoice
{
    bool collect = false;
    std::vector<std::string> metrics = defaultMetrics();
    bool operator==(const MetricsChoice &) const = default;
};

class Workspace : public QObject
{
    Q_OBJECT

public:
    enum class Edit {
        User,      // the user changed the project through a panel: an edit
        Automatic, // the window changed it by itself: not an edit
    };

    explicit Workspace(QObject *parent = nullptr);

    // --- Compile options -------------------------------------------------------------------
    [[nodiscard]] const CompileOptions &compileOptions() const { return m_options; }
    // `options` as the compiler can take them: an architecture NVRTC does not list becomes the
    // default one, a C++ standard it does not know stays as it was.
    void setCompileOptions(const CompileOptions &options, Edit edit = Edit::User);
    // The architecture of the first GPU found: it becomes the target unless the user chose one
    // (now or in an earlier session). Not an edit.
    void setDeviceArchitecture(const std::string &arch);
    [[nodiscard]] const std::string &deviceArchitecture() const { return m_deviceArch; }
    // The user picked the target architecture themselves; the GPU's no longer replaces it.
    void setArchitectureChosen() { m_userChoseArch = true; }
    // The compile options the editor compiles with: the project's, with the launch's defines
    // bound to their values (launch/launchenvironment.h), since a kernel may use them.
    [[nodiscard]] CompileOptions editorCompileOptions() const;
    // The architectures NVRTC compiles for (never empty) and the C++ standards it knows.
    [[nodiscard]] static const std::vector<std::string> &architectures();
    static constexpr const char *kDefaultArchitecture = "sm_90";

    // --- The launch ------------------------------------------------------------------------
    [[nodiscard]] const LaunchSession &launch() const { return m_launch; }
    // A compiled module and the source it came from (or a failed compile: the kernels stay,
    // nothing can run); not an edit. The templates of `result` are kept for the kernel list.
    void setModule(const CompileResult &result, const std::string &source,
                   const std::string &fileName);
    // No module at all (no document, or no kernel in it).
    void clearModule();
    // A project's launch and verification: applied now, or when its kernel is compiled.
    void setLaunch(const LaunchSpec &spec, const Verification &verification,
                   Edit edit = Edit::Automatic);
    // The user chose kernels()[index] in the Launch dock.
    void chooseKernel(int index);
    // The user edited the chosen kernel's launch, or the verification.
    void setLaunchSpec(const LaunchSpec &spec);
    void setVerification(const Verification &verification);
    // The limits validation uses: the device's when there is one, else the architecture's.
    void setDevice(const std::optional<DeviceInfo> &device,
                   std::optional<std::uint64_t> freeMemoryBytes = std::nullopt);
    // The source's __global__ templates as the latest compile found them.
    [[nodiscard]] const std::vector<KernelTemplate> &kernelTemplates() const { return m_templates; }
    // What to send to the worker for the launch as it is set up.
    [[nodiscard]] RunRequest runRequest() const;
    // The element type names of the launch's buffers, by parameter.
    [[nodiscard]] QHash<QString, QString> bufferTypeNames() const;

    // --- The sweep -------------------------------------------------------------------------
    [[nodiscard]] const SweepSpec &sweep() const { return m_sweep; }
    void setSweep(const SweepSpec &spec, Edit edit = Edit::User);

    // --- How Measure samples, and the metrics pass -----------------------------------------
    [[nodiscard]] const SampleSettings &sampleSettings() const { return m_sampleSettings; }
    void setSampleSettings(const SampleSettings &settings);
    [[nodiscard]] const MetricsChoice &metricsChoice() const { return m_metrics; }
    void setMetricsChoice(const MetricsChoice &choice);

    // --- Where it runs ----------------------------------------------------------------------
    // The placement (cluster/placement.h): the Device dock's target, and the Sweep dock's GPUs
    // and Slurm group, as one value that the shared worker and the sweep follow. The window's,
    // not the project's: never saved with it and never an edit (each dock remembers its part in
    // QSettings).
    [[nodiscard]] const Placement &placement() const { return m_placement; }
    void setPlacement(const Placement &placement);

    // --- The user's defaults ---------------------------------------------------------------
    // Reads the compile options, the measurement options and the metrics choice from
    // QSettings; false when no compile options were stored (a first start).
    bool restoreSettings();
    void saveSettings() const;
    // The measurement options and the metrics choice as stored, the defaults for anything not
    // stored or unusable.
    [[nodiscard]] static SampleSettings storedSampleSettings();
    [[nodiscard]] static MetricsChoice storedMetricsChoice();

Q_SIGNALS:
    void compileOptionsChanged();
    // The launch session changed: `change` says what (a view redraws only that).
    void launchChanged(const cuwb::LaunchSession::Change &change);
    void sweepChanged();
    void sampleSettingsChanged();
    void metricsChoiceChanged();
    void placementChanged();
    // The user changed the project's settings (compile options, launch, verification or
    // sweep): the project may now differ from its file.
    void edited();

private:
    void changeLaunch(const LaunchSession::Change &change, Edit edit);

    CompileOptions m_options;
    bool m_userChoseArch = false;
    std::string m_deviceArch;
    LaunchSession m_launch;
    std::vector<KernelTemplate> m_templates;
    SweepSpec m_sweep;
    SampleSettings m_sampleSettings;
    MetricsChoice m_metrics;
    Placement m_placement;
};

} // namespace cuwb

Q_DECLARE_METATYPE(cuwb::LaunchSession::Change)
