#include "MessageWriter.h"

#include <cerrno>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <unistd.h>

namespace runner {

MessageWriter::MessageWriter(int fd) : m_fd(fd) {}

void MessageWriter::send(const nlohmann::ordered_json &message)
{
    // Names coming from the container (artifact paths) may be arbitrary bytes; replacing invalid UTF-8 keeps the
    // line valid JSON instead of throwing.
    std::string line = message.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    line += '\n';
    writeAll(line);
}

void MessageWriter::send(const nlohmann::ordered_json &message, std::string_view payload)
{
    send(message);
    writeAll(payload);
}

void MessageWriter::sendError(const std::string &id, const std::string &message)
{
    nlohmann::ordered_json error = {{"ev", "error"}};
    if (!id.empty()) {
        error["id"] = id;
    }
    error["message"] = message;
    send(error);
}

void MessageWriter::writeAll(std::string_view data)
{
    while (!data.empty() && !m_broken) {
        const ssize_t written = ::write(m_fd, data.data(), data.size());
        if (written > 0) {
            data.remove_prefix(static_cast<std::size_t>(written));
        } else if (written < 0 && errno == EINTR) {
            continue;
        } else if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            // stdout may have been handed to us non-blocking; wait until the host drains it.
            pollfd descriptor{m_fd, POLLOUT, 0};
            ::poll(&descriptor, 1, -1);
        } else {
            m_broken = true;
        }
    }
}

} // namespace runner
