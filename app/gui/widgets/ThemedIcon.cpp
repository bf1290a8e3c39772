#include "gui/widgets/ThemedIcon.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>

namespace sandbox::gui {

QIcon themedIcon(const QString &resource, const QPalette &palette)
{
    QFile file(resource);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray svg = file.readAll();
    QIcon icon;
    const std::pair<QIcon::Mode, QColor> modes[] = {
        {QIcon::Normal, palette.color(QPalette::Active, QPalette::WindowText)},
        {QIcon::Active, palette.color(QPalette::Active, QPalette::WindowText)},
        {QIcon::Selected, palette.color(QPalette::Active, QPalette::HighlightedText)},
        {QIcon::Disabled, palette.color(QPalette::Disabled, QPalette::WindowText)},
    };
    for (const auto &[mode, color] : modes) {
        QByteArray coloured = svg;
        QSvgRenderer renderer(coloured.replace("currentColor", color.name().toLatin1()));
        for (const int size : {16, 20, 24, 32, 40, 48, 64}) {
            QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::transparent);
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            renderer.render(&painter);
            painter.end();
            icon.addPixmap(QPixmap::fromImage(image), mode);
        }
    }
    return icon;
}

} // namespace sandbox::gui
