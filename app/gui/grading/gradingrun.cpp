#include "gui/grading/gradingrun.h"

#include "gui/common/cuwbcli.h"

namespace cuwb {

GradingRun::GradingRun(QObject *parent)
    : QObject(parent)
    , m_cliPath(findCuwbCli())
{
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&m_process, &QProcess::readyReadStandardError, this, &GradingRun::readMessages);
    connect(&m_process, &QProcess::finished, this, &GradingRun::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            Q_EMIT finished(tr("cannot start %1: %2").arg(m_cliPath, m_process.errorString()));
    });
}

GradingRun::~GradingRun()
{
    if (isRunning()) {
        m_process.disconnect(this);
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

void GradingRun::start(const QString &folder, bool measure)
{
    if (isRunning())
        return;
    m_summary = nlohmann::json();
    m_partialLine.clear();
    m_lastMessages.clear();
    m_cancelled = false;
    QStringList arguments{QStringLiteral("run"), folder, QStringLiteral("--json"),
                          QStringLiteral("--summary")};
    if (measure)
        arguments << QStringLiteral("--measure");
    arguments << m_extraArguments;
    m_process.start(m_cliPath, arguments);
}

void GradingRun::cancel()
{
    if (!isRunning())
        return;
    m_cancelled = true;
    m_process.terminate();
}

void GradingRun::readMessages()
{
    m_partialLine += m_process.readAllStandardError();
    qsizetype end = 0;
    while ((end = m_partialLine.indexOf('\n')) >= 0) {
        QString line = QString::fromUtf8(m_partialLine.left(end));
        m_partialLine.remove(0, end + 1);
        if (line.startsWith(QStringLiteral("cuwb run: ")))
            line.remove(0, 10);
        m_lastMessages << line;
        if (m_lastMessages.size() > 3)
            m_lastMessages.removeFirst();
        Q_EMIT message(line);
    }
}

void GradingRun::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readMessages();
    if (m_cancelled) {
        Q_EMIT finished(tr("cancelled"));
        return;
    }
    const QString said = m_lastMessages.join(QLatin1Char('\n'));
    // 0: every submission passed; 1: some did not, and all were graded; 5: the report could not
    // be written (it is still printed). Anything else: grading itself did not run.
    if (status != QProcess::NormalExit || (exitCode != 0 && exitCode != 1 && exitCode != 5)) {
        Q_EMIT finished(status != QProcess::NormalExit
                            ? tr("cuwb run crashed. %1").arg(said)
                            : tr("cuwb run ended with status %1. %2").arg(exitCode).arg(said));
        return;
    }
    const QByteArray out = m_process.readAllStandardOutput();
    nlohmann::json summary =
        nlohmann::json::parse(out.constData(), out.constData() + out.size(), nullptr, false);
    if (!summary.is_object() || !summary.contains("results")) {
        Q_EMIT finished(tr("cuwb run printed no grading summary. %1").arg(said));
        return;
    }
    m_summary = std::move(summary);
    Q_EMIT finished(QString());
}

} // namespace cuwb
