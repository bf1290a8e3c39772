#pragma once

#include "backend/ContainerStream.h"
#include "util/Result.h"

#include <QJsonObject>

#include <chrono>
#include <memory>
#include <optional>

namespace sandbox {

/// The host side of the runner protocol (runner/PROTOCOL.md): newline-delimited JSON over
/// the container's attached stream.
class RunnerClient final
{
public:
    explicit RunnerClient(std::unique_ptr<ContainerStream> stream);

    Result<void> send(const QJsonObject &message);
    /// The next message, or nullopt when none arrived within `timeout`; an error when the
    /// stream ended or the runner sent something that is not protocol.
    Result<std::optional<QJsonObject>> next(std::chrono::milliseconds timeout);
    /// Waits for the runner's "ready".
    Result<void> waitReady(std::chrono::milliseconds timeout);
    void close();

private:
    std::unique_ptr<ContainerStream> m_stream;
    QByteArray m_buffer;
};

} // namespace sandbox
