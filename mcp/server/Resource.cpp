#include "mcp/server/Resource.h"

namespace sandbox::mcp {

bool isTextMimeType(const QString &mimeType)
{
    return mimeType.startsWith(QLatin1String("text/")) || mimeType == QLatin1String("application/json") ||
           mimeType == QLatin1String("image/svg+xml") || mimeType.endsWith(QLatin1String("+json")) ||
           mimeType.endsWith(QLatin1String("+xml"));
}

} // namespace sandbox::mcp
