// The desktop app's pages under load, measured rather than asserted, on a journal written here (no engine needed):
//
//   - the gallery opened on a journal of 5,000 artifacts: the time from making the page to its first paint with
//     thumbnails in it, to every visible thumbnail made, and the GUI thread's longest stall while it scrolls through
//     all of them;
//   - the live log while 20 runs stream output at once (other threads write the journal, as other processes do): the
//     GUI thread's longest stall, and how many of the writes it had shown by the end.
//
// A stall is the longest gap between two ticks of a 1 ms timer on the GUI thread (a frame is 16 ms).
//
//   QT_QPA_PLATFORM=offscreen build/bin/gui_benchmark [--artifacts 5000] [--runs 20] [--seconds 5]
#include "gui/gallery/GalleryModel.h"
#include "gui/gallery/GalleryPage.h"
#include "gui/livelog/LiveLogModel.h"
#include "gui/livelog/LiveLogPage.h"
#include "gui/widgets/ThumbnailProvider.h"
#include "journal/JournalFeed.h"
#include "journal/JournalRecorder.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QListView>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTimer>
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

using namespace sandbox;
using namespace sandbox::gui;

namespace {

/// The longest gap between ticks of a 1 ms timer on this thread, since start() or the last reset().
class StallMeter final
{
public:
    StallMeter()
    {
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { m_longest = std::max(m_longest, m_clock.restart()); });
    }
    void start()
    {
        m_clock.start();
        m_longest = 0;
        m_timer.start();
    }
    qint64 longestMs() const { return m_longest; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_longest = 0;
};

JournalRecorder::Context context()
{
    return JournalRecorder::Context{QStringLiteral("docker"), QString(), {}, {}};
}

QByteArray chart(int seed)
{
    QImage image(640, 480, QImage::Format_RGB32);
    image.fill(QColor::fromHsv(seed * 37 % 360, 160, 220));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

void processFor(qint64 milliseconds)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < milliseconds) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
}

/// Keeps the event loop running until the thumbnails asked for are made (waiting on the pool instead would block the
/// GUI thread and count as a stall).
void processUntilMade(const ThumbnailProvider &thumbnails)
{
    QElapsedTimer clock;
    clock.start();
    while (thumbnails.isBusy() && clock.elapsed() < 600000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
}

void gallery(const QString &path, int artifacts)
{
    {
        JournalRecorder recorder(path, context());
        for (int run = 0; run < artifacts / 2; ++run) {
            const QString id = QStringLiteral("run-%1").arg(run);
            RunRequest request;
            request.language = QStringLiteral("python");
            recorder.runStarted(id, request);
            for (int i = 0; i < 2; ++i) {
                Artifact artifact;
                artifact.name = QStringLiteral("figure_%1.png").arg(i + 1);
                artifact.mimeType = QStringLiteral("image/png");
                artifact.data = chart(run * 2 + i);
                recorder.runArtifact(id, artifact);
            }
            recorder.runFinished(id, RunResult{}, std::nullopt);
        }
        recorder.flush();
    }

    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    StallMeter stalls;
    QElapsedTimer clock;
    clock.start();
    stalls.start();
    GalleryPage page(feed, thumbnails);
    page.resize(1200, 800);
    bool painted = false;
    qint64 firstPaint = -1;
    page.show();
    while (!painted && clock.elapsed() < 60000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        painted = page.model()->rowCount() > 0 && page.view()->isVisible();
        if (painted) {
            page.view()->viewport()->repaint();
            firstPaint = clock.elapsed();
        }
    }
    processUntilMade(thumbnails);
    const qint64 visibleThumbnails = clock.elapsed();
    processFor(50);
    const qint64 openStall = stalls.longestMs();

    stalls.start();
    QScrollBar *bar = page.view()->verticalScrollBar();
    while (bar->value() < bar->maximum()) {
        bar->setValue(bar->value() + bar->pageStep());
        processFor(20);
    }
    processUntilMade(thumbnails);
    processFor(50);
    std::printf("gallery, %d artifacts: first paint %lld ms, visible thumbnails made %lld ms, longest GUI stall "
                "while opening %lld ms, while scrolling through all %lld ms\n",
                page.model()->rowCount(), static_cast<long long>(firstPaint), static_cast<long long>(visibleThumbnails),
                static_cast<long long>(openStall), static_cast<long long>(stalls.longestMs()));
}

void liveLog(const QString &path, int runs, int seconds)
{
    JournalRecorder(path, context()).flush();
    JournalFeed feed(path);
    ThumbnailProvider thumbnails;
    LiveLogPage page(feed, thumbnails);
    page.resize(1200, 800);
    page.show();
    processFor(300);

    std::atomic<bool> stop = false;
    std::atomic<int> writes = 0;
    std::vector<std::thread> writers;
    for (int run = 0; run < runs; ++run) {
        writers.emplace_back([&, run] {
            JournalRecorder recorder(path, context());
            const QString id = QStringLiteral("stream-%1").arg(run);
            RunRequest request;
            request.language = QStringLiteral("python");
            recorder.runStarted(id, request);
            for (int line = 0; !stop; ++line) {
                recorder.runOutput(
                    id, OutputStream::Stdout,
                    QStringLiteral("run %1 line %2: some output of a program\n").arg(run).arg(line).toUtf8());
                ++writes;
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            recorder.runFinished(id, RunResult{}, std::nullopt);
        });
    }
    StallMeter stalls;
    stalls.start();
    // The first run selected, as a user watching it would: its output streams into the detail view.
    processFor(500);
    page.selectRun(QStringLiteral("stream-0"));
    processFor(qint64(seconds) * 1000);
    stop = true;
    for (std::thread &writer : writers) {
        writer.join();
    }
    std::printf("live log, %d runs streaming for %d s (%d writes): longest GUI stall %lld ms, runs shown %d\n", runs,
                seconds, writes.load(), static_cast<long long>(stalls.longestMs()), page.model()->rowCount());
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption artifacts(QStringLiteral("artifacts"), QStringLiteral("Artifacts in the gallery."),
                                       QStringLiteral("n"), QStringLiteral("5000"));
    const QCommandLineOption runs(QStringLiteral("runs"), QStringLiteral("Runs streaming at once."),
                                  QStringLiteral("n"), QStringLiteral("20"));
    const QCommandLineOption seconds(QStringLiteral("seconds"), QStringLiteral("How long they stream."),
                                     QStringLiteral("s"), QStringLiteral("5"));
    parser.addOptions({artifacts, runs, seconds});
    parser.process(app);
    QTemporaryDir dir;
    gallery(dir.filePath(QStringLiteral("gallery/journal.sqlite")), parser.value(artifacts).toInt());
    liveLog(dir.filePath(QStringLiteral("livelog/journal.sqlite")), parser.value(runs).toInt(),
            parser.value(seconds).toInt());
    return 0;
}
