// The cuwb executable the window runs as its child processes (the worker, the compile server,
// `cuwb devices`, `cuwb run` for grading): beside this program, or in ../bin (test
// executables). Every feature that starts cuwb asks here.
#pragma once

#include <QString>

namespace cuwb {

QString findCuwbCli();

} // namespace cuwb
