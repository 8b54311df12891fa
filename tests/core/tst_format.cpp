// The one formatting module (core/util/format.h): sizes in binary and decimal units, at their
// boundaries; durations from milliseconds to hours; counted nouns; kernel times.
#include "util/format.h"

#include <QtTest>

#include <limits>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_format {

class TestFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void binaryBytes()
    {
        QCOMPARE(formatBytes(0), std::string("0 bytes"));
        QCOMPARE(formatBytes(49152), std::string("49152 bytes"));
        QCOMPARE(formatBytes((1ull << 20) - 1), std::string("1048575 bytes"));
        QCOMPARE(formatBytes(1ull << 20), std::string("1.0 MiB"));
        QCOMPARE(formatBytes(3ull << 19), std::string("1.5 MiB"));
        QCOMPARE(formatBytes(1ull << 30), std::string("1.00 GiB"));
        QCOMPARE(formatBytes(150ull << 30), std::string("150.00 GiB"));
    }

    void decimalBytes()
    {
        QCOMPARE(formatDecimalBytes(512.0), std::string("512 B"));
        QCOMPARE(formatDecimalBytes(4096.0), std::string("4.10 kB"));
        QCOMPARE(formatDecimalBytes(8.0 * 1024 * 1024), std::string("8.39 MB"));
        QCOMPARE(formatDecimalBytes(536870912.0), std::string("0.54 GB"));
        QCOMPARE(formatDecimalBytes(2147483648.0), std::string("2.15 GB"));
        QCOMPARE(formatDecimalBytes(-4096.0), std::string("-4.10 kB"));
        QCOMPARE(formatDecimalBytes(std::numeric_limits<double>::quiet_NaN()), std::string("n/a"));
    }

    void durations()
    {
        QCOMPARE(formatDuration(0.85), std::string("850 ms"));
        QCOMPARE(formatDuration(42.0), std::string("42 s"));
        QCOMPARE(formatDuration(185.0), std::string("3 min 5 s"));
        QCOMPARE(formatDuration(7800.0), std::string("2 h 10 min"));
        QCOMPARE(formatDuration(-1.0), std::string("unknown"));
        QCOMPARE(formatDuration(std::numeric_limits<double>::infinity()), std::string("unknown"));
    }

    void countsAndTimes()
    {
        QCOMPARE(plural(1, "sample"), std::string("1 sample"));
        QCOMPARE(plural(0, "sample"), std::string("0 samples"));
        QCOMPARE(plural(3, "error"), std::string("3 errors"));
        QCOMPARE(formatMicroseconds(203424.0), std::string("203.424 µs"));
    }

    void groupedCounts()
    {
        QCOMPARE(formatCount(0), std::string("0"));
        QCOMPARE(formatCount(999), std::string("999"));
        QCOMPARE(formatCount(1000), std::string("1,000"));
        QCOMPARE(formatCount(1002001), std::string("1,002,001"));
        QCOMPARE(formatCount(std::numeric_limits<std::uint64_t>::max()),
                 std::string("18,446,744,073,709,551,615"));
    }
};

CUWB_TEST_GUILESS_MAIN(TestFormat)
} // namespace tst_format
} // namespace

#include "tst_format.moc"
