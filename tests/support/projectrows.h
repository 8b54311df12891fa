// Data rows of project files for the suites that check (tests/cli) or run (tests/gpu) a
// folder of projects: the samples, and the corpus of public kernels (tests/realworld/).
#pragma once

#include <QDir>
#include <QDirIterator>
#include <QStringList>
#include <QTest>

inline QString realWorldDir()
{
    return QStringLiteral(CUWB_TEST_DATA_DIR "/../../realworld");
}

// One row "project" per *.cuwb under `folder`, named by its relative path, in order (a
// *.cuwb.pending project waits for a feature and is left out); returns how many.
inline int addProjectRows(const QString &folder)
{
    QTest::addColumn<QString>("project");
    QDirIterator it(folder, {QStringLiteral("*.cuwb")}, QDir::Files, QDirIterator::Subdirectories);
    QStringList projects;
    while (it.hasNext())
        projects << it.next();
    projects.sort();
    for (const QString &project : projects)
        QTest::newRow(qPrintable(QDir(folder).relativeFilePath(project))) << project;
    return int(projects.size());
}
