#pragma once

#include "util/Result.h"

#include <QByteArray>
#include <chrono>

namespace sandbox {

/// The attached stdin/stdout of a container's main process: the one channel through which
/// the engine talks to the in-container runner on every backend (Docker/Podman attach,
/// Kubernetes attach over WebSocket).
class ContainerStream
{
public:
    enum class ReadStatus
    {
        Data,
        Timeout,
        Closed,
        Failed
    };

    virtual ~ContainerStream() = default;

    virtual Result<void> write(const QByteArray &data) = 0;
    /// Appends the container's stdout bytes that arrive within `timeout` to `out`.
    /// The container's stderr (runner diagnostics) goes to the backend's log.
    virtual ReadStatus read(QByteArray &out, std::chrono::milliseconds timeout) = 0;
    /// End of file on the container's stdin.
    virtual void closeWrite() = 0;
};

} // namespace sandbox
