// Fuzzes the worker protocol's readers: one line as the worker (parseRequest) and the client
// (every parse*Reply) read it. A malformed message may throw nlohmann::json::exception, as
// the header says; anything else escaping, or a crash, is a bug. A request that was read is
// answered with an error reply, which must encode as one line.
#include "fuzzinput.h"
#include "worker/protocol.h"

#include <cstdlib>

namespace {

template <typename Read> void tryRead(Read read)
{
    try {
        read();
    } catch (const nlohmann::json::exception &) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const nlohmann::json message =
        nlohmann::json::parse(cuwb::fuzz::asText(data, size), nullptr, false);
    if (message.is_discarded())
        return 0;
    (void)cuwb::isCancelRequest(message);
    tryRead([&] {
        const cuwb::WorkerRequest request = cuwb::parseRequest(message);
        const std::string line = cuwb::encodeLine(cuwb::makeErrorReply(request.id, "fuzz"));
        if (line.find('\n') != line.size() - 1 && line.find('\n') != std::string::npos)
            std::abort();
    });
    tryRead([&] { (void)cuwb::parseHelloReply(message); });
    tryRead([&] { (void)cuwb::parseRunResultReply(message); });
    tryRead([&] { (void)cuwb::parseMeasurementReply(message); });
    tryRead([&] { (void)cuwb::parseMetricsReply(message); });
    tryRead([&] { (void)cuwb::parseInspectReply(message); });
    tryRead([&] { (void)cuwb::parsePageReply(message); });
    tryRead([&] { (void)cuwb::parseExportedReply(message); });
    tryRead([&] { (void)cuwb::parseErrorReply(message); });
    tryRead([&] { (void)cuwb::replyIsExiting(message); });
    return 0;
}
