#include "journal/JournalFeed.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QSet>
#include <QTimer>
#include <optional>

Q_DECLARE_LOGGING_CATEGORY(lcJournal)

namespace sandbox {

/// The feed's side on its own thread: the reader (its SQLite connection is this thread's), the poll timer and what
/// each follower was last given.
class JournalFeedWorker final : public QObject
{
public:
    JournalFeedWorker(JournalFeed *feed, const QString &path) : m_feed(feed) { m_reader.emplace(path); }

    const JournalReader &reader() const { return *m_reader; }

    /// On the worker's thread, before it ends: the timer and the SQLite connection belong to it.
    void stop()
    {
        delete m_timer;
        m_timer = nullptr;
        m_reader.reset();
    }

    void start(std::chrono::milliseconds interval)
    {
        // Changes from now on: what is in the journal already, a page reads itself (read()).
        if (auto seq = m_reader->latestSeq()) {
            m_lastSeq = *seq;
        }
        if (auto version = m_reader->dataVersion()) {
            m_dataVersion = *version;
        }
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, [this] { poll(); });
        m_timer->start(interval);
    }

    void poll()
    {
        auto version = m_reader->dataVersion();
        if (!version) {
            qCDebug(lcJournal).noquote() << version.error().message;
            return;
        }
        // data_version stays put while no other connection commits: then there is nothing to read. It reads 0 while
        // the journal file does not exist yet, so a new file is looked at on every tick until it has a version.
        if (*version == m_dataVersion && *version != 0) {
            return;
        }
        m_dataVersion = *version;
        QList<JournalRun> changed;
        for (;;) {
            auto runs = m_reader->changedSince(m_lastSeq);
            if (!runs) {
                qCDebug(lcJournal).noquote() << runs.error().message;
                break;
            }
            if (runs->isEmpty()) {
                break;
            }
            m_lastSeq = runs->last().seq;
            changed.append(*runs);
        }
        if (changed.isEmpty()) {
            return;
        }
        m_feed->deliver([feed = m_feed, changed] { emit feed->runsChanged(changed); });
        QSet<QString> ids;
        for (const JournalRun &run : std::as_const(changed)) {
            ids.insert(run.id);
        }
        for (auto it = m_followed.begin(); it != m_followed.end(); ++it) {
            if (ids.contains(it->runId)) {
                sendUpdate(it.key(), *it);
            }
        }
    }

    void follow(quint64 id, const QString &runId)
    {
        Followed followed{runId};
        auto whole = m_reader->run(runId);
        if (whole) {
            JournalRunUpdate update;
            update.whole = true;
            update.stdoutBytes = whole->stdoutData.size();
            update.stderrBytes = whole->stderrData.size();
            update.artifactCount = int(whole->artifacts.size());
            update.hasExchange = true;
            update.run = std::move(*whole);
            followed.stdoutBytes = update.stdoutBytes;
            followed.stderrBytes = update.stderrBytes;
            followed.artifacts = update.artifactCount;
            followed.hasExchange = exchangeComplete(update.run);
            m_feed->deliver([feed = m_feed, id, update = std::move(update)] { feed->dispatch(id, update); });
        } else {
            m_feed->deliver([feed = m_feed, id, error = whole.error()] { feed->dispatch(id, error); });
        }
        m_followed.insert(id, followed);
    }

    void unfollow(quint64 id) { m_followed.remove(id); }

private:
    struct Followed
    {
        QString runId;
        qint64 stdoutBytes = 0, stderrBytes = 0;
        int artifacts = 0;
        bool hasExchange = false; ///< the exchange was read after the run ended (it is complete then)
    };

    /// Whether a run's exchange is all there is to read: it ended, and an MCP call's reply is recorded (the MCP layer
    /// records call and reply after the engine reported the end, in a later write).
    static bool exchangeComplete(const JournalRun &run)
    {
        const bool viaMcp = run.source == RunSource::Mcp || run.source == RunSource::Http;
        return run.status != RunStatus::Running && (!viaMcp || !run.mcpResponse.isEmpty());
    }

