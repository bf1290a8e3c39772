#pragma once

#include "backend/ContainerStream.h"
#include "backend/RawConnection.h"

#include <memory>

namespace sandbox {

/// A Docker/Podman attach connection of a container without a TTY: the engine multiplexes
/// stdout and stderr into frames of an 8-byte header (stream, 0, 0, 0, big-endian size) and
/// the payload. This splits them; stdout is the runner protocol, stderr goes to the log.
class DockerAttachStream final : public ContainerStream
{
public:
    explicit DockerAttachStream(std::unique_ptr<RawConnection> connection);

    Result<void> write(const QByteArray &data) override;
    ReadStatus read(QByteArray &out, std::chrono::milliseconds timeout) override;
    void closeWrite() override;

    /// Moves complete frames from `buffer` into stdout/stderr; leaves a partial frame in `buffer`.
    static void demultiplex(QByteArray &buffer, QByteArray &stdoutData, QByteArray &stderrData);

private:
    std::unique_ptr<RawConnection> m_connection;
    QByteArray m_buffer;
};

} // namespace sandbox
