#pragma once

#include <QCache>
#include <QImage>
#include <QObject>
#include <QSet>
#include <QSize>
#include <QString>
#include <QThreadPool>
#include <functional>
#include <optional>

namespace sandbox::gui {

/// Thumbnails of artifact files for every view that shows them, made off the GUI thread (SafeImage: the format from
/// the bytes, a pixel cap, SVG checked before it is rendered) and cached by path, size and the file's modification
/// time and length, so a file rewritten in place gets a new one.
class ThumbnailProvider final : public QObject
{
    Q_OBJECT

public:
    struct Thumbnail
    {
        QImage image; ///< null when the file is no image that can be shown
        QString why;  ///< then, why
    };

    explicit ThumbnailProvider(QObject *parent = nullptr);
    /// Waits for the thumbnails being made.
    ~ThumbnailProvider() override;

    /// The thumbnail of the file at `path` fitted into `size`, when it is made; otherwise nullopt, it is being made
    /// now and thumbnailReady() follows.
    std::optional<Thumbnail> thumbnail(const QString &path, const QString &mimeType, QSize size);
    /// The same for bytes in memory (a live run's artifact), cached by their hash; thumbnailReady() names them by
    /// keyOf(data).
    std::optional<Thumbnail> thumbnail(const QByteArray &data, const QString &mimeType, QSize size);
    /// What thumbnailReady() calls bytes in memory.
    static QString keyOf(const QByteArray &data);
    /// Waits until every requested thumbnail is made (tests).
    void waitForDone();
    /// Whether thumbnails asked for are still being made.
    bool isBusy() const { return !m_pending.isEmpty(); }

signals:
    /// The thumbnail of the file at `path` (or of the bytes keyOf() names) is made.
    void thumbnailReady(const QString &path, QSize size);

private:
    std::optional<Thumbnail> lookUp(const QString &key, const QString &name, QSize size,
                                    std::function<Thumbnail()> make);
    void store(const QString &key, const QString &path, QSize size, const Thumbnail &thumbnail);

    QThreadPool m_pool;
    QCache<QString, Thumbnail> m_cache;
    QSet<QString> m_pending;
    int m_requests = 0; ///< the newest request's priority: what a view asks for last is what it shows now
};

} // namespace sandbox::gui
