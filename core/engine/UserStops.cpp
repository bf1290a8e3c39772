#include "engine/UserStops.h"

namespace sandbox {

UserStops::Entry::Entry(UserStops &owner, QString runId, std::stop_token caller)
    : m_owner(owner), m_runId(std::move(runId)),
      m_forward(std::move(caller), std::function<void()>([this] { m_source.request_stop(); }))
{}

UserStops::Entry::~Entry()
{
    const std::lock_guard lock(m_owner.m_mutex);
    m_owner.m_entries.remove(m_runId);
}

bool UserStops::Entry::stoppedByUser() const
{
    const std::lock_guard lock(m_owner.m_mutex);
    return m_stoppedByUser;
}

std::unique_ptr<UserStops::Entry> UserStops::add(const QString &runId, std::stop_token caller)
{
    std::unique_ptr<Entry> entry(new Entry(*this, runId, std::move(caller)));
    const std::lock_guard lock(m_mutex);
    m_entries.insert(runId, entry.get());
    return entry;
}

bool UserStops::stop(const QString &runId)
{
    const std::lock_guard lock(m_mutex);
    Entry *entry = m_entries.value(runId);
    if (!entry || entry->m_stoppedByUser) {
        return entry != nullptr;
    }
    entry->m_stoppedByUser = true;
    entry->m_source.request_stop();
    return true;
}

Result<RunResult> UserStops::endedByUser(Result<RunResult> result, qint64 elapsedMs)
{
    RunResult stopped;
    if (result) {
        if (result->reason != StopReason::Cancelled) {
            return result;
        }
        stopped = std::move(*result);
    } else if (result.error().code == ErrorCode::Cancelled || result.error().code == ErrorCode::SandboxFailed) {
        stopped.exitCode = 137;
    } else {
        return result;
    }
    stopped.reason = StopReason::StoppedByUser;
    stopped.stderrData.append(QStringLiteral("llm-sandbox: the user stopped this run from the LLM Sandbox app after "
                                             "%1 s.\n")
                                  .arg(double(elapsedMs) / 1000.0, 0, 'f', 1)
                                  .toUtf8());
    return stopped;
}

} // namespace sandbox
