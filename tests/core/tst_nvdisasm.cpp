// Finding nvdisasm, running tools with limits (runTool), what a failing disassembler gives,
// and the real nvdisasm on a fresh NVRTC compile. The set-up (./workbench build) installs
// nvdisasm into the build folder, so the last test runs in CI; it skips only when no nvdisasm
// can be found at all, and says so.
#include "compilertesthelpers.h"

#include "compiler/kernelcompiler.h"
#include "inspect/instructionmix.h"
#include "inspect/nvdisasm.h"
#include "util/toolprocess.h"

#include <QDir>
#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_nvdisasm {
using cuwbtest::readData;

class TestNvdisasm : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runToolCapturesOutputAndStatus();
    void runToolReportsWhatWentWrong();
    void overrideIsTheOnlyPlaceLookedAt();
    void searchOrder();
    void noneFoundSaysWhatToInstall();
    void failingDisassemblerIsAMessage();
    void noMachineCode();
    void realNvdisasmOnAFreshCompile();
};

namespace {

// An executable shell script at `path`.
void writeScript(const QString &path, const QByteArray &body)
{
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\n" + body + "\n");
    file.close();
    QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                QFileDevice::ExeOwner));
}

std::string str(const QString &text)
{
    return text.toStdString();
}

NvdisasmSearch emptySearch()
{
    NvdisasmSearch search;
    search.cudaHome = "/nonexistent/cuda";
    search.pathVariable = "/nonexistent/bin";
    return search;
}

} // namespace

