#pragma once

#include <QListWidget>

namespace sandbox {
struct Artifact;
struct JournalArtifact;
} // namespace sandbox

namespace sandbox::gui {

/// A row of chart thumbnails (PNG, JPEG, GIF, SVG; HTML and other files as an icon with their name).
/// Activating one shows an image larger, and offers to save anything else (ArtifactPreviewDialog::showArtifact).
class ArtifactStrip final : public QListWidget
{
    Q_OBJECT

public:
    explicit ArtifactStrip(QWidget *parent = nullptr);

    /// An artifact of a live run (its bytes are in memory).
    void addArtifact(const Artifact &artifact);
    /// An artifact recorded in the journal (its bytes are in a file).
    void addArtifact(const JournalArtifact &artifact);
    void clearArtifacts();

    static constexpr QSize ThumbnailSize{160, 120};

signals:
    void countChanged(int count);

private:
    void add(const QString &name, const QString &mimeType, const QByteArray &data, const QString &path);
    void open(QListWidgetItem *item);
};

} // namespace sandbox::gui
