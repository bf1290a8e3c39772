#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <functional>

namespace sandbox::mcp {

/// Splits a byte stream into newline-delimited messages with a cap on line length, so a hostile or broken
/// client cannot make the server buffer without bound: an over-long line is dropped (and reported once) and
/// reading resumes after its newline.
class LineSplitter final
{
public:
    using LineHandler = std::function<void(const QByteArray &line)>;
    using OversizeHandler = std::function<void()>;

    explicit LineSplitter(qint64 maxLineBytes);

    /// Feeds bytes as they arrive; calls `onLine` for each complete line (without "\n" or "\r\n").
    void feed(QByteArrayView data, const LineHandler &onLine, const OversizeHandler &onOversize);
    /// End of input: a last line without a newline still counts.
    void finish(const LineHandler &onLine);

private:
    void emitLine(QByteArray line, const LineHandler &onLine);

    qint64 m_maxLineBytes;
    QByteArray m_buffer;
    bool m_discarding = false;
};

} // namespace sandbox::mcp
