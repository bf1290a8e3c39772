#pragma once

#include "engine/RunResult.h"
#include "util/Result.h"

#include <QHash>
#include <QString>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>

namespace sandbox {

/// The runs of an engine in progress that a person may stop from the desktop app, whichever face started them (an
/// assistant's `llm-sandbox --mcp`, the command line, the app itself). The request reaches the process that owns the
/// run through the journal (RunJournal::requestStop); this ends the run there like its caller's own cancellation,
/// and the run then says who stopped it (StopReason::StoppedByUser). Thread-safe.
class UserStops final
{
public:
    /// A run's entry, from add() until destroyed.
    class Entry
    {
    public:
        Entry(const Entry &) = delete;
        Entry &operator=(const Entry &) = delete;
        ~Entry();

        /// Stopped when the caller's token is or a person stopped the run.
        std::stop_token token() const { return m_source.get_token(); }
        /// Whether a person stopped the run (stop()).
        bool stoppedByUser() const;

    private:
        friend class UserStops;
        Entry(UserStops &owner, QString runId, std::stop_token caller);

        UserStops &m_owner;
        const QString m_runId;
        std::stop_source m_source;
        bool m_stoppedByUser = false; // under m_owner.m_mutex
        std::stop_callback<std::function<void()>> m_forward;
    };

    /// Registers run `runId`, which its caller stops through `caller`.
    std::unique_ptr<Entry> add(const QString &runId, std::stop_token caller);
    /// A person stopped run `runId`: false when it is not in progress here.
    bool stop(const QString &runId);

    /// What a run a person stopped answers (the journal, the assistant, the command line): StoppedByUser, with a
    /// line on stderr saying who stopped it after `elapsedMs`, whatever the stop made of it: a cancelled program,
    /// a run stopped before its program started, a sandbox removed under it (Backends → Stop). One that ended on
    /// its own before the stop reached it, or failed for another reason, keeps its own ending.
    static Result<RunResult> endedByUser(Result<RunResult> result, qint64 elapsedMs);

private:
    mutable std::mutex m_mutex;
    QHash<QString, Entry *> m_entries;
};

} // namespace sandbox
