#pragma once

#include <QString>
#include <QStringList>

namespace sandbox::mcp {

/// The MCP revisions this server speaks. Revisions are dates, so string order is release order.
class ProtocolVersion final
{
public:
    static inline const QString kLatest = QStringLiteral("2025-11-25");
    /// First revision with structuredContent, outputSchema and titles.
    static inline const QString kStructuredContent = QStringLiteral("2025-06-18");
    /// First revision with tool annotations; also the last one with JSON-RPC batches.
    static inline const QString kToolAnnotations = QStringLiteral("2025-03-26");
    static inline const QString kLastWithBatches = QStringLiteral("2025-03-26");
    /// First revision whose error responses may leave out an id they could not read (instead of "id": null).
    static inline const QString kOptionalErrorId = QStringLiteral("2025-11-25");
    /// First revision with tasks (tools/call with `task`, tasks/get, tasks/result, tasks/list, tasks/cancel) and
    /// tools' `execution`.
    static inline const QString kTasks = QStringLiteral("2025-11-25");

    /// The revision without a handshake: each request carries its version and the client's capabilities in
    /// `_meta`, and is served on its own (server/discover instead of initialize; resultType, ttlMs, cacheScope).
    static inline const QString kStateless = QStringLiteral("2026-07-28");

    /// The revisions agreed in initialize.
    static QStringList supported();
    /// The revisions served per request, named in a request's `_meta`.
    static QStringList perRequest();
    /// The client's version when we speak it, otherwise our latest (the client then decides whether to go on).
    static QString negotiate(const QString &requested);

    ProtocolVersion() = delete;
};

} // namespace sandbox::mcp
