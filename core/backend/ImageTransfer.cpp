#include "backend/ImageTransfer.h"

#include <QIODevice>
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace sandbox::ImageTransfer {

namespace {

/// A bounded, blocking byte pipe from the exporting thread to the loading request's body:
/// the export is paced by the load, and a side that gives up releases the other.
class BlockingPipe final : public QIODevice
{
public:
    BlockingPipe() { open(QIODevice::ReadOnly | QIODevice::Unbuffered); }

    /// Writer side: false once the reader has gone away.
    bool push(const QByteArray &chunk)
    {
        std::unique_lock lock(m_mutex);
        m_canWrite.wait(lock, [&] { return m_readerGone || m_buffered < kCapacity; });
        if (m_readerGone) {
            return false;
        }
        m_chunks.push_back(chunk);
        m_buffered += chunk.size();
        m_canRead.notify_one();
        return true;
    }

    /// Writer side: no more data; `failed` makes the reader see an error instead of the end.
    void finish(bool failed)
    {
        std::lock_guard lock(m_mutex);
        m_finished = true;
        m_failed = failed;
        m_canRead.notify_one();
    }

    /// Reader side: stop accepting data (the load ended, however it ended).
    void closeReader()
    {
        std::lock_guard lock(m_mutex);
        m_readerGone = true;
        m_canWrite.notify_one();
    }

    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        std::unique_lock lock(m_mutex);
        m_canRead.wait(lock, [&] { return !m_chunks.empty() || m_finished; });
        if (m_chunks.empty()) {
            return m_failed ? -1 : 0;
        }
        qint64 copied = 0;
        while (copied < maxSize && !m_chunks.empty()) {
            QByteArray &front = m_chunks.front();
            const qint64 take = std::min<qint64>(maxSize - copied, front.size() - m_frontOffset);
            std::memcpy(data + copied, front.constData() + m_frontOffset, size_t(take));
            copied += take;
            m_frontOffset += take;
            if (m_frontOffset == front.size()) {
                m_buffered -= front.size();
                m_chunks.pop_front();
                m_frontOffset = 0;
            }
        }
        m_canWrite.notify_one();
        return copied;
    }

    qint64 writeData(const char *, qint64) override { return -1; }

private:
    static constexpr qint64 kCapacity = 16 * 1024 * 1024;

    std::mutex m_mutex;
    std::condition_variable m_canRead;
    std::condition_variable m_canWrite;
    std::deque<QByteArray> m_chunks;
    qint64 m_frontOffset = 0;
    qint64 m_buffered = 0;
    bool m_finished = false;
    bool m_failed = false;
    bool m_readerGone = false;
};

/// The images under the names they were asked for: an archive from Podman names them
/// "localhost/REPO:TAG", which Docker keeps as a different repository.
Result<void> nameAsRequested(ImageStore &to, const QStringList &references, const QStringList &loaded)
{
    for (const QString &reference : references) {
        if (loaded.contains(reference)) {
            continue;
        }
        const auto qualified = std::find_if(loaded.begin(), loaded.end(), [&](const QString &name) {
            return name.endsWith(QLatin1Char('/') + reference);
        });
        auto present = to.hasImage(reference);
        if (!present) {
            return present.error();
        }
        if (*present) {
            continue;
        }
        if (qualified == loaded.end()) {
            return Error{
                QStringLiteral("The %1 engine did not load %2 from the copied archive.").arg(to.name(), reference)};
        }
        if (auto tagged = to.tagImage(*qualified, reference); !tagged) {
            return tagged;
        }
    }
    return {};
}

/// The end of a cancelled copy: removes the requested names `to` lacked before (`absentBefore`) but has now, also
/// where the load stored them qualified (`loaded`: "localhost/REPO:TAG").
Error discard(ImageStore &to, const QStringList &absentBefore, const QStringList &loaded)
{
    QStringList kept;
    for (const QString &reference : absentBefore) {
        QStringList names{reference};
        for (const QString &name : loaded) {
            if (name.endsWith(QLatin1Char('/') + reference)) {
                names << name;
            }
        }
        for (const QString &name : names) {
            if (auto present = to.hasImage(name); present && !*present) {
                continue;
            }
            if (auto removed = to.removeImage(name); !removed) {
                kept << name;
            }
        }
    }
    return Error{
        kept.isEmpty()
            ? QStringLiteral("The copy into the %1 engine was cancelled; nothing of it was kept.").arg(to.name())
            : QStringLiteral("The copy into the %1 engine was cancelled; still there (in use): %2.")
                  .arg(to.name(), kept.join(QStringLiteral(", "))),
        ErrorCode::Cancelled};
}

} // namespace

Result<void> copy(ImageStore &from, ImageStore &to, const QStringList &references, const ProgressCallback &progress,
                  const std::atomic_bool *cancelled)
{
    const auto isCancelled = [cancelled] {
        return cancelled != nullptr && cancelled->load();
    };
    QStringList absentBefore;
    for (const QString &reference : references) {
        if (auto present = to.hasImage(reference); present && !*present) {
            absentBefore << reference;
        }
    }
    constexpr qint64 kReportEvery = 256 * 1024 * 1024;
    // Both threads report progress; the callback need not be thread-safe.
    std::mutex progressMutex;
    const ProgressCallback report = [&](const QString &line) {
        std::lock_guard lock(progressMutex);
        if (progress) {
            progress(line);
        }
    };
    BlockingPipe pipe;
    Result<void> exported;
    bool stoppedByLoad = false;
    std::thread exporter([&] {
        qint64 total = 0;
        qint64 reported = 0;
        exported = from.exportImages(references, [&](const QByteArray &chunk) {
            total += chunk.size();
            if (total - reported >= kReportEvery) {
                reported = total;
                report(QStringLiteral("copied %1 MiB").arg(total / (1024 * 1024)));
            }
            if (isCancelled()) {
                return false; // the archive is cut short: the load fails and stores nothing
            }
            stoppedByLoad = !pipe.push(chunk);
            return !stoppedByLoad;
        });
        pipe.finish(!exported.ok());
    });
    auto loaded = to.loadImages(pipe, report);
    pipe.closeReader();
    exporter.join();
    if (isCancelled()) {
        // Also when the load had finished: its images go again, whatever names they got.
        return discard(to, absentBefore, loaded ? *loaded : QStringList{});
    }
    // The side that failed first is the cause: a failed export cuts the archive the load reads,
    // a failed load stops the export.
    if (!exported && !stoppedByLoad) {
        return exported;
    }
    if (!loaded) {
        return loaded.error();
    }
    if (!exported) {
        return exported;
    }
    return nameAsRequested(to, references, *loaded);
}

} // namespace sandbox::ImageTransfer
