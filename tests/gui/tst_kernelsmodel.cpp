#include "gui/compile/kernelsmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_kernelsmodel {

class TestKernelsModel : public QObject
{
    Q_OBJECT

private:
    static KernelInfo kernel(const char *name, int registers, int sharedBytes, int line,
                             int spillStores = 0)
    {
        KernelInfo k;
        k.loweredName = name;
        k.readableName = name;
        k.externC = true;
        k.sourceLine = line;
        k.resources.reported = true;
        k.resources.registers = registers;
        k.resources.staticSharedBytes = sharedBytes;
        k.resources.spillStoreBytes = spillStores;
        k.resources.spillLoadBytes = spillStores;
        return k;
    }

    static QString cell(const KernelsModel &model, int row, int column)
    {
        return model.index(row, column).data().toString();
    }

private Q_SLOTS:
    void modelPassesTheTester()
    {
        KernelsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setKernels({kernel("a", 32, 0, 3), kernel("b", 64, 4096, 9)});
        model.setBlockSize(128);
        model.setArchitecture("sm_80");
        model.setDynamicSharedBytes(1024);
        model.clear();
        model.setKernels({kernel("c", 16, 0, 1)});
    }

    void showsResources()
    {
        KernelsModel model;
        KernelInfo templated = kernel("_Z5scaleIfEvPT_S0_i", 10, 1024, 12);
        templated.readableName = "void scale<float>(float*, float, int)";
        templated.externC = false;
        templated.resources.barriers = 1;
        templated.resources.stackFrameBytes = 16;
        model.setKernels({kernel("vector_add", 12, 0, 7), templated});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, 0, KernelsModel::NameColumn), QStringLiteral("vector_add"));
        QCOMPARE(cell(model, 1, KernelsModel::NameColumn),
                 QStringLiteral("void scale<float>(float*, float, int)"));
        QCOMPARE(cell(model, 1, KernelsModel::LoweredNameColumn),
                 QStringLiteral("_Z5scaleIfEvPT_S0_i"));
        QCOMPARE(cell(model, 1, KernelsModel::RegistersColumn), QStringLiteral("10"));
        QCOMPARE(cell(model, 1, KernelsModel::StaticSharedColumn), QStringLiteral("1024 B"));
        QCOMPARE(cell(model, 1, KernelsModel::StackColumn), QStringLiteral("16 B"));
        QCOMPARE(cell(model, 1, KernelsModel::BarriersColumn), QStringLiteral("1"));
        QCOMPARE(model.index(1, 0).data(KernelsModel::SourceLineRole).toInt(), 12);
    }

    // Worked out by hand: sm_80 has 64 K registers and 64 warps per SM. 256 threads x 32
    // registers = 8 K registers per block -> 8 blocks = 64 warps = 100 %. With 64 registers a
    // block needs 16 K -> 4 blocks = 32 warps = 50 %, limited by registers.
    void occupancyFollowsBlockSizeAndArchitecture()
    {
        KernelsModel model;
        model.setArchitecture("sm_80");
        model.setBlockSize(256);
        model.setKernels({kernel("light", 32, 0, 1), kernel("heavy", 64, 0, 2)});

        QCOMPARE(cell(model, 0, KernelsModel::BlocksPerSmColumn), QStringLiteral("8"));
        QCOMPARE(model.index(0, 0).data(KernelsModel::OccupancyRole).toDouble(), 1.0);
        QCOMPARE(cell(model, 1, KernelsModel::BlocksPerSmColumn), QStringLiteral("4"));
        QCOMPARE(model.index(1, 0).data(KernelsModel::OccupancyRole).toDouble(), 0.5);
        QCOMPARE(cell(model, 1, KernelsModel::LimiterColumn), QStringLiteral("registers"));
        QVERIFY(cell(model, 1, KernelsModel::OccupancyColumn).startsWith(QStringLiteral("50")));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inputs(&model, &KernelsModel::occupancyInputsChanged);
        // 1024 threads x 64 registers = 64 K registers: one block = 32 warps = 50 %.
        model.setBlockSize(1024);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(inputs.count(), 1);
        QCOMPARE(cell(model, 1, KernelsModel::BlocksPerSmColumn), QStringLiteral("1"));
        QCOMPARE(model.index(1, 0).data(KernelsModel::OccupancyRole).toDouble(), 0.5);

        model.setBlockSize(2048); // more than any architecture allows
        QCOMPARE(model.index(0, 0).data(KernelsModel::OccupancyRole).toDouble(), -1.0);
        QVERIFY(!cell(model, 0, KernelsModel::LimiterColumn).isEmpty());
    }

    void sharedMemoryLimits()
    {
        KernelsModel model;
        model.setArchitecture("sm_80");
        model.setBlockSize(128);
        model.setKernels({kernel("tile", 16, 40 * 1024, 1)});
        // sm_80: 164 KB shared per SM, 1 KB reserved per block: 41 KB per block -> 4 blocks.
        QCOMPARE(cell(model, 0, KernelsModel::BlocksPerSmColumn), QStringLiteral("4"));
        QCOMPARE(cell(model, 0, KernelsModel::LimiterColumn), QStringLiteral("shared memory"));
    }

    void unknownArchitectureAndMissingResourcesSayWhy()
    {
        KernelsModel model;
        KernelInfo unreported = kernel("mystery", 0, 0, 1);
        unreported.resources.reported = false;
        model.setKernels({unreported});
        QCOMPARE(model.index(0, 0).data(KernelsModel::OccupancyRole).toDouble(), -1.0);
        QCOMPARE(cell(model, 0, KernelsModel::RegistersColumn), QStringLiteral("\u2014"));

        model.setKernels({kernel("k", 32, 0, 1)});
        model.setArchitecture("sm_12");
        QCOMPARE(model.index(0, 0).data(KernelsModel::OccupancyRole).toDouble(), -1.0);
        QVERIFY(cell(model, 0, KernelsModel::LimiterColumn).contains(QStringLiteral("sm_12")));
    }

    void spillsAreFlagged()
    {
        KernelsModel model;
        model.setKernels({kernel("spiller", 32, 0, 5, 128)});
        QCOMPARE(cell(model, 0, KernelsModel::SpillStoresColumn), QStringLiteral("128 B"));
        QVERIFY(model.index(0, KernelsModel::SpillStoresColumn).data(Qt::ForegroundRole).isValid());
        QVERIFY(!model.index(0, KernelsModel::SpillLoadsColumn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
    }

    void sortRoleIsNumeric()
    {
        KernelsModel model;
        model.setKernels({kernel("a", 128, 0, 1)});
        QCOMPARE(model.index(0, KernelsModel::RegistersColumn).data(KernelsModel::SortRole).toInt(),
                 128);
    }
};

CUWB_TEST_MAIN(TestKernelsModel)
} // namespace tst_kernelsmodel
} // namespace

#include "tst_kernelsmodel.moc"
