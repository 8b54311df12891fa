// JobTracker (gui/common/jobtracker.h), the one "off the GUI thread, newest wins" of the GUI:
// one job runs at a time, a job submitted meanwhile waits and replaces an older waiting one
// (which never runs), only the newest job's result is delivered, on the owner's thread, and a
// tracker destroyed with a job in flight delivers nothing.
#include "gui/common/jobtracker.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <vector>

#include "support/testmain.h"

using namespace cuwb;

namespace {
namespace tst_jobtracker {

class TestJobTracker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void newestWinsAndWaitingJobsAreReplaced()
    {
        QObject owner;
        QThreadPool pool;
        std::vector<quint64> started;
        std::vector<std::pair<quint64, int>> finished;
        std::vector<quint64> discarded;
        QThread *ownerThread = QThread::currentThread();
        bool deliveredOnOwnerThread = true;
        JobTracker<int> jobs(
            &owner, &pool,
            [&](quint64 id, int &&result) {
                deliveredOnOwnerThread =
                    deliveredOnOwnerThread && QThread::currentThread() == ownerThread;
                finished.emplace_back(id, result);
            },
            [&](quint64 id) { discarded.push_back(id); },
            [&](quint64 id) { started.push_back(id); });

        QSemaphore release;
        std::atomic<int> ran{0};
        const quint64 first = jobs.submit([&] {
            release.acquire(); // holds the pool until the others are queued
            ++ran;
            return 1;
        });
        QCOMPARE(first, quint64(1));
        QVERIFY(jobs.isBusy());
        const quint64 second = jobs.submit([&] {
            ++ran;
            return 2;
        });
        const quint64 third = jobs.submit([&] {
            ++ran;
            return 3;
        });
        QCOMPARE(jobs.newest(), third);
        QVERIFY(jobs.isNewest(third));
        QVERIFY(!jobs.isNewest(second));
        QCOMPARE(started, (std::vector<quint64>{first}));

        release.release();
        QTRY_VERIFY(!jobs.isBusy());
        // The first ran but was superseded; the second never ran; the third is the answer.
        QCOMPARE(ran.load(), 2);
        QCOMPARE(started, (std::vector<quint64>{first, third}));
        QCOMPARE(discarded, (std::vector<quint64>{first}));
        QCOMPARE(finished.size(), std::size_t(1));
        QCOMPARE(finished[0], std::make_pair(third, 3));
        QVERIFY(deliveredOnOwnerThread);
    }

    void aLoneJobIsDelivered()
    {
        QObject owner;
        int delivered = 0;
        JobTracker<int> jobs(&owner, nullptr, [&](quint64, int &&result) { delivered = result; });
        jobs.submit([] { return 42; });
        QTRY_COMPARE(delivered, 42);
        QVERIFY(!jobs.isBusy());
    }

    void destroyedTrackerDeliversNothing()
    {
        QThreadPool pool;
        QSemaphore release;
        bool delivered = false;
        {
            QObject owner;
            auto jobs = std::make_unique<JobTracker<int>>(
                &owner, &pool, [&](quint64, int &&) { delivered = true; });
            jobs->submit([&] {
                release.acquire();
                return 1;
            });
            jobs.reset(); // gone while its job still runs
            release.release();
            pool.waitForDone();
            QTest::qWait(50); // a delivery would have been queued by now
        }
        QVERIFY(!delivered);
    }
};

CUWB_TEST_MAIN(TestJobTracker)
} // namespace tst_jobtracker
} // namespace

#include "tst_jobtracker.moc"
