#include "mcp/http/HttpSession.h"

namespace sandbox::mcp {

HttpSession::HttpSession(QString id, std::unique_ptr<McpDispatcher> dispatcher)
    : m_id(std::move(id)), m_dispatcher(std::move(dispatcher))
{
    touch();
}

void HttpSession::touch()
{
    m_lastUse.restart();
    m_lastActivity = QDateTime::currentDateTimeUtc();
    m_clientGone = false;
}

std::optional<HttpSessionInfo> HttpSession::info() const
{
    if (!m_dispatcher || !m_dispatcher->isInitialized()) {
        return std::nullopt;
    }
    return HttpSessionInfo{
        m_id,           m_dispatcher->clientName(),   m_dispatcher->clientVersion(), m_dispatcher->protocolVersion(),
        m_lastActivity, m_dispatcher->runningCalls(), getStream() != nullptr,        m_clientGone && !getStream()};
}

bool HttpSession::busy() const
{
    if (m_exchanges > 0 || (m_dispatcher && m_dispatcher->runningCalls() > 0)) {
        return true;
    }
    for (const QPointer<SseStream> &stream : m_requestStreams) {
        if (stream && stream->isOpen()) {
            return true;
        }
    }
    return false;
}

SseStream *HttpSession::getStream() const
{
    return m_getStream && m_getStream->isOpen() ? m_getStream.data() : nullptr;
}

void HttpSession::addRequestStream(SseStream *stream, const QStringList &requestKeys)
{
    prune();
    m_requestStreams.append(stream);
    for (const QString &key : requestKeys) {
        m_requestKeyStreams.insert(key, stream);
    }
}

SseStream *HttpSession::streamFor(const QString &requestKey)
{
    prune();
    if (!requestKey.isEmpty()) {
        if (SseStream *stream = m_requestKeyStreams.value(requestKey)) {
            return stream;
        }
    }
    if (SseStream *stream = getStream()) {
        return stream;
    }
    // A message that belongs to a request never goes on the stream of another one.
    if (!requestKey.isEmpty()) {
        return nullptr;
    }
    return m_requestStreams.isEmpty() ? nullptr : m_requestStreams.last().data();
}

QList<SseStream *> HttpSession::openStreams()
{
    prune();
    QList<SseStream *> streams;
    if (SseStream *stream = getStream()) {
        streams.append(stream);
    }
    for (const QPointer<SseStream> &stream : std::as_const(m_requestStreams)) {
        streams.append(stream.data());
    }
    return streams;
}

void HttpSession::prune()
{
    m_requestStreams.removeIf([](const QPointer<SseStream> &stream) { return !stream || !stream->isOpen(); });
    m_requestKeyStreams.removeIf(
        [](QHash<QString, QPointer<SseStream>>::iterator entry) { return !entry.value() || !entry.value()->isOpen(); });
}

} // namespace sandbox::mcp
