#include "sandboxsession/SessionRegistry.h"

#include <QLoggingCategory>
#include <QUuid>
#include <vector>

Q_LOGGING_CATEGORY(lcSessions, "sandbox.sessions")

namespace sandbox {

namespace {

constexpr auto kReapInterval = std::chrono::seconds(1);

} // namespace

SessionRegistry::SessionRegistry(std::chrono::seconds idleTimeout, int maxSessions, Clock clock)
    : m_idleTimeout(idleTimeout), m_maxSessions(maxSessions), m_clock(std::move(clock))
{
    if (!m_clock) {
        m_clock = [] {
            return std::chrono::steady_clock::now();
        };
    }
    m_reaper = std::thread([this] { reap(); });
}

SessionRegistry::~SessionRegistry()
{
    std::map<QString, std::shared_ptr<Session>> sessions;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        sessions.swap(m_sessions);
    }
    m_changed.notify_all();
    m_reaper.join();
    // `sessions` goes out of scope here: their containers are removed, outside the lock.
}

Result<void> SessionRegistry::checkRoom() const
{
    std::lock_guard lock(m_mutex);
    if (m_maxSessions == 0) {
        return Error{QStringLiteral("Sessions are disabled on this server (LLM_SANDBOX_MAX_SESSIONS=0); run code "
                                    "without a session_id instead."),
                     ErrorCode::LimitReached};
    }
    if (int(m_sessions.size()) >= m_maxSessions) {
        return Error{QStringLiteral("%1 sessions are open, the limit (LLM_SANDBOX_MAX_SESSIONS); close one with "
                                    "close_session first.")
                         .arg(m_maxSessions),
                     ErrorCode::LimitReached};
    }
    return {};
}

QString SessionRegistry::newId()
{
    return QUuid::createUuid().toString(QUuid::Id128).left(12);
}

Result<SessionInfo> SessionRegistry::add(std::shared_ptr<Session> session)
{
    if (auto room = checkRoom(); !room) {
        return room.error();
    }
    std::lock_guard lock(m_mutex);
    if (session->info.id.isEmpty()) {
        session->info.id = newId();
    }
    session->info.createdAt = QDateTime::currentDateTimeUtc();
    session->info.lastUsedAt = session->info.createdAt;
    m_lastUsed[session->info.id] = m_clock();
    m_sessions[session->info.id] = session;
    qCInfo(lcSessions).noquote() << "session" << session->info.id << "opened:" << session->info.language;
    return snapshot(*session);
}

Result<std::shared_ptr<SessionRegistry::Session>> SessionRegistry::find(const QString &id, const QString &owner) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_sessions.find(id);
    if (it == m_sessions.end() || it->second->info.owner != owner) {
        return Error{QStringLiteral("There is no session \"%1\": it was closed, or it expired after %2 s without "
                                    "use. Create a new one with create_session (list_sessions shows the open ones).")
                         .arg(id)
                         .arg(m_idleTimeout.count()),
                     ErrorCode::NotFound};
    }
    return it->second;
}

void SessionRegistry::touch(Session &session, bool countsAsRun)
{
    std::lock_guard lock(m_mutex);
    session.info.lastUsedAt = QDateTime::currentDateTimeUtc();
    if (countsAsRun) {
        ++session.info.runs;
    }
    if (m_lastUsed.contains(session.info.id)) {
        m_lastUsed[session.info.id] = m_clock();
    }
}

bool SessionRegistry::close(const QString &id, const QString &owner)
{
    std::shared_ptr<Session> closed;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_sessions.find(id);
        if (it == m_sessions.end() || it->second->info.owner != owner) {
            return false;
        }
        closed = std::move(it->second);
        m_sessions.erase(it);
        m_lastUsed.erase(id);
    }
    qCInfo(lcSessions).noquote() << "session" << id << "closed";
    // A run still using it holds its own reference: the container goes when that run ends.
    return true;
}

SessionInfo SessionRegistry::snapshot(const Session &session) const
{
    SessionInfo info = session.info;
    const auto idle = m_clock() - m_lastUsed.at(info.id);
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(m_idleTimeout - idle);
    info.expiresAt = QDateTime::currentDateTimeUtc().addMSecs(std::max<qint64>(0, left.count()));
    return info;
}

QList<SessionInfo> SessionRegistry::list(const QString &owner) const
{
    std::lock_guard lock(m_mutex);
    QList<SessionInfo> sessions;
    for (const auto &[id, session] : m_sessions) {
        if (session->info.owner == owner) {
            sessions.append(snapshot(*session));
        }
    }
    return sessions;
}

void SessionRegistry::reapExpired()
{
    std::unique_lock lock(m_mutex);
    std::vector<std::shared_ptr<Session>> expired = takeExpired();
    // Removing containers takes a while: not under the lock.
    lock.unlock();
    expired.clear();
}

std::vector<std::shared_ptr<SessionRegistry::Session>> SessionRegistry::takeExpired()
{
    const auto now = m_clock();
    std::vector<std::shared_ptr<Session>> expired;
    for (auto it = m_sessions.begin(); it != m_sessions.end();) {
        const bool idle = now - m_lastUsed[it->first] >= m_idleTimeout;
        // A session in use is not idle, however long its run takes.
        std::unique_lock inUse(it->second->use, std::try_to_lock);
        if (idle && inUse.owns_lock()) {
            qCInfo(lcSessions).noquote() << "session" << it->first << "expired after" << m_idleTimeout.count()
                                         << "s without use";
            inUse.unlock();
            m_lastUsed.erase(it->first);
            expired.push_back(std::move(it->second));
            it = m_sessions.erase(it);
        } else {
            ++it;
        }
    }
    return expired;
}

void SessionRegistry::reap()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        m_changed.wait_for(lock, kReapInterval);
        std::vector<std::shared_ptr<Session>> expired = takeExpired();
        if (!expired.empty()) {
            // Removing containers takes a while: not under the lock.
            lock.unlock();
            expired.clear();
            lock.lock();
        }
    }
}

} // namespace sandbox
