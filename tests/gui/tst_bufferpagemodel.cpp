#include "gui/run/bufferpagemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_bufferpagemodel {

namespace {

// A fake worker: answers each request with "v<index>" values.
Page answer(const PageRequest &request)
{
    Page page;
    page.handle = request.handle;
    page.first = request.first;
    for (std::uint64_t i = 0; i < request.count; ++i)
        page.values.push_back("v" + std::to_string(request.first + i));
    return page;
}

QString valueAt(const BufferPageModel &model, int row)
{
    return model.index(row, BufferPageModel::ValueColumn).data().toString();
}

} // namespace

class TestBufferPageModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void passesTheModelTester()
    {
        BufferPageModel model;
        QList<PageRequest> requests;
        connect(&model, &BufferPageModel::pageRequested, this,
                [&](const PageRequest &request) { requests.append(request); });
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setBuffer(QStringLiteral("run1/c"), 3000, QStringLiteral("float"));
        QCOMPARE(model.rowCount(), 3000);
        QCOMPARE(model.columnCount(), 2);
        QCOMPARE(model.index(7, BufferPageModel::IndexColumn).data().toString(),
                 QStringLiteral("7"));
        QCOMPARE(valueAt(model, 7), QStringLiteral("\u2026"));
        model.flushRequests();
        QVERIFY(!requests.isEmpty());
        for (const PageRequest &request : std::as_const(requests))
            QVERIFY(model.addPage(answer(request)));
        QCOMPARE(valueAt(model, 7), QStringLiteral("v7"));
        model.setBuffer(QStringLiteral("run2/c"), 10);
        QCOMPARE(model.rowCount(), 10);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void asksOnlyForVisiblePagesOfAHugeBuffer()
    {
        BufferPageModel model;
        QSignalSpy spy(&model, &BufferPageModel::pageRequested);
        const quint64 count = quint64(1) << 30;
        model.setBuffer(QStringLiteral("run1/big"), count);
        QCOMPARE(model.rowCount(), 1 << 30);

        const int last = int(count - 1);
        QCOMPARE(valueAt(model, last), QStringLiteral("\u2026"));
        QCOMPARE(valueAt(model, last - 1), QStringLiteral("\u2026")); // same page: one request
        QCOMPARE(spy.count(), 0); // batched to the next event-loop turn
        QTRY_COMPARE(spy.count(), 1);
        const auto request = spy.at(0).at(0).value<PageRequest>();
        QCOMPARE(request.handle, std::string("run1/big"));
        QCOMPARE(request.first, (count - 1) / model.pageSize() * model.pageSize());
        QCOMPARE(request.count, model.pageSize());

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(model.addPage(answer(request)));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(valueAt(model, last), QStringLiteral("v%1").arg(count - 1));
        QVERIFY(model.index(last, 1).data(BufferPageModel::LoadedRole).toBool());
        QCOMPARE(model.cachedPageCount(), 1);
    }

    void keepsTheCacheBounded()
    {
        BufferPageModel model;
        QList<PageRequest> requests;
        connect(&model, &BufferPageModel::pageRequested, this,
                [&](const PageRequest &request) { requests.append(request); });
        model.setBuffer(QStringLiteral("run1/c"), 100000);
        model.setCachePages(4);
        for (int page = 0; page < 10; ++page)
            valueAt(model, page * int(model.pageSize()));
        model.flushRequests();
        QCOMPARE(requests.size(), 10);
        for (const PageRequest &request : std::as_const(requests))
            QVERIFY(model.addPage(answer(request)));
        QCOMPARE(model.cachedPageCount(), 4);
        QVERIFY(model.isPageCached(9));
        QVERIFY(!model.isPageCached(0));
        // An evicted page is asked for again when it is next on screen.
        requests.clear();
        QCOMPARE(valueAt(model, 0), QStringLiteral("\u2026"));
        model.flushRequests();
        QCOMPARE(requests.size(), 1);
        QCOMPARE(requests.front().first, quint64(0));
    }

    void dropsStalePages()
    {
        BufferPageModel model;
        QList<PageRequest> requests;
        connect(&model, &BufferPageModel::pageRequested, this,
                [&](const PageRequest &request) { requests.append(request); });
        model.setBuffer(QStringLiteral("run1/c"), 2000);
        valueAt(model, 0);
        model.flushRequests();
        QCOMPARE(requests.size(), 1);
        const PageRequest old = requests.front();

        // A new run's buffer replaces it before the page arrives.
        model.setBuffer(QStringLiteral("run2/c"), 2000);
        QVERIFY(!model.addPage(answer(old)));
        QCOMPARE(valueAt(model, 0), QStringLiteral("\u2026"));
        // A page nobody asked for is dropped too.
        PageRequest unasked{"run2/c", 1024, 512};
        QVERIFY(!model.addPage(answer(unasked)));
        QVERIFY(!model.isPageCached(2));

        // A request the controller dropped unanswered is asked for again.
        requests.clear();
        model.flushRequests();
        QCOMPARE(requests.size(), 1);
        QVERIFY(model.isPagePending(0));
        model.requestDropped(QStringLiteral("run2/c"), 0);
        QVERIFY(!model.isPagePending(0));
        valueAt(model, 0);
        model.flushRequests();
        QCOMPARE(requests.size(), 2);

        // A failure shows in the page's rows, and is told for the panel to say.
        QSignalSpy unavailable(&model, &BufferPageModel::pageUnavailable);
        model.pageFailed(QStringLiteral("run2/c"), 0, QStringLiteral("the worker stopped"));
        QCOMPARE(valueAt(model, 3), QStringLiteral("(unavailable)"));
        QCOMPARE(model.index(3, 1).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("the worker stopped"));
        QCOMPARE(unavailable.size(), 1);
        QCOMPARE(unavailable.first().first().toString(), QStringLiteral("the worker stopped"));
        // Another buffer's failure is not this one's.
        model.pageFailed(QStringLiteral("run1/c"), 512, QStringLiteral("the worker stopped"));
        QCOMPARE(unavailable.size(), 1);
    }
};

CUWB_TEST_MAIN(TestBufferPageModel)
} // namespace tst_bufferpagemodel
} // namespace

#include "tst_bufferpagemodel.moc"
