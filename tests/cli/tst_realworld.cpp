// The corpus of public kernels (tests/realworld/) without a GPU: every project passes
// `cuwb check` (its kernel named as written in the source, its defines, globals and
// verification), and its sweep expands with runnable points (`cuwb sweep --list`).
#include "../support/projectrows.h"
#include "cuwbprocess.h"

#include <QTemporaryDir>
#include <QtTest>

#include "support/testmain.h"

namespace {
namespace tst_realworld {

class TestRealWorld : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void checksAndLists_data();
    void checksAndLists();
};

// One compile cache for the whole corpus, as a user's: `check` and `sweep --list` of a project,
// and the projects of one file, share the variants they have in common (each is an nvcc run).
void TestRealWorld::initTestCase()
{
    static QTemporaryDir cache;
    QVERIFY(cache.isValid());
    qputenv("CUWB_CACHE_DIR", cache.path().toLocal8Bit());
}

void TestRealWorld::checksAndLists_data()
{
    QVERIFY2(addProjectRows(realWorldDir()) >= 80,
             "the corpus: 42 projects of issue 10's collections, 43 of issue 26's whole files");
}

void TestRealWorld::checksAndLists()
{
    QFETCH(QString, project);
    const CuwbRun check = runCuwbProcess({QStringLiteral("check"), project});
    QVERIFY2(check.exitCode == 0, qPrintable(check.out + check.err));
    const CuwbRun list =
        runCuwbProcess({QStringLiteral("sweep"), project, QStringLiteral("--list")});
    QVERIFY2(list.exitCode == 0, qPrintable(list.out + list.err));
    QVERIFY2(!list.out.contains(QStringLiteral(" 0 to measure")), qPrintable(list.out));
}

CUWB_TEST_GUILESS_MAIN(TestRealWorld)
} // namespace tst_realworld
} // namespace

#include "tst_realworld.moc"
