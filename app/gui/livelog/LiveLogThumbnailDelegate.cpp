#include "gui/livelog/LiveLogThumbnailDelegate.h"

#include "gui/livelog/LiveLogModel.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace sandbox::gui {

namespace {

/// Images read per run: the thumbnails shown and how many more there are (one that made hundreds says "+97").
constexpr int kImagesRead = 100;
constexpr int kGap = 3;

} // namespace

LiveLogThumbnailDelegate::LiveLogThumbnailDelegate(JournalFeed &feed, ThumbnailProvider &thumbnails,
                                                   QAbstractItemView *view)
    : QStyledItemDelegate(view), m_feed(feed), m_thumbnails(thumbnails), m_view(view)
{
    connect(view->model(), &QAbstractItemModel::dataChanged, this, &LiveLogThumbnailDelegate::onRowsChanged);
    connect(view->model(), &QAbstractItemModel::modelReset, this, [this] { m_runs.clear(); });
    connect(&m_thumbnails, &ThumbnailProvider::thumbnailReady, this, [this](const QString &path) {
        if (m_wanted.contains(path)) {
            m_view->viewport()->update();
        }
    });
}

QSize LiveLogThumbnailDelegate::thumbnailSize(int rowHeight)
{
    const int height = std::max(8, rowHeight - 4);
    return {height * 3 / 2, height};
}

const LiveLogThumbnailDelegate::Run &LiveLogThumbnailDelegate::runOf(const QString &runId)
{
    Run &run = m_runs[runId];
    if (run.read == run.changes || run.reading) {
        return run;
    }
    run.reading = true;
    const int changes = run.changes;
    m_feed.read<QList<JournalArtifact>>(
        this,
        [runId](const JournalReader &reader) {
            ArtifactFilter filter;
            filter.runId = runId;
            filter.mimeType = QStringLiteral("image/");
            QList<JournalArtifact> images;
            if (const auto entries = reader.artifacts(filter, kImagesRead)) {
                for (const JournalArtifactEntry &entry : *entries) {
                    images.append(entry.artifact);
                }
            }
            return images;
        },
        [this, runId, changes](QList<JournalArtifact> images) {
            const auto it = m_runs.find(runId);
            if (it == m_runs.end()) {
                return;
            }
            it->reading = false;
            it->read = changes;
            it->more = std::max(0, int(images.size()) - MaxThumbnails);
            it->images = images.mid(0, MaxThumbnails);
            m_view->viewport()->update();
        });
    return run;
}

void LiveLogThumbnailDelegate::onRowsChanged(const QModelIndex &from, const QModelIndex &to)
{
    for (int row = from.row(); row <= to.row(); ++row) {
        const auto it = m_runs.find(from.siblingAtRow(row).data(LiveLogModel::RunIdRole).toString());
        if (it != m_runs.end()) {
            ++it->changes;
        }
    }
}

LiveLogThumbnailDelegate::Placement LiveLogThumbnailDelegate::place(const QStyleOptionViewItem &option,
                                                                    const QModelIndex &index, const Run &run) const
{
    // The result's text keeps the room it needs: the thumbnails take what is left, "+n" only when it fits too.
    const QRect &cell = option.rect;
    const int room = cell.width() - QStyledItemDelegate::sizeHint(option, index).width() - kGap;
    const QSize size = thumbnailSize(cell.height());
    const int shown = std::min(int(run.images.size()), room / (size.width() + kGap));
    if (shown <= 0) {
        return {};
    }
    Placement placement;
    const int hidden = int(run.images.size()) + run.more - shown;
    placement.more = hidden > 0 ? tr("+%n", "more charts than the row shows", hidden) : QString();
    int moreWidth = placement.more.isEmpty() ? 0 : m_view->fontMetrics().horizontalAdvance(placement.more) + kGap;
    if (shown * (size.width() + kGap) + moreWidth > room) {
        placement.more.clear();
        moreWidth = 0;
    }
    int left = cell.right() + 1 - shown * (size.width() + kGap) - moreWidth;
    for (int i = 0; i < shown; ++i) {
        placement.thumbnails.append(QRect(QPoint(left, cell.top() + (cell.height() - size.height()) / 2), size));
        left += size.width() + kGap;
    }
    placement.moreRect = QRect(left, cell.top(), moreWidth, cell.height());
    return placement;
}

void LiveLogThumbnailDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                                     const QModelIndex &index) const
{
    // Painting asks for what is not read yet (the rows on screen only); what is read is not changed here.
    auto *self = const_cast<LiveLogThumbnailDelegate *>(this);
    const Run &run = self->runOf(index.data(LiveLogModel::RunIdRole).toString());
    const Placement placement = place(option, index, run);
    if (placement.thumbnails.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    const QList<QRect> &rects = placement.thumbnails;

    // The cell's background (and selection) across the whole cell, its text before the thumbnails.
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &item, painter, widget);
    QStyleOptionViewItem text = item;
    text.rect.setRight(rects.first().left() - kGap);
    style->drawControl(QStyle::CE_ItemViewItem, &text, painter, widget);

    const qreal ratio = painter->device()->devicePixelRatioF();
    const QSize size = thumbnailSize(option.rect.height()) * ratio;
    const QColor frame = option.palette.color(QPalette::Mid);
    for (int i = 0; i < rects.size(); ++i) {
        const JournalArtifact &image = run.images.at(i);
        self->m_wanted.insert(image.path);
        const auto thumbnail = m_thumbnails.thumbnail(image.path, image.mimeType, size);
        if (thumbnail && !thumbnail->image.isNull()) {
            QImage shown = thumbnail->image;
            shown.setDevicePixelRatio(ratio);
            const QSizeF drawn = shown.deviceIndependentSize();
            painter->drawImage(QPointF(rects[i].left() + (rects[i].width() - drawn.width()) / 2,
                                       rects[i].top() + (rects[i].height() - drawn.height()) / 2),
                               shown);
        }
        painter->setPen(frame);
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(rects[i].adjusted(0, 0, -1, -1));
    }
    if (!placement.more.isEmpty()) {
        painter->setPen(option.palette.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                                   : QPalette::PlaceholderText));
        painter->drawText(placement.moreRect, Qt::AlignLeft | Qt::AlignVCenter, placement.more);
    }
}

bool LiveLogThumbnailDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                                         const QModelIndex &index)
{
    if (event->type() == QEvent::ToolTip) {
        const Run &run = m_runs.value(index.data(LiveLogModel::RunIdRole).toString());
        const QList<QRect> rects = place(option, index, run).thumbnails;
        for (int i = 0; i < rects.size(); ++i) {
            if (rects[i].contains(event->pos())) {
                QToolTip::showText(event->globalPos(), run.images.at(i).name, view, rects[i]);
                return true;
            }
        }
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
}

} // namespace sandbox::gui
