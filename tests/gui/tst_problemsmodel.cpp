#include "gui/compile/problemsmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_problemsmodel {

class TestProblemsModel : public QObject
{
    Q_OBJECT

private:
    static Diagnostic diagnostic(Severity severity, int line, int column, const char *message,
                                 const char *code = "")
    {
        Diagnostic d;
        d.file = "kernel.cu";
        d.line = line;
        d.column = column;
        d.severity = severity;
        d.message = message;
        d.code = code;
        return d;
    }

    static std::vector<Diagnostic> sample()
    {
        Diagnostic templateError =
            diagnostic(Severity::Error, 16, 12, "expression must have class type");
        Diagnostic note = diagnostic(Severity::Note, 26, 0,
                                     "detected during instantiation of \"valueOf<float>\"");
        templateError.notes.push_back(note);
        return {
            diagnostic(Severity::Error, 25, 13, "identifier \"count\" is undefined"),
            templateError,
            diagnostic(Severity::Warning, 24, 9,
                       "variable \"unused\" was declared but never referenced", "177-D"),
            diagnostic(Severity::Remark, 3, 1, "a remark"),
        };
    }

private Q_SLOTS:
    void launchFindingsFollowTheCompilesDiagnostics()
    {
        ProblemsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiagnostics(sample());
        model.setLaunchFindings({{"verification: expression",
                                  "the verification expression did not compile: verification "
                                  "expression:1:8: identifier \"d\" is undefined",
                                  -1},
                                 {"argument a: init file", "`a.npy` holds dtype <f8", -1}});
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.findingCount(), std::size_t(2));
        const QModelIndex finding = model.index(4, ProblemsModel::MessageColumn);
        QCOMPARE(finding.data().toString(),
                 QStringLiteral("verification: expression: the verification expression did not "
                                "compile: verification expression:1:8: identifier \"d\" is "
                                "undefined"));
        QCOMPARE(model.index(4, 0).data(ProblemsModel::SeverityRole).toInt(), int(Severity::Error));
        // No place in the source: activating it goes nowhere.
        QCOMPARE(model.index(4, 0).data(ProblemsModel::LineRole).toInt(), 0);
        // A new compile keeps the launch's findings; new findings keep the compile's rows.
        model.setDiagnostics({});
        QCOMPARE(model.rowCount(), 2);
        model.setDiagnostics(sample());
        model.setLaunchFindings({});
        QCOMPARE(model.rowCount(), 4);
        model.setLaunchFindings({{"verification: mask", "does not compile", -1}});
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.findingCount(), std::size_t(0));
    }

    void modelPassesTheTester()
    {
        ProblemsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiagnostics(sample());
        model.clear();
        model.setDiagnostics(sample());
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setSortRole(ProblemsModel::SortRole);
        proxy.sort(ProblemsModel::LineColumn);
        model.setDiagnostics({});
    }

    void rowsAndColumnsShowTheDiagnostics()
    {
        ProblemsModel model;
        model.setDiagnostics(sample());
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(ProblemsModel::ColumnCount));

        const QModelIndex first = model.index(0, ProblemsModel::MessageColumn);
        QCOMPARE(first.data().toString(), QStringLiteral("identifier \"count\" is undefined"));
        QCOMPARE(model.index(0, ProblemsModel::SeverityColumn).data().toString(),
                 QStringLiteral("Error"));
        QCOMPARE(model.index(0, ProblemsModel::LineColumn).data().toInt(), 25);
        QCOMPARE(model.index(0, ProblemsModel::ColumnColumn).data().toInt(), 13);
        QCOMPARE(model.index(0, ProblemsModel::FileColumn).data().toString(),
                 QStringLiteral("kernel.cu"));
        QCOMPARE(first.data(ProblemsModel::LineRole).toInt(), 25);
        QCOMPARE(first.data(ProblemsModel::ColumnRole).toInt(), 13);
        QVERIFY(!model.index(0, ProblemsModel::SeverityColumn).data(Qt::DecorationRole).isNull());

        QCOMPARE(model.index(2, ProblemsModel::CodeColumn).data().toString(),
                 QStringLiteral("177-D"));
        QCOMPARE(model.index(2, ProblemsModel::SeverityColumn).data().toString(),
                 QStringLiteral("Warning"));
        QCOMPARE(model.index(3, ProblemsModel::SeverityColumn).data().toString(),
                 QStringLiteral("Remark"));
    }

    void notesAreChildRows()
    {
        ProblemsModel model;
        model.setDiagnostics(sample());
        const QModelIndex withNote = model.index(1, 0);
        QCOMPARE(model.rowCount(withNote), 1);
        QCOMPARE(model.rowCount(model.index(0, 0)), 0);
        const QModelIndex note = model.index(0, ProblemsModel::MessageColumn, withNote);
        QVERIFY(note.data().toString().startsWith(QStringLiteral("detected during instantiation")));
        QCOMPARE(note.parent(), withNote);
        QCOMPARE(model.index(0, ProblemsModel::SeverityColumn, withNote).data().toString(),
                 QStringLiteral("Note"));
        QCOMPARE(note.data(ProblemsModel::LineRole).toInt(), 26);
        QCOMPARE(model.rowCount(note.siblingAtColumn(0)), 0);
        // The parent's tooltip carries the note too.
        QVERIFY(withNote.siblingAtColumn(ProblemsModel::MessageColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("instantiation")));
    }

    void failureMessageBecomesAnError()
    {
        ProblemsModel model;
        CompileResult result;
        result.fileName = "kernel.cu";
        result.failureMessage = "unknown architecture sm_12";
        result.diagnostics = {diagnostic(Severity::Warning, 2, 1, "w")};
        model.setCompileResult(result);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, ProblemsModel::MessageColumn).data().toString(),
                 QStringLiteral("unknown architecture sm_12"));
        QCOMPARE(
            model.index(0, ProblemsModel::SeverityRole).data(ProblemsModel::SeverityRole).toInt(),
            int(Severity::Error));
        QVERIFY(model.index(0, ProblemsModel::LineColumn).data().isNull());
    }

    void proxySortsByLineNumerically()
    {
        ProblemsModel model;
        model.setDiagnostics(sample());
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(ProblemsModel::SortRole);
        proxy.sort(ProblemsModel::LineColumn, Qt::AscendingOrder);
        QList<int> lines;
        for (int row = 0; row < proxy.rowCount(); ++row)
            lines << proxy.index(row, ProblemsModel::LineColumn).data().toInt();
        QCOMPARE(lines, (QList<int>{3, 16, 24, 25}));
        proxy.sort(ProblemsModel::SeverityColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, ProblemsModel::SeverityColumn).data().toString(),
                 QStringLiteral("Error"));
        QCOMPARE(proxy.index(3, ProblemsModel::SeverityColumn).data().toString(),
                 QStringLiteral("Remark"));
    }

    void resetIsSignalled()
    {
        ProblemsModel model;
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setDiagnostics(sample());
        model.clear();
        QCOMPARE(reset.count(), 2);
        QCOMPARE(model.rowCount(), 0);
    }
};

CUWB_TEST_MAIN(TestProblemsModel)
} // namespace tst_problemsmodel
} // namespace

#include "tst_problemsmodel.moc"