void TestNvdisasm::runToolCapturesOutputAndStatus()
{
    const ToolRun run = runTool({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
    QVERIFY(run.started);
    QCOMPARE(run.out, std::string("out\n"));
    QCOMPARE(run.err, std::string("err\n"));
    QCOMPARE(run.exitCode, 3);
    QVERIFY(!run.succeeded());
    QCOMPARE(run.failure("tool"), std::string("tool failed with exit status 3: err"));
    const ToolRun ok = runTool({"/bin/sh", "-c", "printf 'a\\nb'"});
    QVERIFY(ok.succeeded());
    QCOMPARE(ok.out, std::string("a\nb"));
    QVERIFY(ok.failure("tool").empty());
}

void TestNvdisasm::runToolReportsWhatWentWrong()
{
    const ToolRun missing = runTool({"/nonexistent/nvdisasm", "--version"});
    QVERIFY(!missing.started);
    QVERIFY(missing.failure("nvdisasm").starts_with("nvdisasm could not be started: "));

    const ToolRun hung = runTool({"/bin/sh", "-c", "sleep 30"}, {200, 1 << 20, {}, {}, nullptr});
    QVERIFY(hung.timedOut);
    QVERIFY(hung.failure("nvdisasm").find("did not finish in time") != std::string::npos);

    const ToolRun flood = runTool({"/bin/sh", "-c", "yes"}, {30000, 100000, {}, {}, nullptr});
    QVERIFY(flood.tooMuchOutput);
    QVERIFY(!flood.succeeded());

    const ToolRun crash = runTool({"/bin/sh", "-c", "kill -SEGV $$"});
    QCOMPARE(crash.signal, SIGSEGV);
    QVERIFY(crash.failure("nvdisasm").starts_with("nvdisasm crashed (signal 11"));

    // A tool stopped at its limit takes what it started with it (nvcc's cicc and ptxas).
    QTemporaryDir dir;
    const QString pidFile = dir.filePath(QStringLiteral("child.pid"));
    const ToolRun parent =
        runTool({"/bin/sh", "-c", "sleep 30 & echo $! > " + pidFile.toStdString() + "; wait"},
                {300, 1 << 20, {}, {}, nullptr});
    QVERIFY(parent.timedOut);
    QFile file(pidFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray pid = file.readAll().trimmed();
    QVERIFY(!pid.isEmpty());
    // Killed: gone, or a zombie until init reaps it.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(QString::fromLatin1(pid)));
            if (!stat.open(QIODevice::ReadOnly))
                return true;
            const QByteArray text = stat.readAll();
            return text.mid(text.lastIndexOf(')') + 2, 1) == "Z";
        }(),
        5000);

    // The working folder is the one asked for.
    const ToolRun here =
        runTool({"/bin/pwd"}, {5000, 1 << 20, dir.path().toStdString(), {}, nullptr});
    QCOMPARE(QString::fromStdString(here.out).trimmed(), QDir(dir.path()).canonicalPath());
    // Environment entries replace the caller's of the same name and add the others.
    qputenv("CUWB_TOOL_TEST_A", "caller");
    const ToolRun environment =
        runTool({"/bin/sh", "-c", "echo $CUWB_TOOL_TEST_A $CUWB_TOOL_TEST_B $HOME"},
                {5000, 1 << 20, {}, {"CUWB_TOOL_TEST_A=tool", "CUWB_TOOL_TEST_B=added"}, nullptr});
    QCOMPARE(environment.out, "tool added " + qEnvironmentVariable("HOME").toStdString() + "\n");
    qunsetenv("CUWB_TOOL_TEST_A");
}

void TestNvdisasm::overrideIsTheOnlyPlaceLookedAt()
{
    QTemporaryDir dir;
    writeScript(dir.filePath(QStringLiteral("cuda/bin/nvdisasm")), "exit 0");
    NvdisasmSearch search = emptySearch();
    search.cudaHome = str(dir.filePath(QStringLiteral("cuda")));
    search.overrideSet = true;
    search.overridePath = "/nonexistent/nvdisasm";
    const NvdisasmTool tool = findNvdisasm(search);
    QVERIFY(!tool.found());
    QVERIFY(tool.problem.find("CUWB_NVDISASM names '/nonexistent/nvdisasm'") != std::string::npos);

    writeScript(dir.filePath(QStringLiteral("mine")), "exit 0");
    search.overridePath = str(dir.filePath(QStringLiteral("mine")));
    const NvdisasmTool mine = findNvdisasm(search);
    QCOMPARE(mine.path, search.overridePath);
    QCOMPARE(mine.origin, std::string("CUWB_NVDISASM"));
}

void TestNvdisasm::searchOrder()
{
    QTemporaryDir dir;
    NvdisasmSearch search = emptySearch();
    // The build folder's copy from PyPI: tools/nvdisasm/nvidia/cuNN/bin/nvdisasm.
    writeScript(dir.filePath(QStringLiteral("build/tools/nvdisasm/nvidia/cu13/bin/nvdisasm")),
                "exit 0");
    search.toolFolders = {"/nonexistent/tools",
                          str(dir.filePath(QStringLiteral("build/tools/nvdisasm")))};
    NvdisasmTool tool = findNvdisasm(search);
    QCOMPARE(tool.origin, std::string("build folder"));
    QVERIFY(tool.path.ends_with("nvidia/cu13/bin/nvdisasm"));

    // PATH before the build folder; a folder without it is passed over.
    writeScript(dir.filePath(QStringLiteral("path/nvdisasm")), "exit 0");
    search.pathVariable = "/nonexistent/bin::" + str(dir.filePath(QStringLiteral("path")));
    tool = findNvdisasm(search);
    QCOMPARE(tool.origin, std::string("PATH"));
    QCOMPARE(tool.path, str(dir.filePath(QStringLiteral("path/nvdisasm"))));

    // The toolkit before PATH.
    writeScript(dir.filePath(QStringLiteral("cuda/bin/nvdisasm")), "exit 0");
    search.cudaHome = str(dir.filePath(QStringLiteral("cuda")));
    tool = findNvdisasm(search);
    QCOMPARE(tool.origin, std::string("CUDA_HOME"));

    // A file that is not executable does not count.
    QFile::setPermissions(dir.filePath(QStringLiteral("cuda/bin/nvdisasm")),
                          QFileDevice::ReadOwner);
    QCOMPARE(findNvdisasm(search).origin, std::string("PATH"));
}

void TestNvdisasm::noneFoundSaysWhatToInstall()
{
    const NvdisasmTool tool = findNvdisasm(emptySearch());
    QVERIFY(!tool.found());
    QVERIFY(tool.problem.starts_with("nvdisasm is not available"));
    QVERIFY(tool.problem.find("/nonexistent/cuda/bin") != std::string::npos);
    QVERIFY(tool.problem.find("./workbench build") != std::string::npos);
    QVERIFY(tool.problem.find("pip install nvidia-cuda-nvdisasm") != std::string::npos);

    const SassDisassembly result = disassembleCubin("not a cubin", tool);
    QCOMPARE(result.status, SassStatus::NoTool);
    QCOMPARE(result.message, tool.problem);
}

void TestNvdisasm::failingDisassemblerIsAMessage()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("nvdisasm"));
    NvdisasmTool tool{str(path), "CUWB_NVDISASM", {}};

    writeScript(path, "echo 'nvdisasm fatal   : Input file is not a valid ELF' >&2; exit 1");
    SassDisassembly result = disassembleCubin("garbage", tool);
    QCOMPARE(result.status, SassStatus::ToolFailed);
    QCOMPARE(result.message, std::string("nvdisasm failed with exit status 1: nvdisasm fatal   : "
                                         "Input file is not a valid ELF"));

    writeScript(path, "kill -SEGV $$");
    result = disassembleCubin("garbage", tool);
    QCOMPARE(result.status, SassStatus::ToolFailed);
    QVERIFY(result.message.starts_with("nvdisasm crashed"));

    writeScript(path, "[ \"$1\" = --version ] && exit 0; sleep 30");
    result = disassembleCubin("garbage", tool, {300, 1 << 20, {}, {}, nullptr});
    QCOMPARE(result.status, SassStatus::ToolFailed);
    QVERIFY(result.message.find("did not finish in time") != std::string::npos);

    // It printed something that is no code.
    writeScript(path, "echo hello");
    result = disassembleCubin("garbage", tool);
    QCOMPARE(result.status, SassStatus::ToolFailed);
    QCOMPARE(result.message, std::string("nvdisasm printed no code"));

    // The recorded output, as a stand-in would print it: a listing, and the file it was given
    // (a temporary CUBIN, removed afterwards).
    QFile recorded(QStringLiteral(CUWB_TEST_DATA_DIR "/sass/copy.sass"));
    writeScript(path, "[ \"$1\" = --version ] && { echo 'Cuda compilation tools, release 13.5, "
                      "V13.5.37'; exit 0; }\necho \"$3\" > " +
                          QFile::encodeName(dir.filePath(QStringLiteral("argument"))) + "\ncat " +
                          QFile::encodeName(recorded.fileName()));
    result = disassembleCubin("bytes", tool);
    QCOMPARE(result.status, SassStatus::Ok);
    QCOMPARE(result.toolVersion, std::string("13.5.37"));
    QVERIFY(result.listing.function("copy"));
    QFile argument(dir.filePath(QStringLiteral("argument")));
    QVERIFY(argument.open(QIODevice::ReadOnly));
    const QString cubinPath = QString::fromUtf8(argument.readAll().trimmed());
    QVERIFY(cubinPath.endsWith(QStringLiteral(".cubin")));
    QVERIFY(!QFile::exists(cubinPath));
}

