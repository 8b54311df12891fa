#include "util/sandbox.h"

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace cuwb {

namespace {

// Rights newer than the system's headers may know.
constexpr std::uint64_t kRefer = 1ULL << 13;    // ABI 2
constexpr std::uint64_t kTruncate = 1ULL << 14; // ABI 3
constexpr std::uint64_t kIoctlDev = 1ULL << 15; // ABI 5

constexpr std::uint64_t kReadRights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;

// Every file-system right this ABI knows: what the ruleset handles, i.e. denies unless a rule
// grants it.
std::uint64_t handledRights(int abi)
{
    std::uint64_t rights = (1ULL << 13) - 1; // ABI 1: execute ... make_sym
    if (abi >= 2)
        rights |= kRefer;
    if (abi >= 3)
        rights |= kTruncate;
    if (abi >= 5)
        rights |= kIoctlDev;
    return rights;
}

int landlockAbi()
{
    const long abi =
        ::syscall(__NR_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : int(abi);
}

// The rights a rule on `fd` may grant: a file takes only file rights.
std::uint64_t rightsFor(int fd, std::uint64_t wanted)
{
    struct stat info = {};
    if (::fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) {
        wanted &= LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                  LANDLOCK_ACCESS_FS_READ_FILE | kTruncate | kIoctlDev;
    }
    return wanted;
}

#if defined(__x86_64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_AARCH64;
#else
#error "the sandbox's seccomp filter knows x86-64 and AArch64"
#endif

} // namespace

// The seccomp program: a socket of any family but AF_UNIX fails with EACCES, io_uring (which
// reaches the network without socket()) with ENOSYS; every other call is allowed. A call from
// another architecture's table is refused outright.
struct Sandbox::Filter
{
    std::vector<sock_filter> code;
    sock_fprog program = {};

    Filter()
    {
        const auto stmt = [](std::uint16_t op, std::uint32_t k) {
            return sock_filter{op, 0, 0, k};
        };
        const auto jump = [](std::uint16_t op, std::uint32_t k, std::uint8_t t, std::uint8_t f) {
            return sock_filter{op, t, f, k};
        };
        constexpr std::uint32_t kArch = offsetof(seccomp_data, arch);
        constexpr std::uint32_t kNr = offsetof(seccomp_data, nr);
        constexpr std::uint32_t kArg0 = offsetof(seccomp_data, args);
        code = {
            stmt(BPF_LD | BPF_W | BPF_ABS, kArch),
            jump(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0),
            stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
            stmt(BPF_LD | BPF_W | BPF_ABS, kNr),
#if defined(__x86_64__)
            // x32 calls carry bit 30 and would name the same calls by other numbers.
            jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),
            stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
#endif
            jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
            stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
            jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0),
            stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
            stmt(BPF_LD | BPF_W | BPF_ABS, kArg0), // the family, low 32 bits
            jump(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
            stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
            stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
        };
        program.len = static_cast<unsigned short>(code.size());
        program.filter = code.data();
    }
};

SandboxPolicy compilerSandboxPolicy(const std::string &toolkitRoot)
{
    SandboxPolicy policy;
    policy.readable = {"/usr",  "/lib", "/lib32", "/lib64", "/bin",
                       "/sbin", "/etc", "/opt",   "/proc",  "/dev"};
    if (!toolkitRoot.empty())
        policy.readable.push_back(toolkitRoot);
    policy.writable = {"/dev/null"};
    return policy;
}

std::uint64_t userTaskCount()
{
    const uid_t user = ::getuid();
    std::uint64_t tasks = 0;
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/proc", error)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        struct stat status = {};
        // A process's folder belongs to its real user; one that ended meanwhile is skipped.
        if (::stat(entry.path().c_str(), &status) != 0 || status.st_uid != user)
            continue;
        std::ifstream file(entry.path() / "status");
        std::string line;
        while (std::getline(file, line)) {
            if (line.rfind("Threads:", 0) == 0) {
                tasks += std::strtoull(line.c_str() + 8, nullptr, 10);
                break;
            }
        }
    }
    return tasks;
}

std::string sandboxUnavailableReason()
{
    if (landlockAbi() < 1)
        return std::string("the kernel offers no Landlock (Linux 5.13 or newer with landlock "
                           "among its security modules): ") +
               std::strerror(errno);
    return {};
}

Sandbox::Sandbox(const SandboxPolicy &policy)
    : m_maxFileBytes(policy.maxFileBytes)
    , m_cpuSeconds(policy.cpuSeconds)
    , m_maxAddressBytes(policy.maxAddressBytes)
    , m_maxProcesses(policy.moreProcesses > 0 ? userTaskCount() + policy.moreProcesses : 0)
    , m_network(policy.network)
    , m_filter(std::make_unique<Filter>())
{
    m_abi = landlockAbi();
    if (m_abi < 1)
        throw std::runtime_error(sandboxUnavailableReason());
    landlock_ruleset_attr attributes = {};
    attributes.handled_access_fs = handledRights(m_abi);
    m_rulesetFd = int(::syscall(__NR_landlock_create_ruleset, &attributes, sizeof attributes, 0));
    if (m_rulesetFd < 0)
        throw std::runtime_error(std::string("cannot make a Landlock ruleset: ") +
                                 std::strerror(errno));
    const auto allow = [&](const std::string &path, std::uint64_t rights) {
        const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
        if (fd < 0)
            return; // not on this system
        landlock_path_beneath_attr rule = {};
        rule.allowed_access = rightsFor(fd, rights & handledRights(m_abi));
        rule.parent_fd = fd;
        const long added =
            ::syscall(__NR_landlock_add_rule, m_rulesetFd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        const int error = errno;
        ::close(fd);
        if (added != 0) {
            ::close(m_rulesetFd);
            throw std::runtime_error("cannot allow '" + path +
                                     "' in the sandbox: " + std::strerror(error));
        }
    };
    for (const std::string &path : policy.readable)
        allow(path, kReadRights);
    for (const std::string &path : policy.writable)
        allow(path, handledRights(m_abi));
}

Sandbox::~Sandbox()
{
    if (m_rulesetFd >= 0)
        ::close(m_rulesetFd);
}

int Sandbox::applyInChild() const noexcept
{
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return errno;
    if (m_maxFileBytes > 0) {
        const rlimit limit{m_maxFileBytes, m_maxFileBytes};
        if (::setrlimit(RLIMIT_FSIZE, &limit) != 0)
            return errno;
    }
    if (m_cpuSeconds > 0) {
        // SIGXCPU at the limit ("CPU time limit exceeded"); SIGKILL a second later.
        const rlimit limit{m_cpuSeconds, m_cpuSeconds + 1};
        if (::setrlimit(RLIMIT_CPU, &limit) != 0)
            return errno;
    }
    if (m_maxAddressBytes > 0) {
        const rlimit limit{m_maxAddressBytes, m_maxAddressBytes};
        if (::setrlimit(RLIMIT_AS, &limit) != 0)
            return errno;
    }
    if (m_maxProcesses > 0) {
        const rlimit limit{m_maxProcesses, m_maxProcesses};
        if (::setrlimit(RLIMIT_NPROC, &limit) != 0)
            return errno;
    }
    if (::syscall(__NR_landlock_restrict_self, m_rulesetFd, 0) != 0)
        return errno;
    if (!m_network && ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &m_filter->program, 0, 0) != 0)
        return errno;
    return 0;
}

} // namespace cuwb
