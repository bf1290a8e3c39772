#include "mcp/http/HttpErrorResponse.h"

#include "mcp/protocol/JsonRpc.h"

#include <QJsonDocument>

namespace sandbox::mcp {

QByteArray HttpErrorResponse::reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 202:
        return "Accepted";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 415:
        return "Unsupported Media Type";
    case 417:
        return "Expectation Failed";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Error";
    }
}

QByteArray HttpErrorResponse::body(const QString &message, int code)
{
    QJsonObject error = jsonrpc::makeError(QJsonValue::Null, code, message, QJsonValue(QJsonValue::Undefined));
    // There is no request id to name: left out, as 2025-11-25 has it (no revision's schema allows "id": null).
    error.remove(QStringLiteral("id"));
    return QJsonDocument(error).toJson(QJsonDocument::Compact);
}

QByteArray HttpErrorResponse::closingResponse(int status, const QString &message, const QByteArray &headers)
{
    const QByteArray content = body(message);
    return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) +
           "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(content.size()) +
           "\r\nConnection: close\r\n" + headers + "\r\n" + content;
}

} // namespace sandbox::mcp
