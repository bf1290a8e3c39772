#include "backend/DockerAttachStream.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcAttach, "sandbox.backend.attach")

namespace sandbox {

DockerAttachStream::DockerAttachStream(std::unique_ptr<RawConnection> connection) : m_connection(std::move(connection))
{}

Result<void> DockerAttachStream::write(const QByteArray &data)
{
    return m_connection->write(data);
}

void DockerAttachStream::demultiplex(QByteArray &buffer, QByteArray &stdoutData, QByteArray &stderrData)
{
    qsizetype offset = 0;
    while (buffer.size() - offset >= 8) {
        const auto *header = reinterpret_cast<const unsigned char *>(buffer.constData() + offset);
        const quint32 size =
            (quint32(header[4]) << 24) | (quint32(header[5]) << 16) | (quint32(header[6]) << 8) | quint32(header[7]);
        if (buffer.size() - offset - 8 < qsizetype(size)) {
            break;
        }
        const QByteArray payload = buffer.mid(offset + 8, qsizetype(size));
        (header[0] == 2 ? stderrData : stdoutData).append(payload);
        offset += 8 + qsizetype(size);
    }
    buffer.remove(0, offset);
}

ContainerStream::ReadStatus DockerAttachStream::read(QByteArray &out, std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::max(std::chrono::milliseconds(0), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                                     deadline - std::chrono::steady_clock::now()));
        const RawConnection::ReadStatus status = m_connection->read(m_buffer, left);
        switch (status) {
        case RawConnection::ReadStatus::Timeout:
            return ReadStatus::Timeout;
        case RawConnection::ReadStatus::Closed:
            return ReadStatus::Closed;
        case RawConnection::ReadStatus::Failed:
            return ReadStatus::Failed;
        case RawConnection::ReadStatus::Data:
            break;
        }
        QByteArray stdoutData;
        QByteArray stderrData;
        demultiplex(m_buffer, stdoutData, stderrData);
        if (!stderrData.isEmpty()) {
            qCDebug(lcAttach).noquote() << "runner:" << QString::fromUtf8(stderrData).trimmed();
        }
        if (!stdoutData.isEmpty()) {
            out.append(stdoutData);
            return ReadStatus::Data;
        }
        if (left.count() == 0) {
            return ReadStatus::Timeout;
        }
    }
}

void DockerAttachStream::closeWrite()
{
    m_connection->closeWrite();
}

} // namespace sandbox
