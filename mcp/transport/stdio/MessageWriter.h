#pragma once

#include <QJsonDocument>
#include <atomic>
#include <mutex>

namespace sandbox::mcp {

/// Writes JSON-RPC messages to a file descriptor, one per line. Safe from any thread: each message goes out
/// whole, never interleaved with another.
class MessageWriter final
{
public:
    explicit MessageWriter(int fd);

    /// False when the message could not be written (the reader has gone away).
    bool write(const QJsonDocument &message);
    bool broken() const { return m_broken; }

private:
    const int m_fd;
    std::mutex m_mutex;
    std::atomic<bool> m_broken = false;
};

} // namespace sandbox::mcp
