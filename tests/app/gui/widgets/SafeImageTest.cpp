// Issue 44, items 1-3: images a sandbox wrote are decoded in a helper process that cannot open a file, with a memory,
// CPU and wall-clock limit, and an SVG that reaches outside itself or expands too far is refused. Each case is the
// attack itself, decoded through the same helper the app uses (llm-sandbox --decode-image).
#include "gui/widgets/SafeImage.h"

#include "TestImages.h"
#include "WaitUntil.h"
#include "gui/widgets/ImageDecoderProcess.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <future>
#include <gtest/gtest.h>

using namespace sandbox::gui;
using namespace std::chrono_literals;

namespace {

const QString kSvg = QStringLiteral("image/svg+xml");

/// The resident memory of this process, in MiB (/proc/self/status).
qint64 residentMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    status.open(QIODevice::ReadOnly);
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() / 1024;
        }
    }
    return -1;
}

bool hasRed(const QImage &image)
{
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor color = image.pixelColor(x, y);
            if (color.red() > 200 && color.green() < 60 && color.blue() < 60) {
                return true;
            }
        }
    }
    return false;
}

/// Four nested levels of `perLevel` `<use>` each: perLevel^4 draws in a file of a few KiB.
QByteArray useFanOut(int perLevel)
{
    QByteArray svg = "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='100' "
                     "height='100'><defs><rect id='l0' width='1' height='1' fill='red'/>";
    for (int level = 1; level <= 4; ++level) {
        svg += "<g id='l" + QByteArray::number(level) + "'>";
        for (int i = 0; i < perLevel; ++i) {
            svg += "<use xlink:href='#l" + QByteArray::number(level - 1) + "'/>";
        }
        svg += "</g>";
    }
    return svg + "</defs><use xlink:href='#l4'/></svg>";
}

/// An SVG embedding a PNG of `side` × `side` pixels as a data: URI (about 125 MB decoded at 5600).
QByteArray embeddedPng(int side)
{
    return "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='160' "
           "height='120'><image width='160' height='120' xlink:href='data:image/png;base64," +
           guitest::png(Qt::red, QSize(side, side)).toBase64() + "'/></svg>";
}

struct Decoded
{
    QImage image;
    QString why;
    qint64 ms = 0;
};

Decoded decodeTimed(const QByteArray &data, const QString &mimeType, QSize box = {160, 120})
{
    QElapsedTimer clock;
    clock.start();
    Decoded decoded;
    decoded.image = SafeImage::decode(data, mimeType, box, &decoded.why);
    decoded.ms = clock.elapsed();
    return decoded;
}

} // namespace

TEST(SafeImageTest, anSvgImageOfAHostFileDrawsNoPixelOfIt)
{
    // Before: the thumbnail showed the host's PNG.
    QTemporaryDir dir;
    const QString red = dir.filePath(QStringLiteral("host-secret.png"));
    QFile file(red);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(guitest::png(Qt::red, {160, 120}));
    file.close();
    const QList<QByteArray> attacks = {
        "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='160' height='120'>"
        "<image width='160' height='120' xlink:href='" +
            red.toUtf8() + "'/></svg>",
        "<svg xmlns='http://www.w3.org/2000/svg' width='160' height='120'><image width='160' height='120' "
        "href='file://" +
            red.toUtf8() + "'/></svg>",
        "<svg xmlns='http://www.w3.org/2000/svg' width='160' height='120'><filter id='f'><feImage href='" +
            red.toUtf8() + "'/></filter><rect width='160' height='120' filter='url(#f)'/></svg>",
        "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='160' height='120'>"
        "<use xlink:href='" +
            dir.filePath(QStringLiteral("other.svg#a")).toUtf8() + "'/></svg>",
        "<svg xmlns='http://www.w3.org/2000/svg' width='160' height='120'><rect width='160' height='120' "
        "style=\"fill: url('" +
            red.toUtf8() + "')\"/></svg>",
    };
    for (const QByteArray &svg : attacks) {
        const Decoded decoded = decodeTimed(svg, kSvg);
        EXPECT_FALSE(hasRed(decoded.image)) << svg.toStdString();
        EXPECT_TRUE(decoded.image.isNull()) << svg.toStdString();
        EXPECT_TRUE(decoded.why.contains(QLatin1String("image")) || decoded.why.contains(QLatin1String("outside")))
            << decoded.why.toStdString();
        EXPECT_LT(decoded.ms, 2000);
    }
}

TEST(SafeImageTest, anSvgEmbeddingAHugeImageIsRefusedQuicklyAndCostsTheAppNoMemory)
{
    // Before: one 5600 × 5600 PNG inside a data: URI cost each thumbnail worker about 125 MB.
    const QByteArray svg = embeddedPng(5600);
    const qint64 before = residentMiB();
    for (int i = 0; i < 3; ++i) {
        const Decoded decoded = decodeTimed(svg, kSvg);
        EXPECT_TRUE(decoded.image.isNull());
        EXPECT_FALSE(hasRed(decoded.image));
        EXPECT_TRUE(decoded.why.contains(QLatin1String("<image>"))) << decoded.why.toStdString();
        EXPECT_LT(decoded.ms, 2000);
    }
    EXPECT_LT(residentMiB() - before, 200);
}

