#include "gui/gallery/GalleryModel.h"

#include "gui/RunText.h"
#include "gui/widgets/ArtifactDrag.h"
#include "gui/widgets/ArtifactPreviewDialog.h"
#include "gui/widgets/ThumbnailProvider.h"

#include <QApplication>
#include <QFileInfo>
#include <QLocale>
#include <QPainter>
#include <QStyle>

namespace sandbox::gui {

namespace {

/// What stands in for a thumbnail (still being made, or not an image the app shows): a file icon on a blank card.
QImage placeholder()
{
    static const QImage image = [] {
        QImage card(GalleryModel::ThumbnailSize, QImage::Format_ARGB32_Premultiplied);
        card.fill(Qt::transparent);
        QPainter painter(&card);
        QApplication::style()->standardIcon(QStyle::SP_FileIcon).paint(&painter, QRect(56, 36, 48, 48));
        return card;
    }();
    return image;
}

} // namespace

GalleryModel::GalleryModel(ThumbnailProvider &thumbnails, QObject *parent)
    : QAbstractListModel(parent), m_thumbnails(thumbnails)
{
    connect(&m_thumbnails, &ThumbnailProvider::thumbnailReady, this, &GalleryModel::thumbnailReady);
}

namespace {

bool sameArtifact(const JournalArtifactEntry &a, const JournalArtifactEntry &b)
{
    return a.runId == b.runId && a.position == b.position && a.artifact.path == b.artifact.path;
}

/// Whether `before` is `after` with some entries left out (in the same order): `after` only added artifacts.
bool onlyAdds(const QList<JournalArtifactEntry> &before, const QList<JournalArtifactEntry> &after)
{
    qsizetype next = 0;
    for (const JournalArtifactEntry &entry : after) {
        if (next < before.size() && sameArtifact(entry, before.at(next))) {
            ++next;
        }
    }
    return next == before.size();
}

/// More new rows than this at once are shown by a reset (one layout) rather than row by row.
constexpr qsizetype kMaxInsertedRows = 200;

} // namespace

void GalleryModel::setEntries(QList<JournalArtifactEntry> entries)
{
    // The journal read again after a change nearly always has what was shown and a few artifacts more (of runs in
    // progress): those rows are inserted, so the view keeps its place and lays out only them.
    if (!m_entries.isEmpty() && entries.size() - m_entries.size() <= kMaxInsertedRows && onlyAdds(m_entries, entries)) {
        for (qsizetype row = 0; row < entries.size(); ++row) {
            if (row < m_entries.size() && sameArtifact(entries.at(row), m_entries.at(row))) {
                continue;
            }
            beginInsertRows({}, int(row), int(row));
            m_entries.insert(row, entries.at(row));
            endInsertRows();
        }
    } else {
        beginResetModel();
        m_entries = std::move(entries);
        endResetModel();
    }
    m_rowOfPath.clear();
    for (int row = 0; row < m_entries.size(); ++row) {
        m_rowOfPath.insert(m_entries.at(row).artifact.path, row);
    }
}

int GalleryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant GalleryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size()) {
        return {};
    }
    const JournalArtifactEntry &entry = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole: {
        // Every run's first chart is called figure_1.png: its title where it has one, and the run, its client and its
        // time tell them apart.
        const QString title = entry.artifact.chartTitle.simplified();
        return tr("%1 · run %2\n%3 · %4")
            .arg(title.isEmpty() ? entry.artifact.name : title.left(60), entry.runId.left(6),
                 runSourceText(entry.source, entry.clientName),
                 QLocale().toString(entry.startedAt.toLocalTime().time(), QLocale::ShortFormat));
    }
    case Qt::DecorationRole: {
        const auto thumbnail = m_thumbnails.thumbnail(entry.artifact.path, entry.artifact.mimeType, ThumbnailSize);
        return thumbnail && !thumbnail->image.isNull() ? thumbnail->image : placeholder();
    }
    case Qt::ToolTipRole: {
        return tr("%1\n%2, %3\n%4 run of %5 (%6)")
            .arg(entry.artifact.name, entry.artifact.mimeType, dataSizeText(entry.artifact.size),
                 languageText(entry.language), QLocale().toString(entry.startedAt.toLocalTime(), QLocale::ShortFormat),
                 runSourceText(entry.source, entry.clientName));
    }
    case RunIdRole:
        return entry.runId;
    case PathRole:
        return entry.artifact.path;
    case MimeTypeRole:
        return entry.artifact.mimeType;
    default:
        return {};
    }
}

Qt::ItemFlags GalleryModel::flags(const QModelIndex &index) const
{
    return QAbstractListModel::flags(index) | (index.isValid() ? Qt::ItemIsDragEnabled : Qt::NoItemFlags);
}

QStringList GalleryModel::mimeTypes() const
{
    return {QStringLiteral("text/uri-list")};
}

QMimeData *GalleryModel::mimeData(const QModelIndexList &indexes) const
{
    if (indexes.isEmpty()) {
        return nullptr;
    }
    const JournalArtifactEntry &entry = m_entries.at(indexes.first().row());
    return ArtifactDrag::mimeData(
        PreviewItem{entry.artifact.name, entry.artifact.mimeType, {}, entry.artifact.path, {}});
}

void GalleryModel::thumbnailReady(const QString &path, QSize size)
{
    if (size != ThumbnailSize) {
        return;
    }
    if (auto it = m_rowOfPath.constFind(path); it != m_rowOfPath.constEnd()) {
        const QModelIndex changed = index(*it);
        emit dataChanged(changed, changed, {Qt::DecorationRole});
    }
}

} // namespace sandbox::gui