void TestNvdisasm::noMachineCode()
{
    const NvdisasmTool tool{"/bin/true", "CUWB_NVDISASM", {}};
    CompileResult failed;
    failed.success = false;
    QCOMPARE(disassemble(failed, tool).status, SassStatus::NoCubin);
    CompileResult virtualArch;
    virtualArch.success = true;
    virtualArch.options.arch = "compute_90";
    const SassDisassembly result = disassemble(virtualArch, tool);
    QCOMPARE(result.status, SassStatus::NoCubin);
    QVERIFY(result.message.find("compute_90") != std::string::npos);
}

void TestNvdisasm::realNvdisasmOnAFreshCompile()
{
    const NvdisasmTool tool = findNvdisasm();
    if (!tool.found())
        QSKIP(("no nvdisasm to run: " + tool.problem).c_str());
    const std::string version = nvdisasmVersion(tool.path);
    QVERIFY2(!version.empty(), tool.path.c_str());
    qInfo("nvdisasm %s from %s (%s)", version.c_str(), tool.path.c_str(), tool.origin.c_str());

    CompileOptions options;
    options.maxRegisters = 24;
    KernelCompiler compiler;
    const std::string source = readData("sass/spills.cu");
    const CompileResult compiled = compiler.compile(source, "spills.cu", options);
    QVERIFY(compiled.success);
    const SassDisassembly sass = disassemble(compiled, tool);
    QVERIFY2(sass.ok(), sass.message.c_str());
    QCOMPARE(sass.toolVersion, version);
    QCOMPARE(sass.listing.arch, std::string("sm_90"));
    // Every kernel of the module, under the name the compiler reports.
    for (const KernelInfo &kernel : compiled.kernels) {
        const SassFunction *function = sass.listing.function(kernel.loweredName);
        QVERIFY2(function, kernel.loweredName.c_str());
        QVERIFY(function->entry);
        const FunctionMix mix = instructionMix(*function);
        // The spills nvdisasm marks are the ones ptxas reported.
        QCOMPARE(mix.total.spillStoreBytes, (long long)kernel.resources.spillStoreBytes);
        QCOMPARE(mix.total.spillLoadBytes, (long long)kernel.resources.spillLoadBytes);
        // Source lines from the line table, within the file.
        QVERIFY(!mix.lines.empty());
        for (const LineMix &line : mix.lines) {
            QVERIFY(isMainSourceFile(line.source.file, "spills.cu"));
            QVERIFY(line.source.line >= 1 && line.source.line <= 43);
        }
    }
    QVERIFY(instructionMix(*sass.listing.function("spills")).total.spills());
    // The inlined device functions keep their call sites.
    const SassFunction *lengths = sass.listing.function("lengths");
    QVERIFY(std::any_of(lengths->instructions.begin(), lengths->instructions.end(),
                        [](const SassInstruction &instruction) {
                            return instruction.source.line == 9 &&
                                   instruction.inlinedAt.size() == 2;
                        }));
}

CUWB_TEST_GUILESS_MAIN(TestNvdisasm)
} // namespace tst_nvdisasm
} // namespace

#include "tst_nvdisasm.moc"
