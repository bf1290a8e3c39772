#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

namespace runner {

// Writes protocol messages, one JSON object per line, to the host. Each message goes out completely and at once
// (no stdio buffering), so the host sees it even while the runner then blocks in poll().
class MessageWriter final
{
public:
    explicit MessageWriter(int fd);

    void send(const nlohmann::ordered_json &message);
    // `message` (which says `"raw":N`, N the payload's size) followed by the N bytes of `payload` as they are: large
    // files travel without base64 and JSON around them.
    void send(const nlohmann::ordered_json &message, std::string_view payload);
    // `id` may be empty for errors that cannot be attributed to a request (e.g. unparsable lines).
    void sendError(const std::string &id, const std::string &message);

    // Once the host has gone away writes are dropped; the runner learns about it from stdin EOF.
    bool broken() const { return m_broken; }

private:
    void writeAll(std::string_view data);

    int m_fd;
    bool m_broken = false;
};

} // namespace runner
