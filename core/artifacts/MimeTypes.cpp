#include "artifacts/MimeTypes.h"

#include <QFileInfo>
#include <QHash>

namespace sandbox {

QString mimeTypeForFileName(const QString &fileName)
{
    static const QHash<QString, QString> types = {
        {QStringLiteral("png"), QStringLiteral("image/png")},
        {QStringLiteral("jpg"), QStringLiteral("image/jpeg")},
        {QStringLiteral("jpeg"), QStringLiteral("image/jpeg")},
        {QStringLiteral("gif"), QStringLiteral("image/gif")},
        {QStringLiteral("svg"), QStringLiteral("image/svg+xml")},
        {QStringLiteral("pdf"), QStringLiteral("application/pdf")},
        {QStringLiteral("html"), QStringLiteral("text/html")},
        {QStringLiteral("htm"), QStringLiteral("text/html")},
        {QStringLiteral("json"), QStringLiteral("application/json")},
        {QStringLiteral("csv"), QStringLiteral("text/csv")},
        {QStringLiteral("txt"), QStringLiteral("text/plain")},
    };
    return types.value(QFileInfo(fileName).suffix().toLower(), QStringLiteral("application/octet-stream"));
}

} // namespace sandbox
