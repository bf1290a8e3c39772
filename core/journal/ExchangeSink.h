#pragma once

#include <QJsonObject>
#include <QString>

namespace sandbox {

/// Receives a tool call exactly as an MCP client sent it and the reply exactly as it was returned, for the run
/// the call started. The MCP layer calls it from its worker threads: implementations must be thread-safe.
class ExchangeSink
{
public:
    virtual ~ExchangeSink() = default;

    virtual void recordExchange(const QString &runId, const QJsonObject &request, const QJsonObject &response,
                                const QString &protocolVersion) = 0;
};

} // namespace sandbox
