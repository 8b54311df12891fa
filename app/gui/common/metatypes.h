// The core's value types that travel in queued signals and QVariants (QSignalSpy), declared
// once: every header whose signals carry one includes this, so that the declaration comes
// before any use in the translation unit that compiles all the moc files together.
#pragma once

#include "inspect/instructioncounters.h"
#include "measure/measurement.h"
#include "measure/metrics.h"
#include "run/runresult.h"
#include "worker/protocol.h"

#include <QMetaType>

Q_DECLARE_METATYPE(cuwb::RunResult)
Q_DECLARE_METATYPE(cuwb::Page)
Q_DECLARE_METATYPE(cuwb::Measurement)
Q_DECLARE_METATYPE(cuwb::HelloReply)
Q_DECLARE_METATYPE(cuwb::MetricsResult)
Q_DECLARE_METATYPE(cuwb::InspectResult)
