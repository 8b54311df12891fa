// DeviceProbe: learns the GPUs by running `cuwb devices --json` as a child process, so the GUI
// never loads the CUDA driver itself. Asynchronous; a missing or failing tool becomes a plain
// message rather than an error dialog.
#pragma once

#include "device/deviceinfo.h"

#include <QObject>
#include <QProcess>
#include <QString>

namespace cuwb {

class DeviceProbe : public QObject
{
    Q_OBJECT

public:
    explicit DeviceProbe(QObject *parent = nullptr);
    ~DeviceProbe() override;

    void setCliPath(const QString &path) { m_cliPath = path; }

    // The worker target whose GPU to show (`cuwb devices --on TARGET`); empty: this machine.
    void setTarget(const QString &target) { m_target = target; }
    void start();
    // Drops a query in flight and starts another (after the target changed).
    void restart();
    [[nodiscard]] bool isFinished() const { return m_finished; }
    [[nodiscard]] const DeviceQuery &query() const { return m_query; }
    // The status-bar line: the GPU names, "No CUDA driver — compile-only mode", or why the
    // query failed.
    [[nodiscard]] QString summary() const { return m_summary; }
    // The first GPU's architecture ("sm_90"), empty when there is none.
    [[nodiscard]] QString firstArchitecture() const;

    // Parses the tool's output; public for tests.
    static bool parse(const QByteArray &json, DeviceQuery *query, QString *error);
    static QString describe(const DeviceQuery &query);

Q_SIGNALS:
    void finished();

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void finish(const QString &summary);

    QProcess *m_process = nullptr;
    QString m_cliPath;
    QString m_target;
    DeviceQuery m_query;
    QString m_summary;
    bool m_finished = false;
};

} // namespace cuwb
