#include "backend/RawConnection.h"

#include <curl/curl.h>
#include <poll.h>
#include <sys/socket.h>

namespace sandbox {

RawConnection::RawConnection(void *curlHandle) : m_curl(curlHandle)
{
    curl_socket_t socket = CURL_SOCKET_BAD;
    if (curl_easy_getinfo(static_cast<CURL *>(m_curl), CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK) {
        m_socket = int(socket);
    }
}

RawConnection::~RawConnection()
{
    curl_easy_cleanup(static_cast<CURL *>(m_curl));
}

bool RawConnection::waitFor(short events, std::chrono::milliseconds timeout) const
{
    if (m_socket < 0) {
        return false;
    }
    pollfd fd{m_socket, events, 0};
    int ready;
    do {
        ready = ::poll(&fd, 1, int(std::min<long long>(timeout.count(), 1 << 30)));
    } while (ready < 0 && errno == EINTR);
    return ready > 0;
}

Result<void> RawConnection::write(const QByteArray &data)
{
    qsizetype offset = 0;
    while (offset < data.size()) {
        size_t sent = 0;
        const CURLcode code =
            curl_easy_send(static_cast<CURL *>(m_curl), data.constData() + offset, size_t(data.size() - offset), &sent);
        if (code == CURLE_AGAIN) {
            if (!waitFor(POLLOUT, std::chrono::seconds(30))) {
                return Error{QStringLiteral("Writing to the container timed out.")};
            }
            continue;
        }
        if (code != CURLE_OK) {
            return Error{QStringLiteral("Writing to the container failed: %1.")
                             .arg(QString::fromUtf8(curl_easy_strerror(code)))};
        }
        offset += qsizetype(sent);
    }
    return {};
}

RawConnection::ReadStatus RawConnection::read(QByteArray &out, std::chrono::milliseconds timeout)
{
    if (!m_pending.isEmpty()) {
        out.append(m_pending);
        m_pending.clear();
        return ReadStatus::Data;
    }
    char buffer[64 * 1024];
    bool waited = false;
    for (;;) {
        size_t received = 0;
        const CURLcode code = curl_easy_recv(static_cast<CURL *>(m_curl), buffer, sizeof buffer, &received);
        if (code == CURLE_OK) {
            if (received == 0) {
                return ReadStatus::Closed;
            }
            out.append(buffer, qsizetype(received));
            return ReadStatus::Data;
        }
        if (code != CURLE_AGAIN) {
            return ReadStatus::Failed;
        }
        // TLS may hold decrypted bytes the socket no longer shows, so recv is tried before polling.
        if (waited) {
            return ReadStatus::Timeout;
        }
        if (!waitFor(POLLIN, timeout)) {
            return ReadStatus::Timeout;
        }
        waited = true;
    }
}

void RawConnection::closeWrite()
{
    if (m_socket >= 0) {
        ::shutdown(m_socket, SHUT_WR);
    }
}

} // namespace sandbox
