#include "gui/widgets/ThumbnailProvider.h"

#include "gui/widgets/SafeImage.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QThread>

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

ThumbnailProvider::Thumbnail fromFile(const QString &path, const QString &mimeType, QSize size)
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
    // A core stays free for the GUI thread, which paints while thumbnails are made.
    m_pool.setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 1));
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
    return lookUp(cacheKey(QFileInfo(path), size), path, size,
                  [path, mimeType, size] { return fromFile(path, mimeType, size); });
}

std::optional<ThumbnailProvider::Thumbnail> ThumbnailProvider::thumbnail(const QByteArray &data,
                                                                         const QString &mimeType, QSize size)
{
    const QString name = keyOf(data);
    return lookUp(QStringLiteral("%1|%2x%3").arg(name).arg(size.width()).arg(size.height()), name, size,
                  [data, mimeType, size] {
                      Thumbnail thumbnail;
                      thumbnail.image = SafeImage::decode(data, mimeType, size, &thumbnail.why);
                      return thumbnail;
                  });
}

QString ThumbnailProvider::keyOf(const QByteArray &data)
{
    return QStringLiteral("data:") +
           QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

std::optional<ThumbnailProvider::Thumbnail> ThumbnailProvider::lookUp(const QString &key, const QString &name,
                                                                      QSize size, std::function<Thumbnail()> make)
{
    if (const Thumbnail *cached = m_cache.object(key)) {
        return *cached;
    }
    if (!m_pending.contains(key)) {
        m_pending.insert(key);
        // Newest first: a view scrolled past a thousand thumbnails shows the ones now on screen next, not after the
        // rest.
        m_pool.start(
            [this, key, name, size, make = std::move(make)] {
                const Thumbnail made = make();
                QMetaObject::invokeMethod(
                    this, [this, key, name, size, made] { store(key, name, size, made); }, Qt::QueuedConnection);
            },
            ++m_requests);
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
