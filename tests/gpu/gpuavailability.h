// Shared by the gpu tests: why this machine cannot run them (an empty string when it can), and
// the cuwb they start.
#pragma once

#include "cuda/driverapi.h"
#include "device/deviceinfo.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QString>

// Skips the test function with the test class's m_skipReason (gpuSkipReason()) when it is set.
// QSKIP returns from the function it is in, so this must be a macro, not a helper.
#define CUWB_NEED_GPU()                                                                            \
    do {                                                                                           \
        if (!m_skipReason.isEmpty())                                                               \
            QSKIP(qPrintable(m_skipReason));                                                       \
    } while (false)

inline QString gpuSkipReason()
{
    const cuwb::DriverApi &driver = cuwb::DriverApi::instance();
    if (!driver.available())
        return QStringLiteral("needs a GPU: no CUDA driver (%1)")
            .arg(QString::fromStdString(driver.unavailableReason()));
    const cuwb::DeviceQuery query = cuwb::queryDevices();
    if (query.devices.empty())
        return QStringLiteral("needs a GPU: %1").arg(QString::fromStdString(query.message));
    return QString();
}

// The cuwb beside the test (a portable bundle keeps every program in one folder and has no build
// tree), else the one the test was built with.
inline QString cuwbBesideTest()
{
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/cuwb");
    return QFileInfo(beside).isExecutable() ? beside : QStringLiteral(CUWB_CLI_PATH);
}
