#pragma once

#include <QFuture>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QThreadPool>
#include <functional>
#include <memory>
#include <mutex>

namespace sandbox::mcp {

/// The tasks of one client (MCP 2025-11-25): a long tools/call answered at once with a task while the call goes on,
/// then polled (tasks/get), waited for (tasks/result), listed (tasks/list) and cancelled (tasks/cancel). A finished
/// task is kept for its ttl from its creation. Thread-safe.
class TaskRegistry final
{
public:
    struct Limits
    {
        qint64 defaultTtlMs = 60LL * 60 * 1000; ///< when the client asks for none
        qint64 maxTtlMs = 24LL * 60 * 60 * 1000;
        int maxTasks = 256; ///< running or kept; finished ones make room first
        /// The results kept for tasks/result, in all (their JSON); beyond it the oldest are let go first.
        qint64 maxRetainedBytes = 64LL * 1024 * 1024;
    };
    /// What a running task's call reports of its progress ("Installing numpy", "2048 bytes of output so far"): the
    /// task's statusMessage until the next report.
    using Progress = std::function<void(const QString &message)>;
    /// The call a task runs: the JSON-RPC reply (result or error) its tools/call would have had. It stops when
    /// `stop` is requested (tasks/cancel, stopAll()).
    using Call = std::function<QJsonObject(std::stop_token stop, const Progress &progress)>;
    /// Told every change of a task's status, with the whole task (notifications/tasks/status).
    using StatusSink = std::function<void(const QJsonObject &task)>;

    TaskRegistry(Limits limits, StatusSink statusChanged);
    /// Stops the running tasks; their calls end on the pool they were started on.
    ~TaskRegistry();

    TaskRegistry(const TaskRegistry &) = delete;
    TaskRegistry &operator=(const TaskRegistry &) = delete;

    /// Starts `call` on `pool` as a new task. `taskParams` is the request's `task` member ({"ttl": ms}). The reply to
    /// the request (id `id`): a CreateTaskResult, or an error when the ttl is no number or no room is left.
    QJsonObject start(const QJsonValue &id, const QJsonObject &taskParams, QThreadPool &pool, Call call);
    /// The reply to a tasks/get, tasks/result, tasks/list or tasks/cancel request; tasks/result's once the task's call
    /// has ended.
    QFuture<QJsonObject> handle(const QJsonValue &id, const QString &method, const QJsonObject &params);
    /// Asks every running task's call to stop (the client's session ended); how many were asked.
    int stopAll();
    /// Tasks whose call runs.
    int running() const;

private:
    struct Task;

    /// The task named in `params`, after the expired ones are gone; null when there is none.
    std::shared_ptr<Task> find(const QJsonObject &params);
    /// Forgets the finished tasks whose ttl has passed; called with m_mutex held.
    void dropExpired();
    /// Runs on the pool: the call, then the task's end.
    void finish(const std::shared_ptr<Task> &task, const QJsonObject &reply);
    /// Lets go of the oldest results beyond Limits::maxRetainedBytes; called with m_mutex held.
    void dropResultsBeyondTheCap();

    const Limits m_limits;
    const StatusSink m_statusChanged;
    mutable std::mutex m_mutex;
    QList<std::shared_ptr<Task>> m_tasks;
};

} // namespace sandbox::mcp
