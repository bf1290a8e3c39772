#pragma once

#include "engine/SandboxContainer.h"
#include "lang/Language.h"
#include "sandboxsession/SandboxSession.h"
#include "sandboxsession/SessionRegistry.h"
#include "util/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <chrono>
#include <functional>
#include <memory>

namespace sandbox {

/// The sessions of an engine as callers use them: create, list and close them, and put files into / get files
/// from a session's working directory. Runs in a session are the engine's (ExecutionEngine::run). Thread-safe.
class SessionService final
{
public:
    /// Starts the container of a new session of `language` with the session's libraries installed.
    /// Starts the container of the session `sessionId` (its label names the session).
    using Preparer =
        std::function<Result<std::unique_ptr<SandboxContainer>>(const Language &language, const QString &sessionId)>;

    /// Sessions close after `idleTimeout` without use; at most `maxSessions` are open (0: sessions disabled);
    /// files larger than `maxFileBytes` are refused both ways.
    SessionService(std::chrono::seconds idleTimeout, int maxSessions, qint64 maxFileBytes);

    /// Checks `request` (language, timeout, room for one more) and opens a session in the container `prepare`
    /// starts.
    Result<SessionInfo> create(const SessionRequest &request, const Preparer &prepare);
    /// Closes the session and removes its container; NotFound when `owner` has no such session
    /// (SessionRequest::owner; the same for every call below).
    Result<void> close(const QString &id, const QString &owner);
    QList<SessionInfo> list(const QString &owner) const;
    /// Writes `data` to `path` (relative to the session's working directory). Returns the size written.
    Result<qint64> writeFile(const QString &sessionId, const QString &owner, const QString &path,
                             const QByteArray &data);
    /// The file at `path` in the session's working directory, up to `maxFileBytes`.
    Result<QByteArray> readFile(const QString &sessionId, const QString &owner, const QString &path);

    /// The registry the engine's session runs use (find, touch, close).
    SessionRegistry &registry() { return m_registry; }

    /// A path relative to the session's working directory, from what a caller wrote ("data/x.csv" or
    /// "/sandbox/data/x.csv"); never one that leaves it (BadRequest).
    static Result<QString> sessionPath(const QString &path);

private:
    /// Sends a put_file / get_file request to the session's runner and returns its answer.
    Result<RunnerFileEvent> transfer(const QString &sessionId, const QString &owner, RunnerRequest request);

    qint64 m_maxFileBytes;
    SessionRegistry m_registry;
};

} // namespace sandbox
