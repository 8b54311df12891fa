// The globals table: rows of __constant__/__device__ variables to set, their contents chosen
// like a buffer's (never a copy), and a module column that says whether the row fills the
// variable the compiled module has.
#include "gui/launch/globalsmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_globalsmodel {

class TestGlobalsModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void addsWhatTheModuleHas()
    {
        GlobalsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy edited(&model, &GlobalsModel::globalsEdited);
        model.setModule(std::vector<ModuleVariable>{{"c_filter", true, 68, "float"},
                                                    {"d_count", false, 8, "double"}},
                        {});
        QCOMPARE(model.addGlobal(), 0);
        QCOMPARE(model.addGlobal(), 1);
        QCOMPARE(model.globals()[0].name, std::string("c_filter"));
        QCOMPARE(model.globals()[0].count, std::string("17"));
        QCOMPARE(model.globals()[1].name, std::string("d_count"));
        QCOMPARE(model.globals()[1].elementType.name(), std::string("double"));
        QCOMPARE(model.globals()[1].count, std::string("1"));
        QCOMPARE(model.index(0, GlobalsModel::ModuleColumn).data().toString(),
                 QStringLiteral("__constant__, 68 B"));
        QVERIFY(model.index(0, 0).data(GlobalsModel::ErrorRole).toString().isEmpty());
        QCOMPARE(edited.size(), 2);
    }

    void saysWhenARowDoesNotFit()
    {
        GlobalsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        GlobalSpec global;
        global.name = "c_filter";
        global.elementType = parseElementType("float").value();
        global.count = "K * K";
        model.setGlobals({global});
        // Before a compile nothing is known, and nothing is an issue.
        QCOMPARE(model.index(0, GlobalsModel::ModuleColumn).data().toString(),
                 QStringLiteral("compile to check"));
        QVERIFY(model.index(0, 0).data(GlobalsModel::ErrorRole).toString().isEmpty());
        model.setModule(std::vector<ModuleVariable>{{"c_filter", true, 68, {}}}, {{"K", 4.0}});
        QCOMPARE(model.index(0, GlobalsModel::ModuleColumn).data().toString(),
                 QStringLiteral("64 B of 68 B: initialise all of it"));
        QVERIFY(!model.index(0, 0).data(GlobalsModel::ErrorRole).toString().isEmpty());
        QVERIFY(model.setData(model.index(0, GlobalsModel::CountColumn), QStringLiteral("17")));
        QVERIFY(model.index(0, 0).data(GlobalsModel::ErrorRole).toString().isEmpty());
        QVERIFY(model.setData(model.index(0, GlobalsModel::NameColumn), QStringLiteral("c_other")));
        QCOMPARE(model.index(0, GlobalsModel::ModuleColumn).data().toString(),
                 QStringLiteral("not in the module"));
    }

    void contentsAreABuffersButNeverACopy()
    {
        GlobalsModel model;
        model.setGlobals({GlobalSpec{}});
        const QStringList choices = model.index(0, GlobalsModel::ContentsColumn)
                                        .data(GlobalsModel::ChoicesRole)
                                        .toStringList();
        QCOMPARE(choices.size(), 6);
        QVERIFY(model.setData(model.index(0, GlobalsModel::ContentsColumn), int(InitKind::Uniform),
                              GlobalsModel::ChoiceRole));
        QCOMPARE(model.globals()[0].init.kind, InitKind::Uniform);
        QVERIFY(!model.setData(model.index(0, GlobalsModel::ContentsColumn), int(InitKind::CopyOf),
                               GlobalsModel::ChoiceRole));
        QVERIFY(!model.setData(model.index(0, GlobalsModel::TypeColumn), QStringLiteral("struct")));
        QVERIFY(model.setData(model.index(0, GlobalsModel::TypeColumn), QStringLiteral("double")));
        QCOMPARE(model.globals()[0].elementType.sizeBytes(), std::size_t(8));
        model.removeGlobal(0);
        QCOMPARE(model.rowCount(), 0);
    }
};

CUWB_TEST_MAIN(TestGlobalsModel)
} // namespace tst_globalsmodel
} // namespace

#include "tst_globalsmodel.moc"
