#include "LineReader.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace runner {

namespace {
constexpr std::size_t chunkSize = 1024 * 1024;
}

LineReader::LineReader(int fd, std::size_t maxLineBytes) : m_fd(fd), m_maxLineBytes(maxLineBytes), m_chunk(chunkSize) {}

void LineReader::readAvailable()
{
    if (m_endOfFile) {
        return;
    }
    const ssize_t count = ::read(m_fd, m_chunk.data(), m_chunk.size());
    if (count < 0) {
        if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
            m_endOfFile = true;
        }
        return;
    }
    if (count == 0) {
        m_endOfFile = true;
        return;
    }

    // Compact lazily: erasing consumed lines one by one would be quadratic for many small requests.
    if (m_start > 0 && m_start * 2 >= m_buffer.size()) {
        m_buffer.erase(0, m_start);
        m_scanFrom -= m_start;
        m_start = 0;
    }
    std::size_t offset = 0;
    const auto size = static_cast<std::size_t>(count);
    if (m_discarding) {
        const void *newline = std::memchr(m_chunk.data(), '\n', size);
        if (!newline) {
            return;
        }
        offset = static_cast<std::size_t>(static_cast<const char *>(newline) - m_chunk.data()) + 1;
        m_discarding = false;
    }
    m_buffer.append(m_chunk.data() + offset, size - offset);
}

void LineReader::resetBuffer()
{
    // Give back the memory of a huge request instead of keeping its capacity for the runner's lifetime.
    if (m_buffer.capacity() > 4 * chunkSize) {
        std::string().swap(m_buffer);
    } else {
        m_buffer.clear();
    }
    m_start = m_scanFrom = 0;
}

std::optional<LineReader::Line> LineReader::nextLine()
{
    const std::size_t newline = m_buffer.find('\n', m_scanFrom);
    if (newline == std::string::npos) {
        m_scanFrom = m_buffer.size();
        if (m_buffer.size() - m_start > m_maxLineBytes) {
            resetBuffer();
            if (!m_endOfFile) {
                m_discarding = true;
            }
            return Line{{}, true};
        }
        if (m_endOfFile && m_start < m_buffer.size()) {
            Line line{m_buffer.substr(m_start), false};
            resetBuffer();
            return line;
        }
        return std::nullopt;
    }

    Line line;
    if (m_start == 0 && newline + 1 == m_buffer.size()) {
        // The whole buffer is one line (typical for a large run request): hand it over instead of copying.
        m_buffer.pop_back();
        line.text = std::move(m_buffer);
        resetBuffer();
    } else {
        line.text = m_buffer.substr(m_start, newline - m_start);
        m_start = m_scanFrom = newline + 1;
        if (m_start == m_buffer.size()) {
            resetBuffer();
        }
    }
    if (line.text.size() > m_maxLineBytes) {
        return Line{{}, true};
    }
    if (!line.text.empty() && line.text.back() == '\r') {
        line.text.pop_back();
    }
    return line;
}

} // namespace runner
