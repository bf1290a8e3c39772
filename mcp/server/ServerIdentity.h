#pragma once

#include "mcp/protocol/LogLevel.h"

#include <QJsonObject>
#include <QString>
#include <optional>

namespace sandbox::mcp {

/// Who this server is and what it offers, as initialize, server/discover and every 2026-07-28 result say it.
class ServerIdentity final
{
public:
    static inline const QString kName = QStringLiteral("llm-sandbox");
    /// How long a client may keep what server/discover and the lists say: they change only with a new server binary.
    static constexpr int kListTtlMs = 5 * 60 * 1000;
    /// Resource texts are built from the live language registry; a minute keeps them fresh enough.
    static constexpr int kResourceTtlMs = 60 * 1000;

    /// `version`: serverInfo.version; empty means QCoreApplication::applicationVersion().
    explicit ServerIdentity(QString version);

    /// serverInfo as revision `revision` shapes it.
    QJsonObject serverInfo(const QString &revision) const;
    /// The result of initialize for a client that agreed on `revision`.
    QJsonObject initializeResult(const QString &revision) const;
    /// The result of server/discover (2026-07-28).
    QJsonObject discoverResult() const;
    /// A 2026-07-28 result: resultType, the server's identity in `_meta` and, with `ttlMs` (cacheable results),
    /// ttlMs and cacheScope.
    QJsonObject completeResult(QJsonObject result, std::optional<int> ttlMs = std::nullopt) const;
    /// A notifications/message from this server.
    static QJsonObject logMessage(LogLevel level, const QString &message);

private:
    const QString m_version;
};

} // namespace sandbox::mcp
