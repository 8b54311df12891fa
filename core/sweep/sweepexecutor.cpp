#include "sweep/sweepexecutor.h"

namespace cuwb {

SweepExecutor::~SweepExecutor() = default;

} // namespace cuwb
