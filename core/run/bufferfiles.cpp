#include "run/bufferfiles.h"

#include "run/hostelements.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

namespace cuwb {

namespace {

constexpr std::size_t kChunkBytes = 4u << 20;

} // namespace

void loadFileToDevice(const std::string &path, const ElementType &type, std::uint64_t count,
                      DevicePointer destination, const std::string &forWhat)
{
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw FileProblem("cannot read `" + path + "` for " + forWhat + ": " +
                          std::strerror(errno));
    }
    file.seekg(0, std::ios::end);
    const std::uint64_t fileBytes = std::uint64_t(file.tellg());
    file.seekg(0);
    std::string head(std::min<std::uint64_t>(fileBytes, 1u << 16), '\0');
    file.read(head.data(), std::streamsize(head.size()));
    const std::uint64_t wanted = count * type.sizeBytes();
    std::uint64_t offset = 0;
    if (head.rfind("\x93NUMPY", 0) == 0) {
        std::string error;
        const auto header = parseNpyHeader(head, error);
        if (!header) {
            throw FileProblem("`" + path + "` for " + forWhat + ": " + error);
        }
        const std::string want = npyDescr(type.scalar);
        const auto sameDescr = [&](const std::string &descr) {
            if (descr == want) {
                return true;
            }
            // One-byte types and native order may be spelled with '|', '<' or '='.
            return descr.size() == want.size() && descr.substr(1) == want.substr(1) &&
                   (descr[0] == '|' || descr[0] == '<' || descr[0] == '=');
        };
        if (!sameDescr(header->descr)) {
            throw FileProblem("`" + path + "` holds dtype " + header->descr + "; " + forWhat +
                              " needs " + want + " (" + type.name() + ")");
        }
        std::uint64_t elements = 1;
        for (const std::uint64_t extent : header->shape) {
            elements *= extent;
        }
        if (header->fortranOrder && header->shape.size() > 1) {
            throw FileProblem("`" + path + "` is in Fortran order; save it in C order");
        }
        if (elements != count * std::uint64_t(type.lanes)) {
            throw FileProblem("`" + path + "` holds " + std::to_string(elements) + " values; " +
                              forWhat + " has " +
                              std::to_string(count * std::uint64_t(type.lanes)));
        }
        offset = header->dataOffset;
        if (fileBytes < offset + wanted) {
            throw FileProblem("`" + path + "` is shorter than its header says");
        }
    } else if (fileBytes != wanted) {
        throw FileProblem("`" + path + "` has " + std::to_string(fileBytes) + " bytes; " + forWhat +
                          " needs " + std::to_string(wanted) + " (" + std::to_string(count) +
                          " × " + type.name() + ")");
    }
    file.clear();
    file.seekg(std::streamoff(offset));
    std::vector<char> chunk(kChunkBytes);
    for (std::uint64_t done = 0; done < wanted;) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(kChunkBytes, wanted - done));
        if (!file.read(chunk.data(), std::streamsize(n))) {
            throw FileProblem("reading `" + path + "` failed part-way");
        }
        copyToDevice(destination + done, chunk.data(), n);
        done += n;
    }
}

std::uint64_t writeBufferFile(const std::string &path, ExportFormat format, DevicePointer data,
                              const ElementType &type, std::uint64_t count)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file) {
        throw std::runtime_error("cannot write `" + path + "`: " + std::strerror(errno));
    }
    std::uint64_t written = 0;
    const auto put = [&](const std::string &text) {
        file.write(text.data(), std::streamsize(text.size()));
        written += text.size();
    };
    if (format == ExportFormat::Npy) {
        put(npyHeader(type, count));
    } else if (format == ExportFormat::Csv) {
        static const char *const kLanes[] = {"x", "y", "z", "w"};
        std::string header = "index";
        if (type.lanes <= 1) {
            header += ",value";
        } else {
            for (int lane = 0; lane < type.lanes && lane < 4; ++lane) {
                header += std::string(",") + kLanes[lane];
            }
        }
        put(header + "\n");
    }
    const std::size_t elementBytes = type.sizeBytes();
    const std::uint64_t perChunk = std::max<std::uint64_t>(1, kChunkBytes / elementBytes);
    std::vector<unsigned char> chunk;
    std::string text;
    for (std::uint64_t first = 0; first < count; first += perChunk) {
        const std::uint64_t n = std::min(perChunk, count - first);
        chunk.resize(n * elementBytes);
        copyToHost(chunk.data(), data + first * elementBytes, chunk.size());
        if (format != ExportFormat::Csv) {
            file.write(reinterpret_cast<const char *>(chunk.data()), std::streamsize(chunk.size()));
            written += chunk.size();
            continue;
        }
        text.clear();
        const std::size_t scalarBytes = scalarSizeBytes(type.scalar);
        for (std::uint64_t k = 0; k < n; ++k) {
            text += std::to_string(first + k);
            for (int lane = 0; lane < type.lanes; ++lane) {
                text += ',';
                text += formatScalar(
                    chunk.data() + k * elementBytes + std::size_t(lane) * scalarBytes, type.scalar);
            }
            text += '\n';
        }
        put(text);
    }
    file.flush();
    if (!file) {
        throw std::runtime_error("writing `" + path + "` failed: " + std::strerror(errno));
    }
    return written;
}

} // namespace cuwb
