// WorkerServer: the GPU side of the worker protocol (worker/protocol.h) as a library. It turns
// one request line into one reply: it opens the device on the first request (or remembers why
// there is none, which every reply then says), hands runs, measurements, metrics passes, pages
// and exports to the Runner, and says when the process must exit: on shutdown, or after a
// request that left the CUDA context unusable (the reply is written first; the client starts a
// new worker). `cuwb worker` only pumps lines between stdin/stdout and serve(); the tests drive
// it directly.
#pragma once

#include "worker/protocol.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>

namespace cuwb {

class Runner;

class WorkerServer
{
public:
    // The exit status after a request that lost the CUDA context (docs/measurement.md, Faults).
    static constexpr int kExitContextLost = 3;

    // cancelCheck: polled between measurement samples; true ends the measurement in flight.
    WorkerServer(int deviceOrdinal, std::function<bool()> cancelCheck);
    ~WorkerServer();
    WorkerServer(const WorkerServer &) = delete;
    WorkerServer &operator=(const WorkerServer &) = delete;

    struct Served
    {
        nlohmann::json reply;
        bool exit = false;  // the process ends after writing the reply
        int exitStatus = 0; // 0, or kExitContextLost (exit at once, without destructors)
    };
    // Never throws: a malformed line or a failure becomes an error reply.
    Served serve(const std::string &line);

    // What hello answers: the worker's and driver's versions, and the device or why none.
    [[nodiscard]] HelloReply hello();

private:
    void initialise();
    ExportReply exportReturned(const WorkerRequest &request); // an export sent back in the reply
    Runner &runner();

    int m_deviceOrdinal = 0;
    std::function<bool()> m_cancelCheck;
    bool m_initialised = false;
    std::unique_ptr<Runner> m_runner;
    std::string m_noDeviceReason;
};

} // namespace cuwb
