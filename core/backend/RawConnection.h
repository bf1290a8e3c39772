#pragma once

#include "util/Result.h"

#include <QByteArray>
#include <chrono>

namespace sandbox {

/// A bidirectional byte stream to a container engine after an HTTP upgrade. Owns its
/// libcurl handle; not thread-safe (one reader/writer thread).
class RawConnection final
{
public:
    enum class ReadStatus
    {
        Data,
        Timeout,
        Closed,
        Failed
    };

    /// Takes ownership of a connected libcurl easy handle (CURLOPT_CONNECT_ONLY).
    explicit RawConnection(void *curlHandle);
    ~RawConnection();
    RawConnection(const RawConnection &) = delete;
    RawConnection &operator=(const RawConnection &) = delete;

    Result<void> write(const QByteArray &data);
    /// Waits at most `timeout` for bytes; appends them to `out`.
    ReadStatus read(QByteArray &out, std::chrono::milliseconds timeout);
    /// Half-closes the sending side (the engine sees end of file on the container's stdin).
    void closeWrite();
    /// Puts bytes back to be returned first by the next read (what arrived after the HTTP head).
    void unread(const QByteArray &data) { m_pending.prepend(data); }

private:
    bool waitFor(short events, std::chrono::milliseconds timeout) const;

    void *m_curl;
    QByteArray m_pending;
    int m_socket = -1;
};

} // namespace sandbox
