#pragma once

#include "engine/RunSource.h"
#include "mcp/protocol/LogLevel.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <stop_token>
#include <utility>

namespace sandbox {
class ExchangeSink;
}

namespace sandbox::mcp {

/// One tools/call as a handler sees it.
struct ToolCall
{
    /// Validated against the tool's input schema, with schema defaults filled in.
    QJsonObject arguments;
    /// The names of the arguments the client sent itself (the others in `arguments` are defaults).
    QStringList givenArguments;
    /// The protocol revision negotiated with the client (e.g. "2025-06-18").
    QString protocolVersion;
    /// Requested when the client cancels the call or the server shuts down.
    std::stop_token stop;
    /// Sends a notifications/progress to the client; a no-op when the request carried no progress token.
    std::function<void(const QString &message)> progress = [](const QString &) {
    };
    /// Sends a notifications/message to the client (filtered by the level the client set).
    std::function<void(LogLevel level, const QString &message)> log = [](LogLevel, const QString &) {
    };
    /// The tools/call request exactly as the client sent it (a JSON-RPC message).
    QJsonObject request;
    /// Where the call came from: Mcp (stdio) or Http.
    RunSource source = RunSource::Mcp;
    /// Who owns the sandbox sessions this call opens and may use: the HTTP transport's MCP session id; empty for
    /// stdio's one client. A 2026-07-28 request over HTTP owns nothing (a value of its own).
    QString owner;
    /// The sessions this call opens are reached by a handle instead of by `owner` (SessionHandle): for requests
    /// that come alone over HTTP, where no owner can be told.
    bool sessionHandles = false;
    /// The client's clientInfo from initialize.
    QString clientName;
    QString clientVersion;
    /// This client's connection (McpDispatcher's own random id), for the journal to keep with the runs the call
    /// starts: only this connection reads their files back (ResourceReader::connection).
    QString connection;
    /// The run journal (DispatcherOptions::exchangeSink): a run's files are read back from it, only for `connection`;
    /// null when the journal is off.
    ExchangeSink *journal = nullptr;
    /// A handler that starts an engine run tells its id here, so the exchange is journaled with that run.
    std::function<void(const QString &runId)> ranAs = [](const QString &) {
    };

    /// The client can read the run's files back as resources (sandbox://runs/{run_id}/artifacts/{name}): large
    /// images and files that are not images then travel as resource_link items instead of inline.
    bool artifactLinks = false;

    /// True when the client understands structuredContent and outputSchema (2025-06-18 and later).
    bool supportsStructuredContent() const;
};

/// Returns a CallToolResult object ({content, isError, structuredContent, ...}).
using ToolHandler = std::function<QJsonObject(const ToolCall &call)>;

/// A tool the server offers, declared once: what tools/list shows and what tools/call runs.
struct Tool
{
    QString name;
    QString title;
    QString description;
    QJsonObject inputSchema;
    /// Sent only to clients on 2025-06-18 or later; the handler must then return matching structuredContent.
    QJsonObject outputSchema;
    QJsonObject annotations;
    /// Long tools run on a worker thread and can be cancelled; short ones answer on the protocol thread.
    bool longRunning = false;
    ToolHandler handler;
    /// Top-level arguments a 2026-07-28 client mirrors into an `Mcp-Param-<name>` HTTP header (x-mcp-header), so a
    /// gateway can route on them without reading the body: argument -> header name. The HTTP transport checks that
    /// each header matches its argument.
    QList<std::pair<QString, QString>> headerArguments;
    /// The `_meta` a tool has for clients that render MCP Apps (RunViewResource::toolMeta()); empty for none. The other
    /// clients never see it.
    QJsonObject uiMeta;
};

/// A CallToolResult with one text item.
QJsonObject textToolResult(const QString &text);
/// A CallToolResult with isError set: `message` should be a sentence the model can act on.
QJsonObject errorToolResult(const QString &message);

} // namespace sandbox::mcp
