// Architecture table: every architecture NVRTC can target has limits, variant suffixes map to
// their base architecture, and a few values are pinned to the programming guide's table.
#include "cuda/nvrtcinfo.h"
#include "device/archlimits.h"

#include <QtTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_archlimits {

class TestArchLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesArchitectureNames_data();
    void parsesArchitectureNames();
    void rejectsMalformedNames_data();
    void rejectsMalformedNames();
    void knowsEveryNvrtcArchitecture();
    void pinsGuideValues();
    void variantsShareTheBaseLimits();
    void unknownArchitectureHasNoLimits();
};

void TestArchLimits::parsesArchitectureNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("major");
    QTest::addColumn<int>("minor");
    QTest::newRow("sm_90") << QStringLiteral("sm_90") << 9 << 0;
    QTest::newRow("sm_90a") << QStringLiteral("sm_90a") << 9 << 0;
    QTest::newRow("sm_100f") << QStringLiteral("sm_100f") << 10 << 0;
    QTest::newRow("sm_121") << QStringLiteral("sm_121") << 12 << 1;
    QTest::newRow("compute_86") << QStringLiteral("compute_86") << 8 << 6;
    QTest::newRow("bare number") << QStringLiteral("75") << 7 << 5;
}

void TestArchLimits::parsesArchitectureNames()
{
    QFETCH(QString, name);
    QFETCH(int, major);
    QFETCH(int, minor);
    const auto parsed = parseArch(name.toStdString());
    QVERIFY(parsed.has_value());
    QCOMPARE(parsed->first, major);
    QCOMPARE(parsed->second, minor);
}

void TestArchLimits::rejectsMalformedNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("empty") << QString();
    QTest::newRow("prefix only") << QStringLiteral("sm_");
    QTest::newRow("letters") << QStringLiteral("sm_9x");
    QTest::newRow("one digit") << QStringLiteral("sm_9");
    QTest::newRow("other vendor") << QStringLiteral("gfx90a");
    QTest::newRow("negative") << QStringLiteral("sm_-90");
}

void TestArchLimits::rejectsMalformedNames()
{
    QFETCH(QString, name);
    QVERIFY(!parseArch(name.toStdString()).has_value());
    QVERIFY(!archLimits(name.toStdString()).has_value());
}

void TestArchLimits::knowsEveryNvrtcArchitecture()
{
    const std::vector<std::string> &archs = nvrtcSupportedArchs();
    QVERIFY(!archs.empty());
    for (const std::string &arch : archs) {
        const auto limits = archLimits(arch);
        QVERIFY2(limits.has_value(), arch.c_str());
        QCOMPARE(limits->name(), arch);
        QVERIFY(limits->maxThreadsPerSm % limits->warpSize == 0);
        QVERIFY(limits->maxThreadsPerSm >= limits->maxThreadsPerBlock);
        QVERIFY(limits->sharedPerBlockOptinBytes >= limits->sharedPerBlockBytes);
        QCOMPARE(limits->sharedPerBlockOptinBytes + limits->reservedSharedPerBlockBytes,
                 limits->sharedPerSmBytes);
        // The driver reserves 1 KB per block from Ampere on, nothing before.
        QCOMPARE(limits->reservedSharedPerBlockBytes, std::size_t(limits->major >= 8 ? 1024 : 0));
    }
}

void TestArchLimits::pinsGuideValues()
{
    const ArchLimits sm80 = archLimits("sm_80").value();
    QCOMPARE(sm80.maxThreadsPerSm, 2048);
    QCOMPARE(sm80.maxBlocksPerSm, 32);
    QCOMPARE(sm80.registersPerSm, 65536);
    QCOMPARE(sm80.maxRegistersPerThread, 255);
    QCOMPARE(sm80.sharedPerSmBytes, std::size_t(164 * 1024));
    QCOMPARE(sm80.sharedPerBlockOptinBytes, std::size_t(163 * 1024));
    QCOMPARE(sm80.sharedPerBlockBytes, std::size_t(48 * 1024));

    const ArchLimits sm86 = archLimits("sm_86").value();
    QCOMPARE(sm86.maxThreadsPerSm, 1536);
    QCOMPARE(sm86.maxBlocksPerSm, 16);
    QCOMPARE(sm86.sharedPerSmBytes, std::size_t(100 * 1024));

    const ArchLimits sm89 = archLimits("sm_89").value();
    QCOMPARE(sm89.maxBlocksPerSm, 24);

    const ArchLimits sm90 = archLimits("sm_90").value();
    QCOMPARE(sm90.maxThreadsPerSm, 2048);
    QCOMPARE(sm90.maxBlocksPerSm, 32);
    QCOMPARE(sm90.sharedPerSmBytes, std::size_t(228 * 1024));
    QCOMPARE(sm90.sharedPerBlockOptinBytes, std::size_t(227 * 1024));

    const ArchLimits sm75 = archLimits("sm_75").value();
    QCOMPARE(sm75.maxThreadsPerSm, 1024);
    QCOMPARE(sm75.maxBlocksPerSm, 16);
    QCOMPARE(sm75.sharedPerBlockOptinBytes, std::size_t(64 * 1024));

    const ArchLimits sm120 = archLimits("sm_120").value();
    QCOMPARE(sm120.maxThreadsPerSm, 1536);
    QCOMPARE(sm120.sharedPerBlockOptinBytes, std::size_t(99 * 1024));
}

void TestArchLimits::variantsShareTheBaseLimits()
{
    const ArchLimits base = archLimits("sm_100").value();
    for (const char *variant : {"sm_100a", "sm_100f", "compute_100"}) {
        const ArchLimits limits = archLimits(variant).value();
        QCOMPARE(limits.name(), std::string("sm_100"));
        QCOMPARE(limits.sharedPerSmBytes, base.sharedPerSmBytes);
        QCOMPARE(limits.maxBlocksPerSm, base.maxBlocksPerSm);
    }
}

void TestArchLimits::unknownArchitectureHasNoLimits()
{
    QVERIFY(!archLimits("sm_50").has_value());
    QVERIFY(!archLimits("sm_101").has_value()); // renamed sm_110 in CUDA 13
    QVERIFY(archLimits("sm_110").has_value());
    const std::vector<std::string> known = knownArchs();
    QCOMPARE(known.front(), std::string("sm_75"));
    QVERIFY(std::is_sorted(known.begin(), known.end(), [](const auto &a, const auto &b) {
        return parseArch(a)->first * 10 + parseArch(a)->second <
               parseArch(b)->first * 10 + parseArch(b)->second;
    }));
}

CUWB_TEST_APPLESS_MAIN(TestArchLimits)
} // namespace tst_archlimits
} // namespace

#include "tst_archlimits.moc"
