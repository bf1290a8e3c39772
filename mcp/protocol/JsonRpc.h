#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

// Builders for JSON-RPC 2.0 messages, shared by the dispatcher and the transports.
namespace sandbox::mcp::jsonrpc {

enum ErrorCode : int
{
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
    // MCP's own code for resources/read of an unknown URI (2025-11-25 and older; 2026-07-28 uses InvalidParams).
    ResourceNotFound = -32002,
    // The codes 2026-07-28 defines (the -32020..-32099 range is the specification's).
    HeaderMismatch = -32020,
    MissingRequiredClientCapability = -32021,
    UnsupportedProtocolVersion = -32022,
};

QJsonObject makeResult(const QJsonValue &id, const QJsonObject &result);
QJsonObject makeError(const QJsonValue &id, int code, const QString &message, const QJsonValue &data = {});
QJsonObject makeNotification(const QString &method, const QJsonObject &params);

/// A key that tells request ids apart by type too: the string "1" and the number 1 are different ids.
QString idKey(const QJsonValue &id);

} // namespace sandbox::mcp::jsonrpc
