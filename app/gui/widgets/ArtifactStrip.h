#pragma once

#include <QJsonObject>
#include <QListWidget>

namespace sandbox {
struct Artifact;
struct JournalArtifact;
} // namespace sandbox

namespace sandbox::gui {

class ThumbnailProvider;

/// A row of chart thumbnails (from the ThumbnailProvider: made off the GUI thread; HTML and other files as an icon
/// with their name). Activating one opens the strip's artifacts in the app's preview (ArtifactPreviewDialog), never
/// in another program; dragging one out hands another program a private copy (ArtifactDrag).
class ArtifactStrip final : public QListWidget
{
    Q_OBJECT

public:
    explicit ArtifactStrip(ThumbnailProvider &thumbnails, QWidget *parent = nullptr);

    /// An artifact of a live run (its bytes are in memory).
    void addArtifact(const Artifact &artifact);
    /// An artifact recorded in the journal (its bytes are in a file).
    void addArtifact(const JournalArtifact &artifact);
    void clearArtifacts();
    /// Whether every artifact is an image (a chart).
    bool onlyImages() const;
    /// What the strip holds, by kind: "Charts (2)", or "Files (2): 1 table and 1 web page".
    QString title() const;
    /// Opens the preview at `row`; returns the dialog (owned by the strip's window).
    class ArtifactPreviewDialog *open(int row);

    static constexpr QSize ThumbnailSize{160, 120};

signals:
    void countChanged(int count);

protected:
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QList<QListWidgetItem *> &items) const override;

private:
    void add(const QString &name, const QString &mimeType, const QByteArray &data, const QString &path, qint64 size,
             const QJsonObject &chart);
    void showThumbnail(QListWidgetItem *item);
    void thumbnailReady(const QString &key, QSize size);

    ThumbnailProvider &m_thumbnails;
};

} // namespace sandbox::gui
