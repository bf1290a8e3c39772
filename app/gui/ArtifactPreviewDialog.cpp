#include "gui/ArtifactPreviewDialog.h"

#include "util/PrivateFiles.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPainter>
#include <QResizeEvent>
#include <QSvgRenderer>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

/// A label that keeps the image scaled to its size.
class ScaledImage final : public QLabel
{
public:
    explicit ScaledImage(QImage image) : m_image(std::move(image))
    {
        setAlignment(Qt::AlignCenter);
        setMinimumSize(200, 150);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }
    QSize sizeHint() const override { return m_image.size().boundedTo(QSize(1200, 800)); }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        const QSize target = m_image.size().boundedTo(event->size());
        setPixmap(QPixmap::fromImage(m_image.scaled(target, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    }

private:
    QImage m_image;
};

QImage decode(const QString &mimeType, const QByteArray &data)
{
    if (mimeType != QLatin1String("image/svg+xml")) {
        return QImage::fromData(data);
    }
    QSvgRenderer renderer(data);
    QImage image(renderer.defaultSize().scaled(1600, 1200, Qt::KeepAspectRatio), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(&painter);
    return image;
}

} // namespace

void ArtifactPreviewDialog::showArtifact(QWidget *parent, const QString &name, const QString &mimeType,
                                         const QByteArray &data)
{
    if (mimeType.startsWith(QLatin1String("image/")) && !decode(mimeType, data).isNull()) {
        auto *dialog = new ArtifactPreviewDialog(name, mimeType, data, parent);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        parent, tr("Save %1 (files from a sandbox are saved, never opened with other programs)").arg(name),
        QDir::home().filePath(QFileInfo(name).fileName()));
    if (path.isEmpty()) {
        return;
    }
    if (QString error; !PrivateFiles::write(path, data, &error)) {
        QMessageBox::warning(parent, tr("Save artifact"), tr("Could not save %1: %2").arg(path, error));
    }
}

ArtifactPreviewDialog::ArtifactPreviewDialog(const QString &name, const QString &mimeType, const QByteArray &data,
                                             QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(name);
    const QImage image = decode(mimeType, data);
    auto *layout = new QVBoxLayout(this);
    auto *view = new ScaledImage(image);
    layout->addWidget(view, 1);
    auto *caption = new QLabel(tr("%1 — %2 × %3 px, %4")
                                   .arg(mimeType)
                                   .arg(image.width())
                                   .arg(image.height())
                                   .arg(QLocale().formattedDataSize(data.size())));
    caption->setAlignment(Qt::AlignCenter);
    layout->addWidget(caption);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace sandbox::gui
