// The projects of the corpus of public kernels (tests/realworld/), for the test suites that
// check (tests/cli) and run (tests/gpu) every one of them, as data rows named by their path.
#pragma once

#include <QDir>
#include <QDirIterator>
#include <QStringList>
#include <QTest>

inline QString realWorldDir()
{
    return QStringLiteral(CUWB_TEST_DATA_DIR "/../../realworld");
}

// One row per *.cuwb (a *.cuwb.pending project waits for a feature and is left out), in order.
inline int addRealWorldRows()
{
    QTest::addColumn<QString>("project");
    QDirIterator it(realWorldDir(), {QStringLiteral("*.cuwb")}, QDir::Files,
                    QDirIterator::Subdirectories);
    QStringList projects;
    while (it.hasNext())
        projects << it.next();
    projects.sort();
    for (const QString &project : projects)
        QTest::newRow(qPrintable(QDir(realWorldDir()).relativeFilePath(project))) << project;
    return int(projects.size());
}
