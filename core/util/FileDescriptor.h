#pragma once

#include <unistd.h>
#include <utility>

namespace sandbox {

/// A POSIX file descriptor closed when it goes (for code that opens files relative to a folder's descriptor, with
/// O_NOFOLLOW, where QFile cannot).
class FileDescriptor final
{
public:
    explicit FileDescriptor(int fd = -1) : m_fd(fd) {}
    ~FileDescriptor() { reset(-1); }
    FileDescriptor(const FileDescriptor &) = delete;
    FileDescriptor &operator=(const FileDescriptor &) = delete;
    FileDescriptor(FileDescriptor &&other) noexcept : m_fd(other.release()) {}
    FileDescriptor &operator=(FileDescriptor &&other) noexcept
    {
        if (this != &other) {
            reset(other.release());
        }
        return *this;
    }

    [[nodiscard]] int get() const { return m_fd; }
    explicit operator bool() const { return m_fd >= 0; }
    /// The descriptor, no longer closed here.
    int release() { return std::exchange(m_fd, -1); }
    /// Closes the descriptor held, and holds `fd`.
    void reset(int fd)
    {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        m_fd = fd;
    }

private:
    int m_fd;
};

} // namespace sandbox
