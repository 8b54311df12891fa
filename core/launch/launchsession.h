// LaunchSession: the launch being set up for a compiled module, apart from any widget. It
// holds the module's kernels and which one is chosen, what the user set up for each kernel
// (kept while another one is chosen), a project's launch waiting for its kernel to compile,
// the verification, and the limits the launch is checked against (the device's, else the
// target architecture's). The Launch dock shows and edits one; tests drive it directly.
#pragma once

#include "compiler/compileresult.h"
#include "device/deviceinfo.h"
#include "kernel/kernelsignature.h"
#include "launch/devicenames.h"
#include "launch/launchsequence.h"
#include "launch/launchspec.h"
#include "launch/launchvalidation.h"
#include "launch/verificationspec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cuwb {

class LaunchSession
{
public:
    // What a call changed, so that a view redraws only that.
    struct Change
    {
        bool adopted = false;       // a kernel's signature was (re)adopted: revalidate
        bool specChanged = false;   // the signature or the launch differ from before
        bool kernelChanged = false; // another kernel (by lowered name) is chosen
    };

    // A module that compiled. The kernel chosen is the pending project launch's, else the one
    // chosen before (looked up by name in this variant, whatever its lowered name is now),
    // else the first. A module without kernels clears the session.
    Change setModule(const CompileResult &result, std::string source, std::string fileName);
    // The source no longer compiles: the kernels stay, but nothing can run.
    void setUncompiled() { m_compiled = false; }
    // No module at all.
    void clear();
    // Chooses kernels()[index]; what was set up for the previous kernel is kept for it.
    Change chooseKernel(int index);
    // A project's launch and verification: applied now when the module has its kernel (or
    // the spec names none), else kept until a module that has it arrives.
    Change setLaunch(const LaunchSpec &spec, const Verification &verification);
    // The user edited the launch of the chosen kernel.
    void setSpec(const LaunchSpec &spec);
    void setVerification(const Verification &verification) { m_verification = verification; }
    void setDevice(const std::optional<DeviceInfo> &device,
                   std::optional<std::uint64_t> freeMemoryBytes);

    [[nodiscard]] const std::vector<KernelInfo> &kernels() const { return m_kernels; }
    [[nodiscard]] int kernelIndex() const { return m_kernelIndex; }
    [[nodiscard]] const KernelInfo *kernel() const;
    [[nodiscard]] bool hasKernel() const { return kernel() != nullptr; }
    [[nodiscard]] bool compiled() const { return m_compiled; }
    // The chosen kernel's lowered name; empty when none.
    [[nodiscard]] std::string loweredName() const;
    // The shortest names of the kernels other than the chosen one (reference kernels).
    [[nodiscard]] std::vector<std::string> otherKernelNames() const;

    [[nodiscard]] const KernelSignature &signature() const { return m_signature; }
    [[nodiscard]] const LaunchSpec &spec() const { return m_spec; }
    [[nodiscard]] const Verification &verification() const { return m_verification; }
    // The further kernels of the launch's sequence as the module has them (their signatures for
    // the steps' argument tables); empty without a module.
    [[nodiscard]] SequenceKernels sequenceKernels() const;
    // A new further kernel for the sequence: `kernels()[index]` with its pointers bound to the
    // sequence's buffers of the same name (else a new output buffer), its scalars set from the
    // launch's names (launch/launchsequence.h, defaultStep).
    [[nodiscard]] KernelStep newStep(int index) const;
    // The device.* names the launch's expressions see: the device's, else the catalogue's for
    // the target architecture; `source` says which.
    [[nodiscard]] DeviceNames deviceNames() const;
    // The launch as set up: the project's, until a module has adopted it.
    [[nodiscard]] LaunchSpec launchForCompile() const;

    [[nodiscard]] const std::string &source() const { return m_source; }
    [[nodiscard]] const std::string &fileName() const { return m_fileName; }
    [[nodiscard]] const std::string &ptx() const { return m_ptx; }
    [[nodiscard]] const CompileOptions &options() const { return m_options; }
    [[nodiscard]] const std::optional<DeviceInfo> &device() const { return m_device; }

    // The limits the launch is checked against: the device's, else the architecture's.
    [[nodiscard]] ValidationContext validationContext() const;
    // The architecture a metrics pass would profile: the device's, else the target's base
    // name ("sm_90a" profiles as "sm_90").
    [[nodiscard]] std::string metricsArchitecture() const;
    // Everything that stops the chosen kernel's launch: its fields against the limits, then
    // `globalIssues` (the globals the view found wrong), then what the verification still
    // needs. Empty when the launch can run, and when there is no kernel.
    [[nodiscard]] std::vector<LaunchIssue>
    validate(const std::vector<LaunchIssue> &globalIssues = {}) const;

private:
    [[nodiscard]] int indexOf(const std::string &name) const;
    Change adoptSignature();

    std::string m_source;
    std::string m_fileName;
    std::string m_ptx;
    CompileOptions m_options;
    std::vector<KernelInfo> m_kernels;
    int m_kernelIndex = -1;
    bool m_compiled = false;

    KernelSignature m_signature;
    LaunchSpec m_spec;
    Verification m_verification;
    std::map<std::string, LaunchSpec> m_specsByKernel; // what the user set up, per kernel
    std::optional<LaunchSpec> m_pendingSpec;           // a project's, until its kernel exists
    std::optional<DeviceInfo> m_device;
    std::optional<std::uint64_t> m_freeMemory;
};

} // namespace cuwb
