// The compile cache on disk, with real NVRTC compiles (no GPU needed): a second compiler finds
// what the first stored, with the same module and kernels; an edited header, other options or a
// damaged file are misses; a compile error is stored with its diagnostics, a compile that could
// not run (refused options, a crash, a time limit) never; the folder is chosen from the
// environment.
#include "compiler/compilecache.h"
#include "compiler/kernelcompiler.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_compilecache {

class TestCompileCache : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void secondCompilerFindsTheFirstsResult();
    void editedHeaderIsAMiss();
    void compileErrorsAreStored();
    void compilesThatCouldNotRunAreNotStored();
    void damagedFileIsAMiss();
    void entryThatIsNoFileIsAMiss();
    void folderFromTheEnvironment();
    void staysWithinItsBounds();
};

namespace {

const char *const kSource = "#include \"tile.h\"\n"
                            "__global__ void scale(float *x, int n)\n"
                            "{ int i = threadIdx.x; if (i < n) x[i] *= TILE; }\n";

void writeHeader(const QString &dir, const char *text)
{
    std::ofstream(std::filesystem::path(dir.toStdString()) / "tile.h") << text;
}

CompileOptions optionsFor(const QString &dir)
{
    CompileOptions options;
    options.includeDirs = {dir.toStdString()};
    return options;
}

// kSource with `sourceDir`'s header, compiled through `cache` by a compiler of its own (no
// memory cache): what a new `cuwb` process finds.
CompileResult compileThrough(const std::shared_ptr<CompileCache> &cache,
                             const QTemporaryDir &sourceDir)
{
    KernelCompiler compiler(0);
    compiler.setDiskCache(cache);
    return compiler.compile(kSource, "scale.cu", optionsFor(sourceDir.path()));
}

// Writes the header into `sourceDir` and compiles through `cache` in `cacheDir`: the path of
// the one entry that makes, or empty when the compile failed or stored no single entry.
QString storeOneEntry(const std::shared_ptr<CompileCache> &cache, const QTemporaryDir &cacheDir,
                      const QTemporaryDir &sourceDir)
{
    writeHeader(sourceDir.path(), "#define TILE 4\n");
    if (!compileThrough(cache, sourceDir).success)
        return {};
    const QStringList files = QDir(cacheDir.path()).entryList({QStringLiteral("*.json")});
    return files.size() == 1 ? QDir(cacheDir.path()).filePath(files.front()) : QString();
}

} // namespace

void TestCompileCache::secondCompilerFindsTheFirstsResult()
{
    QTemporaryDir cacheDir;
    QTemporaryDir sourceDir;
    writeHeader(sourceDir.path(), "#define TILE 4\n");
    auto cache = std::make_shared<CompileCache>(cacheDir.path().toStdString());

    KernelCompiler first(0);
    first.setDiskCache(cache);
    const CompileResult compiled = first.compile(kSource, "scale.cu", optionsFor(sourceDir.path()));
    QVERIFY2(compiled.success, compiled.log.c_str());
    QVERIFY(!compiled.fromCache);
    QCOMPARE(QDir(cacheDir.path()).entryList({QStringLiteral("*.json")}).size(), 1);

    KernelCompiler second(4);
    second.setDiskCache(cache);
    const CompileResult loaded = second.compile(kSource, "scale.cu", optionsFor(sourceDir.path()));
    QVERIFY(loaded.success);
    QVERIFY(loaded.fromCache);
    QCOMPARE(loaded.cubin, compiled.cubin);
    QCOMPARE(loaded.ptx, compiled.ptx);
    QCOMPARE(loaded.kernels.size(), std::size_t(1));
    QCOMPARE(loaded.kernels[0].loweredName, compiled.kernels[0].loweredName);
    QCOMPARE(loaded.kernels[0].resources, compiled.kernels[0].resources);
    QCOMPARE(loaded.kernels[0].sourceLine, compiled.kernels[0].sourceLine);
    QCOMPARE(loaded.diagnostics.size(), compiled.diagnostics.size());
    QCOMPARE(loaded.options, compiled.options);

    // Other options are another key.
    CompileOptions other = optionsFor(sourceDir.path());
    other.maxRegisters = 32;
    QVERIFY(!second.compile(kSource, "scale.cu", other).fromCache);
}

