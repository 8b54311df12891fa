// Format for the GUI: the sizes, durations and times of util/format.h as QString, so a panel,
// a chart and the command line write the same size the same way, plus the compact byte count
// of a table cell ("1024 B") and a kernel's time from microseconds to milliseconds.
#pragma once

#include "gui/common/qtconvert.h"
#include "util/format.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>

namespace cuwb {

// Binary units for memory: "512 bytes", "1.5 MiB", "79.65 GiB".
inline QString bytesText(std::uint64_t bytes)
{
    return toQString(formatBytes(bytes));
}

// Decimal units for traffic: "4.10 kB", "8.39 MB", "0.54 GB".
inline QString decimalBytesText(double bytes)
{
    return toQString(formatDecimalBytes(bytes));
}

// A table cell of bytes, exact and short: "1024 B".
inline QString compactBytesText(long long bytes)
{
    return QCoreApplication::translate("Format", "%1 B").arg(bytes);
}

// "850 ms", "42 s", "3 min 5 s".
inline QString durationText(double seconds)
{
    return toQString(formatDuration(seconds));
}

// A kernel's time: "12.3 µs" below a millisecond, else "1.250 ms".
inline QString kernelTimeText(double milliseconds)
{
    if (milliseconds < 1.0)
        return QCoreApplication::translate("Format", "%1 \u00b5s")
            .arg(QString::number(milliseconds * 1000.0, 'f', 1));
    return QCoreApplication::translate("Format", "%1 ms")
        .arg(QString::number(milliseconds, 'f', 3));
}

} // namespace cuwb
