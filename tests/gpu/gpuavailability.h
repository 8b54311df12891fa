// Shared by the gpu tests: why this machine cannot run them, or an empty string when it can.
#pragma once

#include "cuda/driverapi.h"
#include "device/deviceinfo.h"

#include <QString>

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
