#include "gui/device/deviceprobe.h"

#include "gui/common/cuwbcli.h"

#include "device/devicejson.h"
#include "gui/common/qtconvert.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <exception>

namespace cuwb {

DeviceProbe::DeviceProbe(QObject *parent)
    : QObject(parent)
    , m_cliPath(findCuwbCli())
{}

DeviceProbe::~DeviceProbe()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

void DeviceProbe::start()
{
    if (m_process)
        return;
    m_finished = false;
    if (!QFileInfo(m_cliPath).isExecutable()) {
        finish(
            tr("Device query unavailable: %1 not found").arg(QDir::toNativeSeparators(m_cliPath)));
        return;
    }
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    connect(m_process, &QProcess::finished, this, &DeviceProbe::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &DeviceProbe::onError);
    QStringList arguments{QStringLiteral("devices"), QStringLiteral("--json")};
    if (!m_target.isEmpty())
        arguments << QStringLiteral("--on") << m_target;
    m_process->start(m_cliPath, arguments);
}

void DeviceProbe::restart()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
        m_process->deleteLater();
        m_process = nullptr;
    }
    start();
}

bool DeviceProbe::parse(const QByteArray &json, DeviceQuery *query, QString *error)
{
    try {
        const nlohmann::json parsed = nlohmann::json::parse(json.constBegin(), json.constEnd());
        *query = parsed.get<DeviceQuery>();
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

QString DeviceProbe::describe(const DeviceQuery &query)
{
    if (!query.driverLoaded)
        return tr("No CUDA driver \u2014 compile-only mode");
    if (query.devices.empty()) {
        if (!query.message.empty())
            return tr("No GPU: %1 \u2014 compile-only mode").arg(toQString(query.message));
        return tr("No GPU \u2014 compile-only mode");
    }
    QStringList names;
    for (const DeviceInfo &device : query.devices)
        names << tr("%1 (%2)").arg(toQString(device.name), toQString(device.arch()));
    return names.join(QStringLiteral(", "));
}

QString DeviceProbe::firstArchitecture() const
{
    return m_query.devices.empty() ? QString() : toQString(m_query.devices.front().arch());
}

void DeviceProbe::onFinished(int exitCode, QProcess::ExitStatus status)
{
    const QByteArray output = m_process->readAllStandardOutput();
    const QString errors = QString::fromUtf8(m_process->readAllStandardError()).trimmed();
    m_process->deleteLater();
    m_process = nullptr;
    if (status != QProcess::NormalExit) {
        finish(tr("Device query failed: cuwb crashed"));
        return;
    }
    DeviceQuery query;
    QString parseError;
    // `cuwb devices` may exit non-zero when there is no GPU and still describe why.
    if (parse(output, &query, &parseError)) {
        m_query = query;
        finish(describe(query));
        return;
    }
    QString reason = errors.isEmpty() ? parseError : errors.section(QLatin1Char('\n'), 0, 0);
    finish(tr("Device query failed (exit code %1): %2").arg(exitCode).arg(reason));
}

void DeviceProbe::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || !m_process)
        return; // other errors end in finished()
    const QString reason = m_process->errorString();
    m_process->deleteLater();
    m_process = nullptr;
    finish(tr("Device query failed: %1").arg(reason));
}

void DeviceProbe::finish(const QString &summary)
{
    m_summary = summary;
    m_finished = true;
    Q_EMIT finished();
}

} // namespace cuwb
