#include "gui/widgets/ThumbnailProvider.h"

#include "gui/widgets/SafeImage.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

namespace sandbox::gui {

namespace {

/// Larger files get no thumbnail (a chart is a few MiB at most).
constexpr qint64 kMaxFileBytes = 64LL * 1024 * 1024;

QString cacheKey(const QFileInfo &file, QSize size)
{
    return QStringLiteral("%1|%2x%3|%4|%5")
        .arg(file.absoluteFilePath())
        .arg(size.width())
        .arg(size.height())
        .arg(file.lastModified().toMSecsSinceEpoch())
        .arg(file.size());
}

ThumbnailProvider::Thumbnail make(const QString &path, const QString &mimeType, QSize size)
{
    QFile file(path);
    if (file.size() > kMaxFileBytes) {
        return {{}, QCoreApplication::translate("ThumbnailProvider", "The file is too large for a preview.")};
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return {{}, file.errorString()};
    }
    ThumbnailProvider::Thumbnail thumbnail;
    thumbnail.image = SafeImage::decode(file.read(kMaxFileBytes), mimeType, size, &thumbnail.why);
    return thumbnail;
}

} // namespace

ThumbnailProvider::ThumbnailProvider(QObject *parent) : QObject(parent)
{
    m_pool.setMaxThreadCount(2);
    // About 40 MiB of 160 × 120 thumbnails.
    m_cache.setMaxCost(512);
}

ThumbnailProvider::~ThumbnailProvider()
{
    m_pool.clear();
    m_pool.waitForDone();
}

std::optional<ThumbnailProvider::Thumbnail> ThumbnailProvider::thumbnail(const QString &path, const QString &mimeType,
                                                                         QSize size)
{
    const QString key = cacheKey(QFileInfo(path), size);
    if (const Thumbnail *cached = m_cache.object(key)) {
        return *cached;
    }
    if (!m_pending.contains(key)) {
        m_pending.insert(key);
        m_pool.start([this, key, path, mimeType, size] {
            const Thumbnail made = make(path, mimeType, size);
            QMetaObject::invokeMethod(
                this, [this, key, path, size, made] { store(key, path, size, made); }, Qt::QueuedConnection);
        });
    }
    return std::nullopt;
}

void ThumbnailProvider::waitForDone()
{
    m_pool.waitForDone();
    QCoreApplication::sendPostedEvents(this);
}

void ThumbnailProvider::store(const QString &key, const QString &path, QSize size, const Thumbnail &thumbnail)
{
    m_pending.remove(key);
    m_cache.insert(key, new Thumbnail(thumbnail));
    emit thumbnailReady(path, size);
}

} // namespace sandbox::gui
