#include "mcp/server/ResourceService.h"

#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/ReadyFuture.h"
#include "mcp/server/ServerIdentity.h"
#include "mcp/tools/SkillResources.h"

#include <QCryptographicHash>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace sandbox::mcp {

using namespace jsonrpc;

namespace {

/// Resources one client may subscribe to at once (each is read again after every run in its session).
constexpr int kMaxSubscriptions = 64;

/// What a subscriber is compared against: the resource's bytes, or the reason it cannot be read.
QByteArray fingerprint(const Result<ResourceContents> &contents)
{
    return contents ? QCryptographicHash::hash(contents->data, QCryptographicHash::Sha256)
                    : QByteArray("error:") + contents.error().message.toUtf8();
}

} // namespace

ResourceService::ResourceService(QList<Resource> resources, QList<ResourceTemplate> templates,
                                 const ServerIdentity &identity, QThreadPool &pool, Notify notify)
    : m_resources(std::move(resources)), m_templates(std::move(templates)), m_identity(identity), m_pool(pool),
      m_notify(std::move(notify))
{}

QJsonArray ResourceService::list(bool titles, bool uiClient) const
{
    QJsonArray resources;
    for (const Resource &resource : m_resources) {
        if (resource.forUiClients && !uiClient) {
            continue;
        }
        QJsonObject json{{QStringLiteral("uri"), resource.uri},
                         {QStringLiteral("name"), resource.name},
                         {QStringLiteral("description"), resource.description},
                         {QStringLiteral("mimeType"), resource.mimeType}};
        if (titles && !resource.title.isEmpty()) {
            json.insert(QStringLiteral("title"), resource.title);
        }
        if (!resource.meta.isEmpty()) {
            json.insert(QStringLiteral("_meta"), resource.meta);
        }
        resources.append(json);
    }
    return resources;
}

QJsonArray ResourceService::templateList() const
{
    QJsonArray templates;
    for (const ResourceTemplate &resourceTemplate : m_templates) {
        templates.append(QJsonObject{{QStringLiteral("uriTemplate"), resourceTemplate.uriTemplate},
                                     {QStringLiteral("name"), resourceTemplate.name},
                                     {QStringLiteral("title"), resourceTemplate.title},
                                     {QStringLiteral("description"), resourceTemplate.description}});
    }
    return templates;
}

QJsonArray ResourceService::skills() const
{
    QJsonArray skills;
    for (const Resource &resource : m_resources) {
        if (SkillResources::isSkill(resource)) {
            skills.append(SkillResources::entry(resource));
        }
    }
    return skills;
}

std::optional<QJsonObject> ResourceService::skill(const QString &uri) const
{
    for (const Resource &resource : m_resources) {
        if (SkillResources::isSkill(resource) && resource.uri == uri) {
            return SkillResources::entry(resource);
        }
    }
    return std::nullopt;
}

const ResourceTemplate *ResourceService::templateFor(const QString &uri) const
{
    for (const ResourceTemplate &resourceTemplate : m_templates) {
        if (uri.startsWith(resourceTemplate.prefix)) {
            return &resourceTemplate;
        }
    }
    return nullptr;
}

QFuture<QJsonObject> ResourceService::read(const Reply &reply, const QJsonObject &params, const ResourceReader &reader,
                                           bool perRequest) const
{
    const QJsonValue uri = params.value(QStringLiteral("uri"));
    if (!uri.isString()) {
        return readyFuture(
            reply.error(InvalidParams, QStringLiteral("resources/read needs the resource's \"uri\" as a string.")));
    }
    // -32002 until 2025-11-25; 2026-07-28 made an unknown URI an invalid parameter.
    const auto notFound = [reply, uri, perRequest] {
        return reply.error(perRequest ? InvalidParams : ResourceNotFound,
                           QStringLiteral("Resource not found: %1").arg(uri.toString().left(200)),
                           QJsonObject{{QStringLiteral("uri"), uri}});
    };
    for (const Resource &resource : m_resources) {
        if (resource.uri == uri.toString()) {
            QJsonObject contents{{QStringLiteral("uri"), resource.uri},
                                 {QStringLiteral("mimeType"), resource.mimeType},
                                 {QStringLiteral("text"), resource.read()}};
            if (!resource.meta.isEmpty()) {
                contents.insert(QStringLiteral("_meta"), resource.meta);
            }
            const QJsonObject result{{QStringLiteral("contents"), QJsonArray{contents}}};
            return readyFuture(
                reply.result(perRequest ? m_identity.completeResult(result, ServerIdentity::kResourceTtlMs) : result));
        }
    }
    const ResourceTemplate *resourceTemplate = templateFor(uri.toString());
    if (!resourceTemplate) {
        return readyFuture(notFound());
    }
    // A journal or a sandbox session answers in milliseconds, but not at once: not on the protocol thread.
    return QtConcurrent::run(
        &m_pool, [this, reply, uri = uri.toString(), read = resourceTemplate->read, reader, perRequest, notFound] {
            const Result<ResourceContents> contents = read(uri, reader);
            if (!contents) {
                const sandbox::ErrorCode code = contents.error().code;
                return code == sandbox::ErrorCode::NotFound || code == sandbox::ErrorCode::BadRequest
                           ? notFound()
                           : reply.error(InternalError, contents.error().message.left(2000));
            }
            QJsonObject item{{QStringLiteral("uri"), uri}, {QStringLiteral("mimeType"), contents->mimeType}};
            if (isTextMimeType(contents->mimeType)) {
                item.insert(QStringLiteral("text"), QString::fromUtf8(contents->data));
            } else {
                item.insert(QStringLiteral("blob"), QString::fromLatin1(contents->data.toBase64()));
            }
            const QJsonObject result{{QStringLiteral("contents"), QJsonArray{item}}};
            return reply.result(perRequest ? m_identity.completeResult(result) : result);
        });
}

