#include "mcp/protocol/ProtocolVersion.h"

namespace sandbox::mcp {

QStringList ProtocolVersion::supported()
{
    return {QStringLiteral("2024-11-05"), QStringLiteral("2025-03-26"), QStringLiteral("2025-06-18"), kLatest};
}

QStringList ProtocolVersion::perRequest()
{
    return {kStateless};
}

QString ProtocolVersion::negotiate(const QString &requested)
{
    return supported().contains(requested) ? requested : kLatest;
}

} // namespace sandbox::mcp
