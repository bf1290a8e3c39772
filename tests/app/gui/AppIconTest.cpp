#include <QIcon>
#include <QImage>
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
