#include "mcp/transport/stdio/MessageWriter.h"

#include "mcp/McpLogging.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace sandbox::mcp {

MessageWriter::MessageWriter(int fd) : m_fd(fd) {}

bool MessageWriter::write(const QJsonDocument &message)
{
    QByteArray line = message.toJson(QJsonDocument::Compact);
    line.append('\n');

    const std::lock_guard lock(m_mutex);
    if (m_broken) {
        return false;
    }
    const char *data = line.constData();
    qsizetype left = line.size();
    while (left > 0) {
        const ssize_t written = ::write(m_fd, data, static_cast<size_t>(left));
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            qCWarning(lcMcp) << "cannot write to the client:" << std::strerror(errno);
            m_broken = true;
            return false;
        }
        data += written;
        left -= written;
    }
    return true;
}

} // namespace sandbox::mcp
