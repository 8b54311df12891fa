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

namespace {

// NumPy's name of a dtype ("float32" for "<f4"), for messages; empty when it has none here.
std::string numpyName(const std::string &descr)
{
    if (descr.size() < 3)
        return {};
    static const char *const kKinds[][2] = {
        {"f", "float"}, {"i", "int"}, {"u", "uint"}, {"c", "complex"}, {"b", "bool"}};
    for (const auto &[code, name] : kKinds) {
        if (descr.substr(1, 1) != code)
            continue;
        const std::string bytes = descr.substr(2);
        if (bytes.empty() || bytes.size() > 2 ||
            bytes.find_first_not_of("0123456789") != std::string::npos)
            return {};
        return std::string(name) + (descr[1] == 'b' ? "" : std::to_string(std::stoi(bytes) * 8));
    }
    return {};
}

std::string dtypeText(const std::string &descr)
{
    const std::string name = numpyName(descr);
    return name.empty() ? descr : descr + " (" + name + ")";
}

std::string shapeText(const std::vector<std::uint64_t> &shape)
{
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

std::uint64_t checkBufferFile(const std::string &path, const ElementType &type, std::uint64_t count,
                              const std::string &forWhat)
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
    const std::string needed = std::to_string(count) + " × " + type.name();
    if (head.rfind("\x93NUMPY", 0) != 0) {
        if (fileBytes != wanted) {
            throw FileProblem("`" + path + "` has " + std::to_string(fileBytes) + " bytes; " +
                              forWhat + " needs " + std::to_string(wanted) + " (" + needed +
                              "; a file without the .npy magic is read as raw bytes)");
        }
        return 0;
    }
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
        throw FileProblem("`" + path + "` holds dtype " + dtypeText(header->descr) + "; " +
                          forWhat + " needs " + dtypeText(want) + " for its elements of " +
                          type.name() + " (save it with .astype(numpy." +
                          (numpyName(want).empty() ? std::string("uint16") : numpyName(want)) +
                          "))");
    }
    std::uint64_t elements = 1;
    for (const std::uint64_t extent : header->shape) {
        elements *= extent;
    }
    if (header->fortranOrder && header->shape.size() > 1) {
        throw FileProblem("`" + path + "` is in Fortran order (shape " + shapeText(header->shape) +
                          "); save it in C order (numpy.ascontiguousarray)");
    }
    const std::uint64_t values = count * std::uint64_t(type.lanes);
    if (elements != values) {
        throw FileProblem("`" + path + "` holds " + std::to_string(elements) + " values (shape " +
                          shapeText(header->shape) + "); " + forWhat + " has " +
                          std::to_string(values) + " (" + needed + ")");
    }
    if (fileBytes < header->dataOffset + wanted) {
        throw FileProblem("`" + path + "` is shorter than its header says: shape " +
                          shapeText(header->shape) + " of " + dtypeText(header->descr) + " needs " +
                          std::to_string(header->dataOffset + wanted) + " bytes, the file has " +
                          std::to_string(fileBytes));
    }
    return header->dataOffset;
}

void loadFileToDevice(const std::string &path, const ElementType &type, std::uint64_t count,
                      DevicePointer destination, const Stream &stream, const std::string &forWhat)
{
    const std::uint64_t offset = checkBufferFile(path, type, count, forWhat);
    const std::uint64_t wanted = count * type.sizeBytes();
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw FileProblem("cannot read `" + path + "` for " + forWhat + ": " +
                          std::strerror(errno));
    }
    file.seekg(std::streamoff(offset));
    std::vector<char> chunk(kChunkBytes);
    for (std::uint64_t done = 0; done < wanted;) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(kChunkBytes, wanted - done));
        if (!file.read(chunk.data(), std::streamsize(n))) {
            throw FileProblem("reading `" + path + "` failed part-way");
        }
        copyToDevice(destination + done, chunk.data(), n, stream);
        done += n;
    }
}

std::uint64_t writeBufferFile(const std::string &path, ExportFormat format, DevicePointer data,
                              const ElementType &type, std::uint64_t count, const Stream &stream)
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
        copyToHost(chunk.data(), data + first * elementBytes, chunk.size(), stream);
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
