#pragma once

#include "mcp/protocol/Reply.h"
#include "mcp/server/Resource.h"

#include <QByteArray>
#include <QFuture>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QThreadPool>
#include <functional>
#include <mutex>
#include <optional>

namespace sandbox::mcp {

class ServerIdentity;

/// The resources of one client: the fixed ones, the families read through a template (a run's files, a session's
/// files), and the client's subscriptions, which are checked after each tool call. Reads that take time run on the
/// pool given, never on the protocol thread. Thread-safe.
class ResourceService final
{
public:
    /// Sends a notification of no request (resources/updated).
    using Notify = std::function<void(const QJsonObject &message)>;

    /// `identity` and `pool` must outlive the service; the pool must be waited for before the service goes.
    ResourceService(QList<Resource> resources, QList<ResourceTemplate> templates, const ServerIdentity &identity,
                    QThreadPool &pool, Notify notify);

    /// resources/list. `uiClient`: the client renders MCP Apps, so the resources only such clients use are listed.
    QJsonArray list(bool titles, bool uiClient) const;
    /// resources/templates/list.
    QJsonArray templateList() const;
    /// skills/list (the Skills extension): the entry of every skill resource (SkillResources::entry).
    QJsonArray skills() const;
    /// skills/get: the entry of the skill whose SKILL.md is at `uri`; nullopt when there is none.
    std::optional<QJsonObject> skill(const QString &uri) const;
    /// The template whose URIs start like `uri`; null for none.
    const ResourceTemplate *templateFor(const QString &uri) const;

    /// resources/read. `perRequest`: a 2026-07-28 request (its errors and result take that revision's shape).
    QFuture<QJsonObject> read(const Reply &reply, const QJsonObject &params, const ResourceReader &reader,
                              bool perRequest) const;
    QFuture<QJsonObject> subscribe(const Reply &reply, const QJsonObject &params, const ResourceReader &reader);
    QJsonObject unsubscribe(const Reply &reply, const QJsonObject &params);
    /// After a tool call with these arguments: tells the subscribers of the resources it changed.
    void checkSubscriptions(const QJsonObject &arguments, const ResourceReader &reader);

private:
    const QList<Resource> m_resources;
    const QList<ResourceTemplate> m_templates;
    const ServerIdentity &m_identity;
    QThreadPool &m_pool;
    const Notify m_notify;

    mutable std::mutex m_mutex;
    /// The resources the client subscribed to, with a hash of what they held when last looked at.
    QHash<QString, QByteArray> m_subscriptions;
};

} // namespace sandbox::mcp
