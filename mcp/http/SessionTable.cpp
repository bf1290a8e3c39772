#include "mcp/http/SessionTable.h"

#include "mcp/http/HttpLogging.h"

#include <QRandomGenerator>
#include <QtConcurrent/QtConcurrentRun>
#include <array>

namespace sandbox::mcp {

namespace {

QString newSessionId()
{
    std::array<quint32, 4> words; // 128 bits from the system CSPRNG: not guessable
    QRandomGenerator::system()->fillRange(words.data(), words.size());
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(words.data()), sizeof words).toHex());
}

} // namespace

SessionTable::SessionTable(int maxSessions, std::function<void()> changed)
    : m_maxSessions(maxSessions), m_changed(std::move(changed))
{}

SessionTable::~SessionTable()
{
    // Everything starts stopping at once; then each dispatcher waits for its own calls.
    for (const std::shared_ptr<HttpSession> &session : std::as_const(m_sessions)) {
        for (SseStream *stream : session->openStreams()) {
            stream->finish();
        }
        if (session->dispatcher()) {
            session->dispatcher()->cancelAll();
        }
    }
    for (const std::shared_ptr<McpDispatcher> &dispatcher : std::as_const(m_perRequest)) {
        dispatcher->cancelAll();
    }
    for (const std::shared_ptr<HttpSession> &session : std::as_const(m_sessions)) {
        session->takeDispatcher().reset();
    }
    m_sessions.clear();
    m_perRequest.clear();
    for (QFuture<void> &retiring : m_retiring) {
        retiring.waitForFinished();
    }
}

QList<HttpSessionInfo> SessionTable::infos() const
{
    QList<HttpSessionInfo> infos;
    for (const std::shared_ptr<HttpSession> &session : m_sessions) {
        if (std::optional<HttpSessionInfo> info = session->info()) {
            infos.append(std::move(*info));
        }
    }
    return infos;
}

std::shared_ptr<HttpSession> SessionTable::create(const Make &make, std::chrono::milliseconds idleTimeout)
{
    if (m_sessions.size() >= m_maxSessions) {
        expireIdle(idleTimeout);
    }
    if (m_sessions.size() >= m_maxSessions) {
        // Full of sessions that ask nothing (holding a GET stream is not asking): the one idle longest makes room,
        // so no one holding sessions open locks the others out. Its client gets 404 and starts a new one.
        std::shared_ptr<HttpSession> idlest;
        for (const std::shared_ptr<HttpSession> &session : std::as_const(m_sessions)) {
            if (!session->busy() && (!idlest || session->usedBefore(*idlest))) {
                idlest = session;
            }
        }
        if (!idlest) {
            return nullptr;
        }
        qCInfo(lcMcpHttp).noquote() << "session" << idlest->id().left(8) << "closed to make room, idle for"
                                    << idlest->idleFor().count() << "ms";
        close(idlest->id());
    }
    const QString id = newSessionId();
    auto session = std::make_shared<HttpSession>(id, make(id));
    m_sessions.insert(id, session);
    return session;
}

void SessionTable::close(const QString &id)
{
    const std::shared_ptr<HttpSession> session = m_sessions.take(id);
    if (!session) {
        return;
    }
    qCInfo(lcMcpHttp).noquote() << "session" << id.left(8) << "closed";
    for (SseStream *stream : session->openStreams()) {
        stream->finish();
    }
    if (std::unique_ptr<McpDispatcher> dispatcher = session->takeDispatcher()) {
        retire(std::move(dispatcher));
    }
    m_changed();
}

void SessionTable::closeAll()
{
    for (const QString &id : m_sessions.keys()) {
        close(id);
    }
    // The 2026-07-28 requests in flight are cancelled too; their dispatchers retire as their answers come back.
    for (const std::shared_ptr<McpDispatcher> &dispatcher : std::as_const(m_perRequest)) {
        dispatcher->cancelAll();
        m_retiring.append(QtConcurrent::run([dispatcher] { dispatcher->waitForDone(); }));
    }
}

void SessionTable::expireIdle(std::chrono::milliseconds idleTimeout)
{
    const QList<std::shared_ptr<HttpSession>> sessions = m_sessions.values();
    for (const std::shared_ptr<HttpSession> &session : sessions) {
        if (!session->busy() && session->idleFor() >= idleTimeout) {
            qCInfo(lcMcpHttp).noquote() << "session" << session->id().left(8) << "expired";
            close(session->id());
        }
    }
    m_retiring.removeIf([](const QFuture<void> &future) { return future.isFinished(); });
}

void SessionTable::release(const std::shared_ptr<McpDispatcher> &dispatcher)
{
    m_perRequest.remove(dispatcher.get());
    retire(dispatcher);
}

void SessionTable::retire(std::shared_ptr<McpDispatcher> dispatcher)
{
    dispatcher->cancelAll();
    // Its destructor waits for the cancelled calls (a container being removed): not on this thread.
    m_retiring.append(QtConcurrent::run([retired = std::move(dispatcher)]() mutable { retired.reset(); }));
}

QFuture<void> SessionTable::whenRetired()
{
    m_retiring.removeIf([](const QFuture<void> &future) { return future.isFinished(); });
    if (m_retiring.isEmpty()) {
        return QtFuture::makeReadyFuture();
    }
    return QtFuture::whenAll(m_retiring.begin(), m_retiring.end()).then([](const QList<QFuture<void>> &) {});
}

} // namespace sandbox::mcp
