#pragma once

#include <QCache>
#include <QImage>
#include <QObject>
#include <QSet>
#include <QSize>
#include <QString>
#include <QThreadPool>
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
    /// Waits until every requested thumbnail is made (tests, benchmarks).
    void waitForDone();

signals:
    void thumbnailReady(const QString &path, QSize size);

private:
    void store(const QString &key, const QString &path, QSize size, const Thumbnail &thumbnail);

    QThreadPool m_pool;
    QCache<QString, Thumbnail> m_cache;
    QSet<QString> m_pending;
};

} // namespace sandbox::gui
