// Format: how numbers with units read in the sentences and tables of CUDA Workbench, in one
// place: sizes in bytes (binary units, as memory is allocated), sizes in decimal units (as
// bandwidth is quoted), durations from microseconds to hours, and counted nouns. The GUI's
// gui/common/format.h wraps these for QString; the CLI, the runner and the validation messages
// use them directly, so the same size reads the same everywhere.
#pragma once

#include <cstdint>
#include <string>

namespace cuwb {

// "1 sample", "3 samples": the word with an s when the count is not 1.
std::string plural(std::uint64_t count, const char *word);

// A count with its thousands grouped, as limits are quoted: "999", "10,000", "1,000,000".
std::string formatCount(std::uint64_t count);

// Binary units: "512 bytes", "1.5 MiB", "2.00 GiB" (below 1 MiB the exact count).
std::string formatBytes(std::uint64_t bytes);

// Decimal units with two decimals, as traffic and bandwidth are quoted: "512 B", "4.10 kB",
// "8.39 MB", "0.54 GB" (gigabytes from 0.1 GB on); "n/a" when not finite.
std::string formatDecimalBytes(double bytes);

// A wall-clock span: "850 ms", "42 s", "3 min 5 s", "2 h 10 min"; "unknown" when negative or
// not finite.
std::string formatDuration(double seconds);

// A number of seconds as a limit is quoted: "2", "0.5", "1e+03" (printf's %g).
std::string formatSeconds(double seconds);

// A kernel time given in nanoseconds, in microseconds with three decimals: "203.424 µs".
std::string formatMicroseconds(double nanoseconds);

} // namespace cuwb