void TestCompileCache::editedHeaderIsAMiss()
{
    QTemporaryDir cacheDir;
    QTemporaryDir sourceDir;
    writeHeader(sourceDir.path(), "#define TILE 4\n");
    const CompileCache cache(cacheDir.path().toStdString());
    const auto before = cache.key(kSource, "scale.cu", optionsFor(sourceDir.path()));
    QVERIFY(before);
    writeHeader(sourceDir.path(), "#define TILE 16 /* a longer header */\n");
    const auto after = cache.key(kSource, "scale.cu", optionsFor(sourceDir.path()));
    QVERIFY(after);
    QVERIFY(*before != *after);
}

void TestCompileCache::compileErrorsAreStored()
{
    QTemporaryDir cacheDir;
    QTemporaryDir sourceDir;
    writeHeader(sourceDir.path(), "#define TILE missing_name\n");
    auto cache = std::make_shared<CompileCache>(cacheDir.path().toStdString());
    KernelCompiler first(0);
    first.setDiskCache(cache);
    const CompileResult failed = first.compile(kSource, "scale.cu", optionsFor(sourceDir.path()));
    QVERIFY(!failed.success);
    QVERIFY(failed.failureMessage.empty());
    QVERIFY(!failed.fromCache);
    QCOMPARE(QDir(cacheDir.path()).entryList({QStringLiteral("*.json")}).size(), 1);

    // Another compiler (another process: cuwb check, then cuwb sweep --list) gets the same
    // diagnostics without compiling.
    KernelCompiler second(0);
    second.setDiskCache(cache);
    const CompileResult again = second.compile(kSource, "scale.cu", optionsFor(sourceDir.path()));
    QVERIFY(again.fromCache);
    QVERIFY(!again.success);
    QCOMPARE(again.diagnostics, failed.diagnostics);
    QCOMPARE(again.log, failed.log);
    QCOMPARE(again.counts().errors, failed.counts().errors);
    QVERIFY(again.cubin.empty());

    // A fixed header is another key: compiled, and it succeeds.
    writeHeader(sourceDir.path(), "#define TILE 4 /* fixed */\n");
    const CompileResult fixed = second.compile(kSource, "scale.cu", optionsFor(sourceDir.path()));
    QVERIFY(fixed.success);
    QVERIFY(!fixed.fromCache);
}

void TestCompileCache::compilesThatCouldNotRunAreNotStored()
{
    QTemporaryDir cacheDir;
    QTemporaryDir sourceDir;
    writeHeader(sourceDir.path(), "#define TILE 4\n");
    auto cache = std::make_shared<CompileCache>(cacheDir.path().toStdString());
    KernelCompiler compiler(0);
    compiler.setDiskCache(cache);
    // Options the compiler refuses: the compile never ran.
    CompileOptions refused = optionsFor(sourceDir.path());
    refused.optLevel = 9;
    const CompileResult result = compiler.compile(kSource, "scale.cu", refused);
    QVERIFY(!result.success);
    QVERIFY(!result.failureMessage.empty());
    QVERIFY(QDir(cacheDir.path()).entryList({QStringLiteral("*.json")}).isEmpty());

    // A compile server that crashed or ran out of time says so in a failureMessage: never kept,
    // so the next try compiles again.
    CompileResult crashed;
    crashed.failureMessage = "the compiler process crashed (SIGSEGV)";
    QVERIFY(!CompileCache::storable(crashed));
    CompileResult timedOut;
    timedOut.failureMessage = "the compile ran past its time limit of 180 s";
    Diagnostic partial;
    partial.message = "an error before the time limit";
    timedOut.diagnostics.push_back(partial);
    QVERIFY(!CompileCache::storable(timedOut));
    const auto key = cache->key(kSource, "scale.cu", optionsFor(sourceDir.path()));
    QVERIFY(key);
    cache->store(*key, crashed);
    cache->store(*key, timedOut);
    QVERIFY(QDir(cacheDir.path()).entryList({QStringLiteral("*.json")}).isEmpty());
    QVERIFY(!cache->load(*key, kSource, "scale.cu"));
    // A failure without a word of why is not what the source compiles to either.
    QVERIFY(!CompileCache::storable(CompileResult{}));
}

void TestCompileCache::damagedFileIsAMiss()
{
    QTemporaryDir cacheDir;
    QTemporaryDir sourceDir;
    auto cache = std::make_shared<CompileCache>(cacheDir.path().toStdString());
    const QString entry = storeOneEntry(cache, cacheDir, sourceDir);
    QVERIFY(!entry.isEmpty());
    QFile file(entry);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("{\"format\": 1, \"ptx\": ");
    file.close();
    const CompileResult again = compileThrough(cache, sourceDir);
    QVERIFY(again.success);
    QVERIFY(!again.fromCache); // compiled again, and stored whole again
    QVERIFY(compileThrough(cache, sourceDir).fromCache);
}

