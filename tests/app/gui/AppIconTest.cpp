#include "gui/widgets/ThemedIcon.h"

#include <QIcon>
#include <QImage>
#include <QPalette>
#include <QPixmap>
#include <gtest/gtest.h>

// The window icon is the SVG compiled into the app (resources/icons/llm-sandbox.svg, the installed icons' source),
// rendered by Qt's SVG support: a full pixmap at every size a desktop asks for, not an empty icon.
TEST(AppIcon, theBuiltInSvgRendersAtTheSizesADesktopAsksFor)
{
    const QIcon icon(QStringLiteral(":/icons/llm-sandbox.svg"));
    ASSERT_FALSE(icon.isNull());
    for (const int size : {16, 48, 256}) {
        const QImage image = icon.pixmap(size, size).toImage();
        EXPECT_EQ(image.size(), QSize(size, size));
        // Opaque in the middle (the icon's panel), transparent in the corner (outside its rounded square).
        EXPECT_EQ(qAlpha(image.pixel(size / 2, size / 2)), 255) << size;
        EXPECT_EQ(qAlpha(image.pixel(0, 0)), 0) << size;
    }
}

// Every page has an icon of its own (issue 37, item 16: Backends and the MCP server shared one generic icon, Gallery
// was a folder, Statistics an "i"), drawn in the palette's text colour: dark on the light theme, light on the dark one,
// the highlighted text's colour where its navigation entry is selected.
TEST(AppIcon, everyPageHasItsOwnIconInTheColoursOfTheTheme)
{
    const QStringList pages{QStringLiteral("livelog"), QStringLiteral("console"),    QStringLiteral("history"),
                            QStringLiteral("gallery"), QStringLiteral("statistics"), QStringLiteral("backends"),
                            QStringLiteral("server")};
    QPalette light;
    light.setColor(QPalette::WindowText, QColor(0x20, 0x20, 0x20));
    light.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
    QPalette dark;
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    const auto inked = [](const QImage &image) {
        // The colour of the most opaque pixel: the icon's strokes.
        QColor ink;
        int alpha = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QColor pixel = image.pixelColor(x, y);
                if (pixel.alpha() > alpha) {
                    alpha = pixel.alpha();
                    ink = pixel;
                }
            }
        }
        return ink;
    };
    QList<QImage> seen;
    for (const QString &page : pages) {
        const QString resource = QStringLiteral(":/icons/page-%1.svg").arg(page);
        const QIcon onLight = sandbox::gui::themedIcon(resource, light);
        ASSERT_FALSE(onLight.isNull()) << qPrintable(resource);
        const QImage image = onLight.pixmap(24, 24).toImage().convertToFormat(QImage::Format_ARGB32);
        EXPECT_EQ(inked(image), QColor(0x20, 0x20, 0x20)) << qPrintable(page);
        const QImage onDark =
            sandbox::gui::themedIcon(resource, dark).pixmap(24, 24).toImage().convertToFormat(QImage::Format_ARGB32);
        EXPECT_EQ(inked(onDark), QColor(0xe8, 0xe8, 0xe8)) << qPrintable(page);
        const QImage selected =
            onLight.pixmap(24, 24, QIcon::Selected).toImage().convertToFormat(QImage::Format_ARGB32);
        EXPECT_EQ(inked(selected), QColor(0xff, 0xff, 0xff)) << qPrintable(page);
        for (const QImage &other : seen) {
            EXPECT_NE(other, image) << qPrintable(page) << " looks like another page's icon";
        }
        seen.append(image);
    }
}
