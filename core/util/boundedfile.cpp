#include "util/boundedfile.h"

#include "util/format.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cuwb {

std::string fileKindName(unsigned mode)
{
    switch (mode & S_IFMT) {
    case S_IFDIR:
        return "a directory";
    case S_IFCHR:
        return "a character device";
    case S_IFBLK:
        return "a block device";
    case S_IFIFO:
        return "a FIFO (named pipe)";
    case S_IFSOCK:
        return "a socket";
    case S_IFREG:
        return "a file";
    default:
        return "not a regular file";
    }
}

BoundedRead readBoundedFile(std::string_view path, std::uint64_t maxBytes, std::string_view what)
{
    BoundedRead read;
    const std::string name(path.substr(0, path.find('\0')));
    const std::string quoted = std::string(what) + " '" + name + "'";
    if (path.find('\0') != std::string_view::npos) {
        read.error = "cannot read " + quoted + ": the path has a NUL character in it";
        return read;
    }
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked on the open
    // file itself, so it cannot change between the check and the read.
    const int fd = ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        read.error = "cannot read " + quoted + ": " + std::strerror(errno);
        return read;
    }
    struct stat status
    {};
    if (::fstat(fd, &status) != 0) {
        read.error = "cannot read " + quoted + ": " + std::strerror(errno);
        ::close(fd);
        return read;
    }
    if (!S_ISREG(status.st_mode)) {
        read.error =
            "cannot read " + quoted + ": it is " + fileKindName(status.st_mode) + ", not a file";
        ::close(fd);
        return read;
    }
    const auto size = std::uint64_t(status.st_size);
    if (size > maxBytes) {
        read.error = "cannot read " + quoted + ": it is " + formatBytes(size) + ", more than the " +
                     formatBytes(maxBytes) + " a " + std::string(what) + " may have";
        ::close(fd);
        return read;
    }
    read.text.resize(std::size_t(size));
    std::size_t done = 0;
    while (done < read.text.size()) {
        const ssize_t n = ::read(fd, read.text.data() + done, read.text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            read.error = "cannot read " + quoted + ": " + std::strerror(errno);
            break;
        }
        if (n == 0) {
            read.text.resize(done); // it shrank while being read
            break;
        }
        done += std::size_t(n);
    }
    ::close(fd);
    if (!read.ok())
        read.text.clear();
    return read;
}

} // namespace cuwb
