#include "sandboxsession/SessionService.h"

#include "lang/LanguageRegistry.h"

#include <QUuid>

namespace sandbox {

namespace {

/// How long a session file operation may take before the session's runner is considered stuck.
constexpr std::chrono::seconds kFileOperationTimeout{60};

QString newRequestId()
{
    return QUuid::createUuid().toString(QUuid::Id128).left(16);
}

} // namespace

SessionService::SessionService(std::chrono::seconds idleTimeout, int maxSessions, qint64 maxFileBytes)
    : m_maxFileBytes(maxFileBytes), m_registry(idleTimeout, maxSessions)
{}

Result<SessionInfo> SessionService::create(const SessionRequest &request, const Preparer &prepare)
{
    auto language = LanguageRegistry::instance().find(request.language);
    if (!language) {
        return language.error();
    }
    if (request.timeout.count() <= 0) {
        return Error{QStringLiteral("The timeout must be positive."), ErrorCode::BadRequest};
    }
    if (auto room = m_registry.checkRoom(); !room) {
        return room.error();
    }
    const QString id = SessionRegistry::newId();
    auto container = prepare(*language, id);
    if (!container) {
        return container.error();
    }
    auto session = std::make_shared<SessionRegistry::Session>();
    session->info.id = id;
    session->info.language = language->name;
    session->info.libraries = request.libraries;
    session->info.network = request.network;
    session->info.timeout = request.timeout;
    session->info.keepsVariables = !language->sessionInterpreter.isEmpty();
    session->info.owner = request.owner;
    session->info.librariesCached = (*container)->librariesCached();
    session->container = std::move(*container);
    return m_registry.add(std::move(session));
}

Result<void> SessionService::close(const QString &id, const QString &owner)
{
    if (!m_registry.close(id, owner)) {
        return m_registry.find(id, owner).error();
    }
    return {};
}

QList<SessionInfo> SessionService::list(const QString &owner) const
{
    return m_registry.list(owner);
}

Result<QString> SessionService::sessionPath(const QString &path)
{
    const QString workdir = SandboxContainer::workdir();
    QString relative = path;
    if (relative.startsWith(workdir + QLatin1Char('/'))) {
        relative = relative.mid(workdir.size() + 1);
    }
    const QStringList parts = relative.split(QLatin1Char('/'));
    if (relative.isEmpty() || relative.startsWith(QLatin1Char('/')) || relative.contains(QChar(0)) ||
        parts.contains(QStringLiteral("..")) || relative.size() > 1024) {
        return Error{QStringLiteral("The path \"%1\" must be relative to the session's working directory %2 "
                                    "(e.g. data/input.csv) and must not contain \"..\".")
                         .arg(path.left(200), workdir),
                     ErrorCode::BadRequest};
    }
    return relative;
}

Result<RunnerFileEvent> SessionService::transfer(const QString &sessionId, const QString &owner, RunnerRequest request)
{
    auto found = m_registry.find(sessionId, owner);
    if (!found) {
        return found.error();
    }
    const std::shared_ptr<SessionRegistry::Session> session = *found;
    const std::lock_guard use(session->use);
    auto answer = session->container->runner().transferFile(request, kFileOperationTimeout);
    m_registry.touch(*session, false);
    return answer;
}

Result<qint64> SessionService::writeFile(const QString &sessionId, const QString &owner, const QString &path,
                                         const QByteArray &data)
{
    auto relative = sessionPath(path);
    if (!relative) {
        return relative.error();
    }
    if (data.size() > m_maxFileBytes) {
        return Error{QStringLiteral("The file has %1 bytes, more than the limit of %2 bytes per file.")
                         .arg(data.size())
                         .arg(m_maxFileBytes),
                     ErrorCode::LimitReached};
    }
    auto answer =
        transfer(sessionId, owner,
                 RunnerPutFileRequest{newRequestId(), SandboxContainer::workdir(), RunnerFile{*relative, data}});
    if (!answer) {
        return answer.error();
    }
    return answer->size;
}

Result<QByteArray> SessionService::readFile(const QString &sessionId, const QString &owner, const QString &path)
{
    auto relative = sessionPath(path);
    if (!relative) {
        return relative.error();
    }
    auto answer = transfer(
        sessionId, owner, RunnerGetFileRequest{newRequestId(), SandboxContainer::workdir(), *relative, m_maxFileBytes});
    if (!answer) {
        return answer.error();
    }
    return answer->data;
}

} // namespace sandbox
