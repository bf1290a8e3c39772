#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <chrono>

namespace sandbox {

/// What create_session asks for: a container kept for many runs of one language.
struct SessionRequest
{
    QString language = QStringLiteral("python");
    QStringList libraries; ///< installed once, when the session is created
    /// The hosts every run in the session may reach (RunRequest::network), within the user's ceiling.
    QStringList network;
    /// The timeout of each run in the session unless the run names its own.
    std::chrono::milliseconds timeout{std::chrono::seconds(30)};
    /// Who may use the session: the MCP session over HTTP that opened it, empty for a process's only client (stdio,
    /// the CLI, the app). Every other caller is told there is no such session.
    QString owner;
};

/// A session as callers see it (list_sessions, the GUI).
struct SessionInfo
{
    QString id;
    QString language;
    QStringList libraries;
    QStringList network; ///< SessionRequest::network
    std::chrono::milliseconds timeout{0};
    /// Python and R keep one interpreter for the whole session: variables survive between runs.
    bool keepsVariables = false;
    /// Its libraries came from the library cache, not installed for it.
    bool librariesCached = false;
    QDateTime createdAt;
    QDateTime lastUsedAt;
    int runs = 0;
    /// When it closes unless it is used before.
    QDateTime expiresAt;
    QString owner; ///< SessionRequest::owner
};

} // namespace sandbox
