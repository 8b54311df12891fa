// GradingRun: a class graded from the window — `cuwb run FOLDER --json --summary [--measure]`
// as a child process, exactly what a grader runs on the command line (docs/grading.md): every
// submission read in a confined process of its own, compiled in a sandbox, run in a worker of
// its own. Nothing blocks the GUI thread: the process is asynchronous, its messages arrive as
// they are printed, and the summary document (a few kilobytes a submission) is parsed when it
// ends.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace cuwb {

class GradingRun : public QObject
{
    Q_OBJECT

public:
    explicit GradingRun(QObject *parent = nullptr);
    ~GradingRun() override; // stops a grading still running (its workers end with it)

    // The cuwb to run (default: the one beside the application) and arguments to add (a test's
    // --worker).
    void setCliPath(const QString &path) { m_cliPath = path; }
    [[nodiscard]] const QString &cliPath() const { return m_cliPath; }
    void setExtraArguments(const QStringList &arguments) { m_extraArguments = arguments; }

    void start(const QString &folder, bool measure);
    void cancel();
    [[nodiscard]] bool isRunning() const { return m_process.state() != QProcess::NotRunning; }

    // The --summary document of the last grading that finished without an error.
    [[nodiscard]] const nlohmann::json &summary() const { return m_summary; }

Q_SIGNALS:
    void message(const QString &line);   // one line cuwb wrote to its standard error
    void finished(const QString &error); // empty: summary() holds the class

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void readMessages();

    QString m_cliPath;
    QStringList m_extraArguments;
    QProcess m_process;
    QByteArray m_partialLine;
    QStringList m_lastMessages; // for an error: what cuwb said last
    bool m_cancelled = false;
    nlohmann::json m_summary;
};

} // namespace cuwb