    void sendUpdate(quint64 id, Followed &followed)
    {
        // The MCP result is recorded when the run ends: read the exchange once then, not on every change.
        auto update = m_reader->runSince(followed.runId, followed.stdoutBytes, followed.stderrBytes, followed.artifacts,
                                         !followed.hasExchange);
        if (update) {
            if (update->run.status == RunStatus::Running) {
                update->hasExchange = false; // the request alone; the whole exchange comes with the end
                update->run.mcpRequest = {};
                update->run.mcpResponse = {};
            } else {
                followed.hasExchange = exchangeComplete(update->run);
            }
            followed.stdoutBytes = update->stdoutBytes;
            followed.stderrBytes = update->stderrBytes;
            followed.artifacts = update->artifactCount;
        }
        m_feed->deliver([feed = m_feed, id, update = std::move(update)] { feed->dispatch(id, update); });
    }

    JournalFeed *m_feed;
    std::optional<JournalReader> m_reader;
    QTimer *m_timer = nullptr;
    qint64 m_lastSeq = 0;
    qint64 m_dataVersion = -1;
    QHash<quint64, Followed> m_followed;
};

RunFollower::RunFollower(JournalFeed *feed, quint64 id, QString runId, QObject *parent)
    : QObject(parent), m_feed(feed), m_id(id), m_runId(std::move(runId))
{}

RunFollower::~RunFollower()
{
    if (m_feed) {
        m_feed->unfollow(m_id);
    }
}

JournalFeed::JournalFeed(const QString &databasePath, std::chrono::milliseconds interval, QObject *parent)
    : QObject(parent), m_path(databasePath)
{
    qRegisterMetaType<QList<sandbox::JournalRun>>();
    qRegisterMetaType<sandbox::JournalRunUpdate>();
    if (m_path.isEmpty()) {
        return;
    }
    m_thread.setObjectName(QStringLiteral("journal feed"));
    m_worker = new JournalFeedWorker(this, m_path);
    m_worker->moveToThread(&m_thread);
    m_thread.start();
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, interval] { worker->start(interval); });
}

JournalFeed::~JournalFeed()
{
    if (!m_worker) {
        return;
    }
    // The worker's timer and SQLite connection go on its own thread, the worker once that thread has ended.
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->stop(); }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
    delete m_worker;
}

void JournalFeed::post(std::function<void(const JournalReader &)> task)
{
    if (m_worker) {
        QMetaObject::invokeMethod(m_worker, [worker = m_worker, task = std::move(task)] { task(worker->reader()); });
    }
}

void JournalFeed::deliver(std::function<void()> task)
{
    QMetaObject::invokeMethod(this, std::move(task), Qt::QueuedConnection);
}

RunFollower *JournalFeed::follow(const QString &runId, QObject *parent)
{
    const quint64 id = m_nextFollower++;
    auto *follower = new RunFollower(this, id, runId, parent);
    m_followers.insert(id, follower);
    if (m_worker) {
        QMetaObject::invokeMethod(m_worker, [worker = m_worker, id, runId] { worker->follow(id, runId); });
    }
    return follower;
}

void JournalFeed::unfollow(quint64 id)
{
    m_followers.remove(id);
    if (m_worker) {
        QMetaObject::invokeMethod(m_worker, [worker = m_worker, id] { worker->unfollow(id); });
    }
}

void JournalFeed::dispatch(quint64 follower, const Result<JournalRunUpdate> &update)
{
    RunFollower *target = m_followers.value(follower);
    if (!target) {
        return;
    }
    if (update) {
        emit target->updated(*update);
    } else {
        emit target->failed(update.error());
    }
}

void JournalFeed::waitForIdle()
{
    if (!m_worker) {
        return;
    }
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->poll(); }, Qt::BlockingQueuedConnection);
    // What the worker handed on is queued for this thread: deliver it (and what those deliveries queue).
    QCoreApplication::sendPostedEvents(this);
}

} // namespace sandbox
