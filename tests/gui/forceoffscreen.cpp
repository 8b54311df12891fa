// Linked into every GUI test: the tests run offscreen even when started by hand on a machine
// with no display, as on CI, unless the caller chose a platform.
#include <QByteArray>

namespace {

void forceOffscreenPlatform()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
}

} // namespace

Q_CONSTRUCTOR_FUNCTION(forceOffscreenPlatform)
