#pragma once

#include "journal/JournalReader.h"
#include "journal/JournalRun.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <chrono>
#include <functional>
#include <memory>

namespace sandbox {

class JournalFeed;
class JournalFeedWorker;

/// A run followed through a JournalFeed: updated() gets the whole run first, then only what it gained (output
/// appended since the last update, new artifacts, its end). Deleting it stops following.
class RunFollower final : public QObject
{
    Q_OBJECT
public:
    ~RunFollower() override;
    const QString &runId() const { return m_runId; }

signals:
    void updated(const sandbox::JournalRunUpdate &update);
    /// The run cannot be read (removed, or the journal failed).
    void failed(const sandbox::Error &error);

private:
    friend class JournalFeed;
    RunFollower(JournalFeed *feed, quint64 id, QString runId, QObject *parent);

    QPointer<JournalFeed> m_feed;
    quint64 m_id;
    QString m_runId;
};

/// The one reader of the journal for a whole window: what every page shows of it comes through here, read on a
/// thread of the feed's own (with its own SQLite connection), never on the thread that made the feed. It polls
/// PRAGMA data_version (one statement per tick; more only when another connection committed) and hands on only what
/// changed, whichever process wrote it: the summaries of runs that started or changed (runsChanged), and for each
/// followed run what it gained (RunFollower). One-off reads (a list, a count, statistics) go through read().
class JournalFeed final : public QObject
{
    Q_OBJECT
public:
    /// `databasePath` empty: the journal is off and nothing is read.
    explicit JournalFeed(const QString &databasePath,
                         std::chrono::milliseconds interval = std::chrono::milliseconds(200),
                         QObject *parent = nullptr);
    /// Stops the feed's thread (waiting for a read in progress).
    ~JournalFeed() override;

    const QString &databasePath() const { return m_path; }
    bool isOff() const { return m_path.isEmpty(); }

    /// Runs `work` with the feed's reader on its thread, after the reads asked for before it, then `done` with its
    /// result on this thread, unless `context` was deleted by then.
    template <typename T>
    void read(QObject *context, std::function<T(const JournalReader &)> work, std::function<void(T)> done)
    {
        post([this, context = QPointer<QObject>(context), work = std::move(work),
              done = std::move(done)](const JournalReader &reader) mutable {
            deliver([context, done = std::move(done), result = work(reader)]() mutable {
                if (context) {
                    done(std::move(result));
                }
            });
        });
    }

    /// Follows run `runId` (see RunFollower), owned by `parent`.
    RunFollower *follow(const QString &runId, QObject *parent);

    /// Looks at the journal now and waits until what it found, and every read asked for before, is handed on
    /// (tests and benchmarks; the GUI never waits).
    void waitForIdle();

signals:
    /// Summaries of runs that started or changed since the last report (seq ascending); a run's end is a change of
    /// its status. Only changes made after the feed started are reported.
    void runsChanged(const QList<sandbox::JournalRun> &runs);

private:
    friend class JournalFeedWorker;
    friend class RunFollower;

    /// Runs `task` on the feed's thread.
    void post(std::function<void(const JournalReader &)> task);
    /// Runs `task` on this object's thread (from the feed's thread).
    void deliver(std::function<void()> task);
    void unfollow(quint64 id);
    void dispatch(quint64 follower, const Result<JournalRunUpdate> &update);

    const QString m_path;
    QThread m_thread;
    JournalFeedWorker *m_worker = nullptr; ///< lives on m_thread
    QHash<quint64, QPointer<RunFollower>> m_followers;
    quint64 m_nextFollower = 1;
};

} // namespace sandbox
