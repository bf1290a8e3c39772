#include "artifacts/MimeTypes.h"

#include <QFileInfo>
#include <QHash>

namespace sandbox {

namespace {

const QString kOctetStream = QStringLiteral("application/octet-stream");

} // namespace

QString mimeTypeForFileName(const QString &fileName)
{
    static const QHash<QString, QString> types = {
        {QStringLiteral("png"), QStringLiteral("image/png")},
        {QStringLiteral("jpg"), QStringLiteral("image/jpeg")},
        {QStringLiteral("jpeg"), QStringLiteral("image/jpeg")},
        {QStringLiteral("gif"), QStringLiteral("image/gif")},
        {QStringLiteral("webp"), QStringLiteral("image/webp")},
        {QStringLiteral("svg"), QStringLiteral("image/svg+xml")},
        {QStringLiteral("pdf"), QStringLiteral("application/pdf")},
        {QStringLiteral("html"), QStringLiteral("text/html")},
        {QStringLiteral("htm"), QStringLiteral("text/html")},
        {QStringLiteral("json"), QStringLiteral("application/json")},
        {QStringLiteral("csv"), QStringLiteral("text/csv")},
        {QStringLiteral("tsv"), QStringLiteral("text/tab-separated-values")},
        {QStringLiteral("txt"), QStringLiteral("text/plain")},
    };
    return types.value(QFileInfo(fileName).suffix().toLower(), kOctetStream);
}

QString mimeTypeForContent(const QString &fileName, const QByteArray &data)
{
    const QString byName = mimeTypeForFileName(fileName);
    if (byName != kOctetStream) {
        return byName;
    }
    if (data.startsWith("\x89PNG\r\n\x1a\n")) {
        return QStringLiteral("image/png");
    }
    if (data.startsWith("\xff\xd8\xff")) {
        return QStringLiteral("image/jpeg");
    }
    if (data.startsWith("GIF87a") || data.startsWith("GIF89a")) {
        return QStringLiteral("image/gif");
    }
    if (data.startsWith("RIFF") && data.mid(8, 4) == "WEBP") {
        return QStringLiteral("image/webp");
    }
    if (data.startsWith("%PDF-")) {
        return QStringLiteral("application/pdf");
    }
    const QByteArray head = data.left(512).trimmed().toLower();
    if (head.startsWith("<svg") || (head.startsWith("<?xml") && head.contains("<svg"))) {
        return QStringLiteral("image/svg+xml");
    }
    if (head.startsWith("<!doctype html") || head.startsWith("<html")) {
        return QStringLiteral("text/html");
    }
    return kOctetStream;
}

} // namespace sandbox
