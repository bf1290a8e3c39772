#include "gui/widgets/ArtifactStrip.h"

#include "artifacts/Artifact.h"
#include "gui/widgets/ArtifactPreviewDialog.h"
#include "journal/JournalRun.h"

#include <QFile>
#include <QPainter>
#include <QSvgRenderer>

namespace sandbox::gui {

namespace {

enum Role
{
    DataRole = Qt::UserRole + 1,
    MimeRole,
    PathRole,
};

/// The artifact drawn into a thumbnail-sized pixmap, letterboxed on the base colour; null when not an image.
QPixmap thumbnail(const QString &mimeType, const QByteArray &data, const QColor &background)
{
    QImage image;
    if (mimeType == QLatin1String("image/svg+xml")) {
        QSvgRenderer renderer(data);
        if (!renderer.isValid()) {
            return {};
        }
        QSize size = renderer.defaultSize().scaled(ArtifactStrip::ThumbnailSize * 2, Qt::KeepAspectRatio);
        image = QImage(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderer.render(&painter);
    } else if (mimeType.startsWith(QLatin1String("image/"))) {
        image.loadFromData(data);
    }
    if (image.isNull()) {
        return {};
    }
    const QImage scaled = image.scaled(ArtifactStrip::ThumbnailSize, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    QPixmap canvas(ArtifactStrip::ThumbnailSize);
    canvas.fill(background);
    QPainter painter(&canvas);
    painter.drawImage((canvas.width() - scaled.width()) / 2, (canvas.height() - scaled.height()) / 2, scaled);
    return canvas;
}

} // namespace

ArtifactStrip::ArtifactStrip(QWidget *parent) : QListWidget(parent)
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
    setToolTip(tr("Double-click a chart to open it"));
    connect(this, &QListWidget::itemActivated, this, &ArtifactStrip::open);
}

void ArtifactStrip::addArtifact(const Artifact &artifact)
{
    add(artifact.name, artifact.mimeType, artifact.data, artifact.path);
}

void ArtifactStrip::addArtifact(const JournalArtifact &artifact)
{
    QByteArray data;
    if (QFile file(artifact.path); file.open(QIODevice::ReadOnly)) {
        data = file.readAll();
    }
    add(artifact.name, artifact.mimeType, data, artifact.path);
}

void ArtifactStrip::clearArtifacts()
{
    clear();
    emit countChanged(0);
}

void ArtifactStrip::add(const QString &name, const QString &mimeType, const QByteArray &data, const QString &path)
{
    QPixmap pixmap = thumbnail(mimeType, data, palette().color(QPalette::Base));
    QIcon icon;
    if (pixmap.isNull()) {
        const QStyle::StandardPixmap standard =
            mimeType == QLatin1String("text/html") ? QStyle::SP_DirLinkIcon : QStyle::SP_FileIcon;
        icon = style()->standardIcon(standard);
    } else {
        icon = QIcon(pixmap);
    }
    auto *item = new QListWidgetItem(icon, name, this);
    item->setData(DataRole, data);
    item->setData(MimeRole, mimeType);
    item->setData(PathRole, path);
    item->setToolTip(QStringLiteral("%1\n%2, %3").arg(name, mimeType, QLocale().formattedDataSize(data.size())));
    item->setSizeHint(ThumbnailSize + QSize(16, fontMetrics().height() + 14));
    emit countChanged(count());
}

void ArtifactStrip::open(QListWidgetItem *item)
{
    QByteArray data = item->data(DataRole).toByteArray();
    if (QFile file(item->data(PathRole).toString()); data.isEmpty() && file.open(QIODevice::ReadOnly)) {
        data = file.readAll();
    }
    ArtifactPreviewDialog::showArtifact(window(), item->text(), item->data(MimeRole).toString(), data);
}

} // namespace sandbox::gui
