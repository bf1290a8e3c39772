#pragma once

#include "journal/JournalRun.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QSize>
#include <QStyledItemDelegate>

class QAbstractItemView;

namespace sandbox {
class JournalFeed;
}

namespace sandbox::gui {

class ThumbnailProvider;

/// The live log's Result column with the run's charts in it: its text as the model gives it, and at the cell's end
/// small thumbnails of the run's first image artifacts, as many as fit beside the text, which keeps the room it needs
/// ("+n" for the others). The artifacts of a row on screen are read on the feed's thread, again when the row changes (a
/// running run gains charts); the thumbnails are made by the ThumbnailProvider, off the GUI thread with SafeImage's
/// limits. Until one is made its place is an empty frame.
class LiveLogThumbnailDelegate final : public QStyledItemDelegate
{
    Q_OBJECT

public:
    /// For `view`, whose model gives each row's run id under LiveLogModel::RunIdRole.
    LiveLogThumbnailDelegate(JournalFeed &feed, ThumbnailProvider &thumbnails, QAbstractItemView *view);

    /// Thumbnails shown at most per row.
    static constexpr int MaxThumbnails = 3;

    /// The image artifacts of run `runId` as last read (empty until read).
    QList<JournalArtifact> imagesOf(const QString &runId) const { return m_runs.value(runId).images; }
    /// The size of the thumbnails in a row `rowHeight` high (in device-independent pixels).
    static QSize thumbnailSize(int rowHeight);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                   const QModelIndex &index) override;

private:
    struct Run
    {
        QList<JournalArtifact> images; ///< the first ones, in the run's order
        int more = 0;                  ///< images after those (up to the ones read)
        int changes = 0;               ///< how often its row changed
        int read = -1;                 ///< `changes` when the images were last read
        bool reading = false;
    };

    /// The run's images, read (again) when its row changed since they were.
    const Run &runOf(const QString &runId);
    /// Where a run's thumbnails go in its cell: as many as fit beside the text, then "+n" for the others.
    struct Placement
    {
        QList<QRect> thumbnails; ///< of the run's first images; none when not even one fits
        QRect moreRect;
        QString more;
    };
    Placement place(const QStyleOptionViewItem &option, const QModelIndex &index, const Run &run) const;
    void onRowsChanged(const QModelIndex &from, const QModelIndex &to);

    JournalFeed &m_feed;
    ThumbnailProvider &m_thumbnails;
    QAbstractItemView *m_view;
    QHash<QString, Run> m_runs;
    QSet<QString> m_wanted; ///< the files whose thumbnails were asked for
};

} // namespace sandbox::gui
