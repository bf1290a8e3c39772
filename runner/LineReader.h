#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace runner {

// Splits the host's request stream into lines. A line longer than the cap is reported once as too long and the
// rest of it is skipped, so a runaway host cannot make the runner allocate without bound.
class LineReader final
{
public:
    struct Line final
    {
        std::string text;
        bool tooLong = false;
    };

    LineReader(int fd, std::size_t maxLineBytes);

    int fd() const { return m_fd; }
    // Performs one read(); call it after poll() reported the descriptor readable so it does not block.
    void readAvailable();
    // The next complete line, if any. After end of file a trailing unterminated line is returned as well.
    std::optional<Line> nextLine();
    // True once end of file was seen and every buffered line has been taken.
    bool finished() const { return m_endOfFile && m_start == m_buffer.size(); }
    bool endOfFile() const { return m_endOfFile; }
    std::size_t maxLineBytes() const { return m_maxLineBytes; }

private:
    void resetBuffer();

    int m_fd;
    std::size_t m_maxLineBytes;
    std::vector<char> m_chunk;
    std::string m_buffer;
    std::size_t m_start = 0;    // first unconsumed byte of m_buffer
    std::size_t m_scanFrom = 0; // bytes before this offset are known to contain no newline
    bool m_discarding = false;  // skipping the remainder of an overlong line
    bool m_endOfFile = false;
};

} // namespace runner