TEST(SafeImageTest, useFanOutIsRefusedByItsExpandedSize)
{
    // Before: four levels of 400 passed the 2,000-<use> cap (1,600 elements) and meant 2.6e10 draws; 20 per level
    // took 9.4 s.
    for (const int perLevel : {20, 40, 400}) {
        const Decoded decoded = decodeTimed(useFanOut(perLevel), kSvg);
        EXPECT_TRUE(decoded.image.isNull()) << perLevel;
        EXPECT_TRUE(decoded.why.contains(QLatin1String("too often"))) << decoded.why.toStdString();
        EXPECT_LT(decoded.ms, 2000) << perLevel;
    }
    // A few references, as charts use them (markers), still render.
    const Decoded fine = decodeTimed(useFanOut(3), kSvg, {});
    EXPECT_FALSE(fine.image.isNull()) << fine.why.toStdString();
    EXPECT_TRUE(hasRed(fine.image));
}

TEST(SafeImageTest, aUseThatRefersToItselfIsRefused)
{
    const QByteArray svg = "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink'>"
                           "<g id='a'><use xlink:href='#b'/></g><g id='b'><use xlink:href='#a'/></g></svg>";
    const Decoded decoded = decodeTimed(svg, kSvg);
    EXPECT_TRUE(decoded.image.isNull());
    EXPECT_LT(decoded.ms, 2000);
}

TEST(SafeImageTest, chartsAndPicturesStillDecode)
{
    const Decoded chart = decodeTimed("<svg xmlns='http://www.w3.org/2000/svg' width='80' height='60'><rect width='80' "
                                      "height='60' fill='red'/><text x='5' y='30'>42</text></svg>",
                                      kSvg);
    EXPECT_TRUE(hasRed(chart.image)) << chart.why.toStdString();
    EXPECT_EQ(chart.image.size(), QSize(160, 120));
    const Decoded picture = decodeTimed(guitest::png(Qt::red, {640, 480}), QStringLiteral("image/png"), {});
    EXPECT_EQ(picture.image.size(), QSize(640, 480)) << picture.why.toStdString();
    EXPECT_TRUE(hasRed(picture.image));
}

TEST(SafeImageTest, theHelperCannotOpenAFileOnceLimited)
{
    // Checked from inside the helper: after its limits are set, opening a readable file fails with EACCES.
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("readable.txt")));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("secret");
    file.close();
    QProcess helper;
    helper.start(ImageDecoderProcess::helperProgram(),
                 {QStringLiteral("--decode-image"), QStringLiteral("--probe-open"), file.fileName()});
    ASSERT_TRUE(helper.waitForFinished(10000)) << helper.errorString().toStdString();
    EXPECT_EQ(helper.readAllStandardOutput().trimmed(), "refused 13");
}

TEST(SafeImageTest, aDecodeUnderWayEndsWhenTheAppQuits)
{
    // A path whose tiny dashes keep the renderer busy for seconds at full size: the helper's CPU limit would end it;
    // quitting must not wait for that.
    QByteArray points;
    for (int i = 0; i < 20000; ++i) {
        points += " L" + QByteArray::number((i * 37) % 1600) + ' ' + QByteArray::number((i * 91) % 1200);
    }
    const QByteArray slow = "<svg xmlns='http://www.w3.org/2000/svg' width='1600' height='1200'><path d='M0 0" +
                            points +
                            "' fill='none' stroke='black' stroke-width='3' stroke-dasharray='0.05 0.05'/></svg>";
    QElapsedTimer clock;
    clock.start();
    auto pending = std::async(std::launch::async, [&] { return decodeTimed(slow, kSvg, {}); });
    // Under way: its helper started.
    ASSERT_TRUE(sandbox::test::waitUntil([] { return ImageDecoderProcess::decodesUnderWay() > 0; }, 10s));
    ImageDecoderProcess::setStopping(true);
    const Decoded decoded = pending.get();
    ImageDecoderProcess::setStopping(false);
    EXPECT_TRUE(decoded.image.isNull());
    EXPECT_TRUE(decoded.why.contains(QLatin1String("quitting"))) << decoded.why.toStdString();
    EXPECT_LT(clock.elapsed(), 5000);
    // And without the quit, the helper's own CPU limit ends it: a clear refusal, not a hang.
    const Decoded limited = decodeTimed(slow, kSvg, {});
    EXPECT_TRUE(limited.image.isNull());
    EXPECT_FALSE(limited.why.isEmpty());
    EXPECT_LT(limited.ms, ImageDecoderProcess::kTimeout.count() + 2000);
}
