#include "gui/widgets/ArtifactStrip.h"

#include "artifacts/Artifact.h"
#include "gui/RunText.h"
#include "gui/widgets/ArtifactDrag.h"
#include "gui/widgets/ArtifactPreviewDialog.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalRun.h"

#include <QLocale>
#include <QMimeData>
#include <QPainter>

namespace sandbox::gui {

namespace {

enum Role
{
    DataRole = Qt::UserRole + 1, ///< the bytes of a live run's artifact
    MimeRole,
    PathRole,  ///< the file of a journal's artifact
    KeyRole,   ///< what the thumbnail provider names it by
    ChartRole, ///< the data of a chart (ChartData), when it is one
};

/// A thumbnail letterboxed on the base colour, so the strip's items line up whatever the aspect ratio.
QPixmap letterboxed(const QImage &image, const QColor &background)
{
    QPixmap canvas(ArtifactStrip::ThumbnailSize);
    canvas.fill(background);
    QPainter painter(&canvas);
    painter.drawImage((canvas.width() - image.width()) / 2, (canvas.height() - image.height()) / 2, image);
    return canvas;
}

PreviewItem previewItem(const QListWidgetItem *artifact)
{
    return PreviewItem{artifact->text(),
                       artifact->data(MimeRole).toString(),
                       artifact->data(DataRole).toByteArray(),
                       artifact->data(PathRole).toString(),
                       {},
                       artifact->data(ChartRole).toJsonObject()};
}

} // namespace

ArtifactStrip::ArtifactStrip(ThumbnailProvider &thumbnails, QWidget *parent)
    : QListWidget(parent), m_thumbnails(thumbnails)
{
    setViewMode(QListView::IconMode);
    setFlow(QListView::LeftToRight);
    setWrapping(false);
    setMovement(QListView::Static);
    setResizeMode(QListView::Adjust);
    setIconSize(ThumbnailSize);
    setSpacing(6);
    setUniformItemSizes(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFixedHeight(ThumbnailSize.height() + fontMetrics().height() + 40);
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setDefaultDropAction(Qt::CopyAction);
    setToolTip(tr("Double-click a chart to open it, or drag it to another program"));
    connect(this, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) { open(row(item)); });
    connect(&m_thumbnails, &ThumbnailProvider::thumbnailReady, this, &ArtifactStrip::thumbnailReady);
}

void ArtifactStrip::addArtifact(const Artifact &artifact)
{
    add(artifact.name, artifact.mimeType, artifact.data, {}, artifact.size(), artifact.chart);
}

void ArtifactStrip::addArtifact(const JournalArtifact &artifact)
{
    add(artifact.name, artifact.mimeType, {}, artifact.path, artifact.size, artifact.chart);
}

void ArtifactStrip::clearArtifacts()
{
    clear();
    emit countChanged(0);
}

void ArtifactStrip::add(const QString &name, const QString &mimeType, const QByteArray &data, const QString &path,
                        qint64 size, const QJsonObject &chart)
{
    const QStyle::StandardPixmap standard =
        mimeType == QLatin1String("text/html") ? QStyle::SP_DirLinkIcon : QStyle::SP_FileIcon;
    auto *item = new QListWidgetItem(style()->standardIcon(standard), name, this);
    item->setData(DataRole, data);
    item->setData(MimeRole, mimeType);
    item->setData(PathRole, path);
    item->setData(KeyRole, path.isEmpty() ? ThumbnailProvider::keyOf(data) : path);
    if (!chart.isEmpty()) {
        item->setData(ChartRole, chart);
    }
    item->setToolTip(QStringLiteral("%1\n%2, %3").arg(name, mimeType, dataSizeText(size)));
    item->setSizeHint(ThumbnailSize + QSize(16, fontMetrics().height() + 14));
    showThumbnail(item);
    emit countChanged(count());
}

void ArtifactStrip::showThumbnail(QListWidgetItem *item)
{
    const QString mimeType = item->data(MimeRole).toString();
    const QString path = item->data(PathRole).toString();
    const auto thumbnail = path.isEmpty()
                               ? m_thumbnails.thumbnail(item->data(DataRole).toByteArray(), mimeType, ThumbnailSize)
                               : m_thumbnails.thumbnail(path, mimeType, ThumbnailSize);
    if (thumbnail && !thumbnail->image.isNull()) {
        item->setIcon(QIcon(letterboxed(thumbnail->image, palette().color(QPalette::Base))));
    }
}

void ArtifactStrip::thumbnailReady(const QString &key, QSize size)
{
    if (size != ThumbnailSize) {
        return;
    }
    for (int row = 0; row < count(); ++row) {
        if (item(row)->data(KeyRole).toString() == key) {
            showThumbnail(item(row));
        }
    }
}

QStringList ArtifactStrip::mimeTypes() const
{
    return {QStringLiteral("text/uri-list")};
}

QMimeData *ArtifactStrip::mimeData(const QList<QListWidgetItem *> &items) const
{
    if (items.isEmpty()) {
        return nullptr;
    }
    return ArtifactDrag::mimeData(previewItem(items.first()));
}

bool ArtifactStrip::onlyImages() const
{
    for (int row = 0; row < count(); ++row) {
        if (!item(row)->data(MimeRole).toString().startsWith(QLatin1String("image/"))) {
            return false;
        }
    }
    return true;
}

QString ArtifactStrip::title() const
{
    if (onlyImages()) {
        return tr("Charts (%1)").arg(count());
    }
    int charts = 0, tables = 0, pages = 0, others = 0;
    for (int row = 0; row < count(); ++row) {
        const QString mimeType = item(row)->data(MimeRole).toString();
        if (mimeType.startsWith(QLatin1String("image/"))) {
            ++charts;
        } else if (mimeType == QLatin1String("text/csv") || mimeType == QLatin1String("text/tab-separated-values")) {
            ++tables;
        } else if (mimeType == QLatin1String("text/html")) {
            ++pages;
        } else {
            ++others;
        }
    }
    QStringList kinds;
    if (charts > 0) {
        kinds << tr("%n chart(s)", nullptr, charts);
    }
    if (tables > 0) {
        kinds << tr("%n table(s)", nullptr, tables);
    }
    if (pages > 0) {
        kinds << tr("%n web page(s)", nullptr, pages);
    }
    if (others > 0) {
        kinds << tr("%n other file(s)", nullptr, others);
    }
    return tr("Files (%1): %2").arg(count()).arg(QLocale().createSeparatedList(kinds));
}

ArtifactPreviewDialog *ArtifactStrip::open(int row)
{
    if (row < 0 || row >= count()) {
        return nullptr;
    }
    QList<PreviewItem> items;
    for (int i = 0; i < count(); ++i) {
        items.append(previewItem(item(i)));
    }
    auto *dialog = new ArtifactPreviewDialog(std::move(items), row, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

} // namespace sandbox::gui
