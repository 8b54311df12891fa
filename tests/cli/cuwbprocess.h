// Runs the real cuwb binary for the end-to-end tests of tests/cli: its exit code and what it
// printed. The cuwb beside the test is used when there is one (a portable bundle keeps every
// program in one folder and has no build tree), else the one the test was built with. A run
// that does not end within `timeoutMs` (two minutes) is killed and has exit code -1.
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

struct CuwbRun
{
    int exitCode = -1;
    QString out;
    QString err;
    QStringList outLines() const { return out.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }
};

inline CuwbRun runCuwbProcess(const QStringList &arguments,
                              const QString &workingDirectory = QString(),
                              const QByteArray &input = QByteArray(), int timeoutMs = 120000)
{
    QProcess process;
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    // What cuwb compiles is what a test checks: no compile cache on disk unless one is asked for.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (!environment.contains(QStringLiteral("CUWB_CACHE_DIR")))
        environment.insert(QStringLiteral("CUWB_CACHE_DIR"), QStringLiteral("off"));
    process.setProcessEnvironment(environment);
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/cuwb");
    process.start(QFileInfo(beside).isExecutable() ? beside : QStringLiteral(CUWB_CLI_PATH),
                  arguments);
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    CuwbRun run;
    if (!process.waitForFinished(timeoutMs) || process.exitStatus() != QProcess::NormalExit) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// A file of this test area's data/ folder.
inline QString dataFile(const char *name)
{
    return QStringLiteral(CUWB_TEST_DATA_DIR "/") + QLatin1String(name);
}
