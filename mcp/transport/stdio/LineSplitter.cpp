#include "mcp/transport/stdio/LineSplitter.h"

#include <utility>

namespace sandbox::mcp {

LineSplitter::LineSplitter(qint64 maxLineBytes) : m_maxLineBytes(maxLineBytes) {}

void LineSplitter::feed(QByteArrayView data, const LineHandler &onLine, const OversizeHandler &onOversize)
{
    while (!data.isEmpty()) {
        const qsizetype newline = data.indexOf('\n');
        if (m_discarding) {
            if (newline < 0) {
                return;
            }
            m_discarding = false;
            data = data.sliced(newline + 1);
            continue;
        }
        if (newline < 0) {
            if (m_buffer.size() + data.size() > m_maxLineBytes) {
                m_buffer.clear();
                m_buffer.squeeze();
                m_discarding = true;
                onOversize();
            } else {
                m_buffer.append(data);
            }
            return;
        }
        const QByteArrayView segment = data.first(newline);
        data = data.sliced(newline + 1);
        if (m_buffer.size() + segment.size() > m_maxLineBytes) {
            m_buffer.clear();
            onOversize();
            continue;
        }
        QByteArray line = std::move(m_buffer);
        m_buffer = QByteArray();
        line.append(segment);
        emitLine(std::move(line), onLine);
    }
}

void LineSplitter::finish(const LineHandler &onLine)
{
    if (!m_discarding && !m_buffer.isEmpty()) {
        emitLine(std::exchange(m_buffer, QByteArray()), onLine);
    }
    m_discarding = false;
}

void LineSplitter::emitLine(QByteArray line, const LineHandler &onLine)
{
    if (line.endsWith('\r')) {
        line.chop(1);
    }
    if (!line.trimmed().isEmpty()) {
        onLine(line);
    }
}

} // namespace sandbox::mcp
