// RunWorker: the RunController's half that lives on its own thread and owns the WorkerProcess.
// Every call blocks until the worker answers or its deadline passes, which is why it must never
// run on the GUI thread. The replies are read by the core's WorkerClient (its timeouts, its
// sentences for a failed worker); nothing escapes as an exception: failures become data in the
// signals.
#pragma once

#include "gui/common/metatypes.h"
#include "worker/workerclient.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace cuwb {

class RunWorker : public QObject
{
    Q_OBJECT

public:
    explicit RunWorker(QObject *parent = nullptr);
    ~RunWorker() override;

    void setCliPath(const QString &path);
    void run(quint64 jobId, const cuwb::RunRequest &request);
    void measure(quint64 jobId, const cuwb::RunRequest &request,
                 const cuwb::SampleSettings &settings,
                 const cuwb::ThroughputExpressions &throughput = {});
    // The metrics pass of a launch: a request of its own, after the measurement, never timed.
    void metrics(quint64 jobId, const cuwb::RunRequest &request,
                 const cuwb::MetricsRequest &metrics);
    void page(const cuwb::PageRequest &request);
    void exportBuffer(const QString &handle, const QString &path, cuwb::ExportFormat format);
    void shutdown();
    // Safe from any thread (the only member that is): the request in flight and every later one
    // fail at once and the worker is killed, so that the thread can be joined without waiting
    // for a run's deadline.
    void abort();
    // Safe from any thread: asks the worker to stop sampling measurement `jobId` and answer
    // with the samples taken (WorkerProcess::requestCancel; the worker is kept). A measurement
    // not yet sent is answered at once with no samples. Anything else is left alone.
    void requestCancel(quint64 jobId);

Q_SIGNALS:
    void runDone(quint64 jobId, const cuwb::RunResult &result);
    void measureDone(quint64 jobId, const cuwb::Measurement &measurement);
    void metricsDone(quint64 jobId, const cuwb::MetricsResult &result);
    // error is empty on success; handle and first name the request either way.
    void pageDone(const cuwb::Page &page, const QString &error, const QString &handle,
                  quint64 first);
    void exportDone(const QString &path, bool ok, const QString &message);
    void helloReceived(const cuwb::HelloReply &hello);

private:
    WorkerProcess &process();
    void reportHello();

    // Guards m_process's creation and destruction (on this object's thread) against abort().
    std::mutex m_processMutex;
    bool m_aborted = false;
    std::unique_ptr<WorkerProcess> m_process;
    std::string m_cliPath;
    int m_reportedStarts = 0;
    std::atomic<quint64> m_measuringJob{0}; // the measurement in flight, 0 when none
    std::atomic<quint64> m_cancelledJob{0}; // the newest measurement a cancel was asked for
};

} // namespace cuwb