QFuture<QJsonObject> ResourceService::subscribe(const Reply &reply, const QJsonObject &params,
                                                const ResourceReader &reader)
{
    const QJsonValue uri = params.value(QStringLiteral("uri"));
    if (!uri.isString()) {
        return readyFuture(reply.error(
            InvalidParams, QStringLiteral("resources/subscribe needs the resource's \"uri\" as a string.")));
    }
    const ResourceTemplate *resourceTemplate = templateFor(uri.toString());
    const bool fixed = std::any_of(m_resources.begin(), m_resources.end(),
                                   [&uri](const Resource &resource) { return resource.uri == uri.toString(); });
    if (!resourceTemplate && !fixed) {
        return readyFuture(reply.error(ResourceNotFound,
                                       QStringLiteral("Resource not found: %1").arg(uri.toString().left(200)),
                                       QJsonObject{{QStringLiteral("uri"), uri}}));
    }
    {
        const std::lock_guard lock(m_mutex);
        if (m_subscriptions.size() >= kMaxSubscriptions && !m_subscriptions.contains(uri.toString())) {
            return readyFuture(reply.error(
                InvalidRequest,
                QStringLiteral("At most %1 resources can be subscribed to at once; unsubscribe from one first.")
                    .arg(kMaxSubscriptions)));
        }
        if (fixed) {
            // What it shows changes only with a new server binary: there will be nothing to tell.
            m_subscriptions.insert(uri.toString(), QByteArray());
            return readyFuture(reply.result(QJsonObject()));
        }
    }
    // A session file that does not exist yet may be subscribed to: its creation is a change too.
    return QtConcurrent::run(&m_pool, [this, reply, uri = uri.toString(), read = resourceTemplate->read, reader] {
        const QByteArray now = fingerprint(read(uri, reader));
        const std::lock_guard lock(m_mutex);
        m_subscriptions.insert(uri, now);
        return reply.result(QJsonObject());
    });
}

QJsonObject ResourceService::unsubscribe(const Reply &reply, const QJsonObject &params)
{
    const QJsonValue uri = params.value(QStringLiteral("uri"));
    if (!uri.isString()) {
        return reply.error(InvalidParams,
                           QStringLiteral("resources/unsubscribe needs the resource's \"uri\" as a string."));
    }
    const std::lock_guard lock(m_mutex);
    m_subscriptions.remove(uri.toString());
    return reply.result(QJsonObject());
}

void ResourceService::checkSubscriptions(const QJsonObject &arguments, const ResourceReader &reader)
{
    QStringList uris;
    {
        const std::lock_guard lock(m_mutex);
        for (auto it = m_subscriptions.cbegin(); it != m_subscriptions.cend(); ++it) {
            const ResourceTemplate *resourceTemplate = templateFor(it.key());
            if (resourceTemplate && resourceTemplate->changedBy && resourceTemplate->changedBy(it.key(), arguments)) {
                uris << it.key();
            }
        }
    }
    if (uris.isEmpty()) {
        return;
    }
    // Each file is read again through the session's runner: on the pool, after the call's own work.
    m_pool.start([this, uris, reader] {
        for (const QString &uri : uris) {
            const QByteArray now = fingerprint(templateFor(uri)->read(uri, reader));
            {
                const std::lock_guard lock(m_mutex);
                const auto it = m_subscriptions.find(uri);
                if (it == m_subscriptions.end() || *it == now) {
                    continue;
                }
                *it = now;
            }
            m_notify(makeNotification(QStringLiteral("notifications/resources/updated"),
                                      QJsonObject{{QStringLiteral("uri"), uri}}));
        }
    });
}

} // namespace sandbox::mcp
