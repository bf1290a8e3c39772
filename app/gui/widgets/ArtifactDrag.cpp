#include "gui/widgets/ArtifactDrag.h"

#include "gui/widgets/ArtifactPreviewDialog.h"
#include "gui/widgets/SafeImage.h"
#include "util/PrivateFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QMimeData>
#include <QMimeDatabase>
#include <QTemporaryDir>
#include <QUrl>

namespace sandbox::gui {

namespace {

Q_LOGGING_CATEGORY(lcDrag, "sandbox.gui.drag")

/// Longer names are cut (keeping the extension): every file system takes 255 bytes.
constexpr qsizetype kMaxNameLength = 120;

/// Text types whose data is read as data wherever it is dropped.
const QStringList &plainDataTypes()
{
    static const QStringList types{QStringLiteral("text/csv"), QStringLiteral("text/tab-separated-values"),
                                   QStringLiteral("application/json"), QStringLiteral("text/markdown"),
                                   QStringLiteral("text/plain")};
    return types;
}

/// The folder of every drag's copy, made on first use by QTemporaryDir (mkdtemp: 0700) and removed with the app.
QTemporaryDir &dragFolder()
{
    static QTemporaryDir folder(QDir::temp().filePath(QStringLiteral("llm-sandbox-drag-XXXXXX")));
    return folder;
}

/// `name` as a file name of its own: no folders, no control characters, no leading dots (a hidden file), not
/// too long, and for an image the extension of what its bytes are (a PNG named `chart.desktop` goes as
/// `chart.desktop.png`).
QString fileNameFor(const QString &name, const QByteArray &data, const QString &mimeType)
{
    QString cleaned;
    for (const QChar c : QFileInfo(QString(name).replace(QLatin1Char('\\'), QLatin1Char('/'))).fileName()) {
        if (c.isPrint()) {
            cleaned += c;
        }
    }
    while (cleaned.startsWith(QLatin1Char('.'))) {
        cleaned.remove(0, 1);
    }
    cleaned = cleaned.trimmed();
    if (cleaned.isEmpty()) {
        cleaned = QStringLiteral("artifact");
    }
    const SafeImage::Kind kind = SafeImage::kindOf(data, mimeType);
    if (kind == SafeImage::Kind::Raster || kind == SafeImage::Kind::Svg) {
        QMimeDatabase types;
        const QMimeType type = kind == SafeImage::Kind::Svg ? types.mimeTypeForName(QStringLiteral("image/svg+xml"))
                                                            : types.mimeTypeForData(data);
        const QString suffix = QFileInfo(cleaned).suffix().toLower();
        if (!type.preferredSuffix().isEmpty() && !type.suffixes().contains(suffix)) {
            cleaned += QLatin1Char('.') + type.preferredSuffix();
        }
    }
    if (cleaned.size() > kMaxNameLength) {
        const QString suffix = QFileInfo(cleaned).suffix().left(16);
        cleaned = cleaned.left(kMaxNameLength - suffix.size() - 1) + QLatin1Char('.') + suffix;
    }
    return cleaned;
}

} // namespace

QString ArtifactDrag::folder()
{
    return dragFolder().path();
}

QString ArtifactDrag::offeredType(const QString &mimeType, const QByteArray &data)
{
    switch (SafeImage::kindOf(data, mimeType)) {
    case SafeImage::Kind::Raster: {
        const QString type = QMimeDatabase().mimeTypeForData(data).name();
        return type.startsWith(QLatin1String("image/")) ? type : QString();
    }
    case SafeImage::Kind::Svg:
        return QStringLiteral("text/plain");
    case SafeImage::Kind::Text:
        return plainDataTypes().contains(mimeType) ? mimeType : QStringLiteral("text/plain");
    case SafeImage::Kind::Other:
        break;
    }
    return {};
}

QMimeData *ArtifactDrag::mimeData(const PreviewItem &artifact)
{
    QByteArray data = artifact.data;
    if (QFile file(artifact.path); data.isEmpty() && !artifact.path.isEmpty()) {
        if (!file.open(QIODevice::ReadOnly)) {
            qCWarning(lcDrag).noquote() << "cannot read" << artifact.path << "for a drag:" << file.errorString();
            return nullptr;
        }
        data = file.readAll();
    }
    QTemporaryDir &root = dragFolder();
    // A folder per drag: a program still reading the copy of an earlier drag of the same name keeps its file.
    static int drags = 0;
    const QString folder = root.filePath(QString::number(++drags));
    QString error;
    const QString path = QDir(folder).filePath(fileNameFor(artifact.name, data, artifact.mimeType));
    if (!root.isValid() || !PrivateFiles::makeDirectory(folder) || !PrivateFiles::write(path, data, &error)) {
        qCWarning(lcDrag).noquote() << "cannot write the copy" << path << "for a drag:" << error << root.errorString();
        return nullptr;
    }
    auto *mime = new QMimeData;
    mime->setUrls({QUrl::fromLocalFile(path)});
    if (const QString type = offeredType(artifact.mimeType, data); !type.isEmpty()) {
        mime->setData(type, data);
    }
    return mime;
}

} // namespace sandbox::gui
