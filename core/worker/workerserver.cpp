#include "worker/workerserver.h"

#include "util/tempfolder.h"

#include "cuda/driverapi.h"
#include "cuda/nvrtcinfo.h"
#include "device/deviceinfo.h"
#include "launch/launchjson.h"
#include "run/runner.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unistd.h>

namespace cuwb {

WorkerServer::WorkerServer(int deviceOrdinal, std::function<bool()> cancelCheck)
    : m_deviceOrdinal(deviceOrdinal)
    , m_cancelCheck(std::move(cancelCheck))
{}

WorkerServer::~WorkerServer() = default;

void WorkerServer::initialise()
{
    if (m_initialised) {
        return;
    }
    m_initialised = true;
    const DeviceQuery query = queryDevices();
    if (query.devices.empty()) {
        m_noDeviceReason = query.message.empty() ? "no GPU found" : query.message;
        return;
    }
    if (m_deviceOrdinal >= static_cast<int>(query.devices.size())) {
        m_noDeviceReason = "there is no GPU " + std::to_string(m_deviceOrdinal) +
                           " (this machine has " + std::to_string(query.devices.size()) + ")";
        return;
    }
    try {
        m_runner = std::make_unique<Runner>(m_deviceOrdinal);
        m_runner->setCancelCheck(m_cancelCheck);
    } catch (const std::exception &error) {
        m_noDeviceReason =
            "could not open GPU " + std::to_string(m_deviceOrdinal) + ": " + error.what();
    }
}

HelloReply WorkerServer::hello()
{
    initialise();
    HelloReply hello;
    hello.worker = workbenchVersion();
    hello.driverVersion = DriverApi::instance().driverVersion();
    hello.nvrtcVersion = nvrtcVersion();
    if (m_runner) {
        hello.device = m_runner->device();
        hello.freeMemoryBytes = m_runner->freeMemoryBytes();
    } else {
        hello.message = m_noDeviceReason;
    }
    return hello;
}

Runner &WorkerServer::runner()
{
    if (!m_runner) {
        throw std::runtime_error("no GPU: " + m_noDeviceReason);
    }
    return *m_runner;
}

ExportReply WorkerServer::exportReturned(const WorkerRequest &request)
{
    // Written to a private file, read back for the reply, removed: the client's path names a
    // file on its own machine.
    std::string path = temporaryPattern("cuwb-export");
    const int fd = ::mkstemp(path.data());
    if (fd < 0) {
        throw std::runtime_error("cannot make a file for the export in the worker's TMPDIR");
    }
    ::close(fd);
    struct Remove
    {
        std::string path;
        ~Remove() { std::remove(path.c_str()); }
    } removeAfter{path};
    const std::uint64_t bytes = runner().exportBuffer(request.handle, path, request.format);
    if (bytes > kMaxReturnedExportBytes) {
        throw std::runtime_error("the exported file is " + std::to_string(bytes >> 20) +
                                 " MiB, more than the " +
                                 std::to_string(kMaxReturnedExportBytes >> 20) +
                                 " MiB a remote worker sends back; export it on the GPU's "
                                 "machine (cuwb run there) or keep fewer elements");
    }
    std::ifstream in(path, std::ios::binary);
    ExportReply reply{request.path, bytes, std::string()};
    reply.data->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return reply;
}

WorkerServer::Served WorkerServer::serve(const std::string &line)
{
    nlohmann::json id; // null until the request's own id is known
    try {
        const nlohmann::json message = nlohmann::json::parse(line);
        if (message.is_object() && message.contains("id")) {
            id = message["id"];
        }
        WorkerRequest request = parseRequest(message);
        initialise();
        // Input files sent along by a remote client live in a private folder for this request.
        const InlineFileFolder inputFiles(request.files, request.run);
        switch (request.type) {
        case WorkerRequest::Type::Hello:
            if (request.protocol != kWorkerProtocolVersion) {
                // A client of another release: refuse, naming both, rather than misread it.
                const std::string client =
                    request.client.empty() ? "an older cuwb" : "cuwb " + request.client;
                return {makeErrorReply(id, "this worker is cuwb " + workbenchVersion() +
                                               " and speaks protocol version " +
                                               std::to_string(kWorkerProtocolVersion) +
                                               " but the client (" + client + ") speaks version " +
                                               std::to_string(request.protocol) +
                                               "; install the same cuwb on both machines")};
            }
            return {makeHelloReply(id, hello())};
        case WorkerRequest::Type::Run: {
            if (!m_runner) {
                RunResult result;
                result.status = RunStatus::NoDevice;
                result.message = "cannot run the kernel: " + m_noDeviceReason;
                return {makeRunResultReply(id, result)};
            }
            const RunResult result = m_runner->run(request.run);
            const bool lost = m_runner->contextLost();
            return {makeRunResultReply(id, result, lost), lost, kExitContextLost};
        }
        case WorkerRequest::Type::Measure: {
            if (!m_runner) {
                Measurement measurement;
                measurement.settings = request.settings;
                measurement.faultStatus = runStatusName(RunStatus::NoDevice);
                measurement.faultMessage = "cannot measure the kernel: " + m_noDeviceReason;
                return {makeMeasurementReply(id, measurement)};
            }
            const Measurement measurement =
                m_runner->measure(request.run, request.settings, request.throughput);
            const bool lost = m_runner->contextLost();
            return {makeMeasurementReply(id, measurement, lost), lost, kExitContextLost};
        }
        case WorkerRequest::Type::Metrics: {
            if (!m_runner) {
                MetricsResult result;
                result.error = "cannot collect metrics: " + m_noDeviceReason;
                return {makeMetricsReply(id, result)};
            }
            const MetricsResult result = m_runner->profileMetrics(request.run, request.metrics);
            const bool lost = m_runner->contextLost();
            return {makeMetricsReply(id, result, lost), lost, kExitContextLost};
        }
        case WorkerRequest::Type::Inspect: {
            if (!m_runner) {
                InspectResult result;
                result.error = "cannot inspect the kernel: " + m_noDeviceReason;
                return {makeInspectReply(id, result)};
            }
            const InspectResult result = m_runner->inspect(request.run, request.inspect);
            const bool lost = m_runner->contextLost();
            return {makeInspectReply(id, result, lost), lost, kExitContextLost};
        }
        case WorkerRequest::Type::Page:
            return {makePageReply(id, runner().page(request.page))};
        case WorkerRequest::Type::Export: {
            if (!request.returnData) {
                const std::uint64_t bytes =
                    runner().exportBuffer(request.handle, request.path, request.format);
                return {makeExportedReply(id, ExportReply{request.path, bytes, std::nullopt})};
            }
            return {makeExportedReply(id, exportReturned(request))};
        }
        case WorkerRequest::Type::Release:
            if (m_runner) {
                m_runner->release();
            }
            return {makeReleasedReply(id)};
        case WorkerRequest::Type::Shutdown:
            return {makeByeReply(id), true, 0};
        }
        return {makeErrorReply(id, "unknown request")};
    } catch (const nlohmann::json::exception &error) {
        return {makeErrorReply(id, "malformed request: " + plainJsonError(error))};
    } catch (const std::exception &error) {
        // An infrastructure fault (ApiError) may leave the context unusable: then say so and go.
        const bool lost = m_runner && m_runner->contextLost();
        return {makeErrorReply(id, error.what(), lost), lost, kExitContextLost};
    } catch (...) {
        return {makeErrorReply(id, "internal error in the worker")};
    }
}

} // namespace cuwb