// An entry replaced by a FIFO once blocked `cuwb check` forever; one nested far deeper than an
// entry would have crashed whoever copied its tree. Each is a miss, and the compile stores a
// whole entry in its place.
void TestCompileCache::entryThatIsNoFileIsAMiss()
{
    QTemporaryDir cacheDir;
    QTemporaryDir sourceDir;
    auto cache = std::make_shared<CompileCache>(cacheDir.path().toStdString());
    const QString entry = storeOneEntry(cache, cacheDir, sourceDir);
    QVERIFY(!entry.isEmpty());

    QVERIFY(QFile::remove(entry));
    QCOMPARE(::mkfifo(QFile::encodeName(entry).constData(), 0600), 0);
    const CompileResult overFifo = compileThrough(cache, sourceDir);
    QVERIFY(overFifo.success);
    QVERIFY(!overFifo.fromCache);

    QFile deep(entry);
    QVERIFY(deep.open(QIODevice::WriteOnly | QIODevice::Truncate));
    deep.write("{\"format\": 3, \"x\": " + QByteArray(100000, '[') + QByteArray(100000, ']') + "}");
    deep.close();
    const CompileResult overDeep = compileThrough(cache, sourceDir);
    QVERIFY(overDeep.success);
    QVERIFY(!overDeep.fromCache);
    QVERIFY(compileThrough(cache, sourceDir).fromCache);
}

void TestCompileCache::folderFromTheEnvironment()
{
    qputenv("CUWB_CACHE_DIR", "off");
    QVERIFY(!CompileCache::defaultFolder());
    qputenv("CUWB_CACHE_DIR", "/somewhere/kernels");
    QCOMPARE(CompileCache::defaultFolder().value_or(""), std::string("/somewhere/kernels"));
    qunsetenv("CUWB_CACHE_DIR");
    qputenv("XDG_CACHE_HOME", "/xdg");
    QCOMPARE(CompileCache::defaultFolder().value_or(""),
             std::string("/xdg/cuda-workbench/kernels"));
    qunsetenv("XDG_CACHE_HOME");
}

void TestCompileCache::staysWithinItsBounds()
{
    QTemporaryDir cacheDir;
    QTemporaryDir sourceDir;
    writeHeader(sourceDir.path(), "#define TILE 4\n");
    // Room for two entries: the third store removes the oldest.
    auto cache = std::make_shared<CompileCache>(cacheDir.path().toStdString(), 2);
    KernelCompiler compiler(0);
    compiler.setDiskCache(cache);
    for (int registers : {32, 40, 48}) {
        CompileOptions options = optionsFor(sourceDir.path());
        options.maxRegisters = registers;
        QVERIFY(compiler.compile(kSource, "scale.cu", options).success);
        QTest::qWait(20); // distinct write times
    }
    QCOMPARE(QDir(cacheDir.path()).entryList({QStringLiteral("*.json")}).size(), 2);
    CompileOptions newest = optionsFor(sourceDir.path());
    newest.maxRegisters = 48;
    QVERIFY(compiler.compile(kSource, "scale.cu", newest).fromCache);
    CompileOptions oldest = optionsFor(sourceDir.path());
    oldest.maxRegisters = 32;
    QVERIFY(!compiler.compile(kSource, "scale.cu", oldest).fromCache);

    // A byte bound smaller than one entry keeps only what was just stored.
    QTemporaryDir tinyDir;
    auto tiny = std::make_shared<CompileCache>(tinyDir.path().toStdString(), 100, 1);
    KernelCompiler small(0);
    small.setDiskCache(tiny);
    for (int registers : {32, 40}) {
        CompileOptions options = optionsFor(sourceDir.path());
        options.maxRegisters = registers;
        QVERIFY(small.compile(kSource, "scale.cu", options).success);
        QTest::qWait(20);
    }
    QCOMPARE(QDir(tinyDir.path()).entryList({QStringLiteral("*.json")}).size(), 1);
}

CUWB_TEST_GUILESS_MAIN(TestCompileCache)
} // namespace tst_compilecache
} // namespace

#include "tst_compilecache.moc"
