#pragma once

#include "journal/JournalRun.h"

#include <QAbstractListModel>
#include <QHash>
#include <QList>
#include <QSize>

namespace sandbox::gui {

class ThumbnailProvider;

/// The artifacts of the journal as a grid: one item per artifact, its thumbnail from the ThumbnailProvider (a
/// placeholder until it is made, or when the file is no image the app shows).
class GalleryModel final : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role
    {
        RunIdRole = Qt::UserRole + 1,
        PathRole,
        MimeTypeRole,
    };
    static constexpr QSize ThumbnailSize{160, 120};

    explicit GalleryModel(ThumbnailProvider &thumbnails, QObject *parent = nullptr);

    void setEntries(QList<JournalArtifactEntry> entries);
    const JournalArtifactEntry &entry(int row) const { return m_entries.at(row); }
    const QList<JournalArtifactEntry> &entries() const { return m_entries; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QStringList mimeTypes() const override;
    /// A drag carries a private copy of the artifact (ArtifactDrag), never the journal's own file.
    QMimeData *mimeData(const QModelIndexList &indexes) const override;

private:
    void thumbnailReady(const QString &path, QSize size);

    ThumbnailProvider &m_thumbnails;
    QList<JournalArtifactEntry> m_entries;
    QHash<QString, int> m_rowOfPath;
};

} // namespace sandbox::gui
