#pragma once

#include <QString>

namespace sandbox::mcp {

/// How a client without an MCP session reaches the sandbox sessions it opened. A 2026-07-28 request over HTTP comes
/// alone, with the bearer token every client shares, so no owner can be told from the request; instead create_session
/// gives that client a handle, "<session id>.<secret>", and the session belongs to the secret's hash. Knowing the id
/// (from the journal, the app, a guess) reaches nothing, and such a client lists no one's sessions.
struct SessionHandle
{
    /// The session as the engine and the journal know it.
    QString id;
    /// Whom the engine lets in (SessionRequest::owner).
    QString owner;

    /// A new secret for a session about to be opened; `ownerOf(secret)` owns it.
    static QString newSecret();
    static QString ownerOf(const QString &secret);
    /// What the client is given for the session `id` opened with `secret`.
    static QString handle(const QString &id, const QString &secret);
    /// The session `argument` (a session_id as a client sent it) reaches for a caller that owns `caller`'s
    /// sessions: a handle reaches its session as the owner its secret names, a plain id only the caller's own.
    static SessionHandle resolve(const QString &argument, const QString &caller);
};

} // namespace sandbox::mcp
