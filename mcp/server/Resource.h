#pragma once

#include "util/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <functional>

namespace sandbox {
class ExchangeSink;
}

namespace sandbox::mcp {

/// A read-only resource the server offers (resources/list, resources/read).
struct Resource
{
    QString uri;
    QString name;
    QString title;
    QString description;
    QString mimeType;
    std::function<QString()> read;
    /// The resource's `_meta`, in resources/list and in what resources/read returns; empty for none.
    QJsonObject meta;
    /// Listed only to the clients that render MCP Apps (RunViewResource): the others are shown exactly what they were
    /// before.
    bool forUiClients = false;
};

/// What resources/read of a templated resource serves.
struct ResourceContents
{
    QString mimeType;
    QByteArray data;
};

/// Who reads a templated resource: a client reads only what it made itself.
struct ResourceReader
{
    /// The MCP session that asks (ToolCall::owner): the owner of the sandbox sessions it may read.
    QString owner;
    /// The connection that asks (ToolCall::connection): the journal serves the files of its own runs only.
    QString connection;
    /// The journal the runs' artifacts are read from; may be null (then there are none to read).
    ExchangeSink *journal = nullptr;
};

/// A family of resources named by a URI template (RFC 6570, simple expansion): resources/templates/list shows it,
/// resources/read of a URI that starts with `prefix` reads through it (off the protocol thread).
struct ResourceTemplate
{
    QString uriTemplate;
    QString name;
    QString title;
    QString description;
    /// The fixed start of every URI of the template.
    QString prefix;
    /// ErrorCode::NotFound (or BadRequest) when `uri` names nothing `reader` may read.
    std::function<Result<ResourceContents>(const QString &uri, const ResourceReader &reader)> read;
    /// Whether a tool call with these (validated) arguments may have changed the resource at `uri`: its subscribers
    /// are then told if it did. Empty: the template's resources never change.
    std::function<bool(const QString &uri, const QJsonObject &arguments)> changedBy;
};

/// Whether a resource of this MIME type travels as `text` (UTF-8) rather than as a base64 `blob`.
bool isTextMimeType(const QString &mimeType);

} // namespace sandbox::mcp
