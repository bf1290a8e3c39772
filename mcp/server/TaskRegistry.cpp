#include "mcp/server/TaskRegistry.h"

#include "mcp/McpLogging.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/ReadyFuture.h"
#include "mcp/tools/Tool.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPromise>
#include <QUuid>
#include <algorithm>
#include <optional>
#include <stop_token>

namespace sandbox::mcp {

using namespace jsonrpc;

namespace {

/// How often a client polling a task is asked to look (a run takes from a tenth of a second to minutes).
constexpr int kPollIntervalMs = 1000;
const QString kRelatedTask = QStringLiteral("io.modelcontextprotocol/related-task");

QString isoTime(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

} // namespace

struct TaskRegistry::Task
{
    QString id;
    QDateTime createdAt;
    qint64 ttlMs = 0;
    std::stop_source stop;

    // From here on changed under the registry's mutex.
    QString status = QStringLiteral("working");
    QString statusMessage;
    QDateTime lastUpdatedAt;
    /// The reply the tools/call would have had without the task (a result or a JSON-RPC error), once the call ended.
    std::optional<QJsonObject> reply;
    /// The size of `reply` as JSON; 0 once it was let go (dropResultsBeyondTheCap).
    qint64 replyBytes = 0;
    /// The tasks/result requests waiting for it.
    QList<std::shared_ptr<QPromise<QJsonObject>>> waiting;

    bool isTerminal() const { return status != QLatin1String("working"); }
    bool expired(const QDateTime &now) const { return isTerminal() && createdAt.msecsTo(now) > ttlMs; }
    QJsonObject toJson() const
    {
        QJsonObject json{{QStringLiteral("taskId"), id},
                         {QStringLiteral("status"), status},
                         {QStringLiteral("createdAt"), isoTime(createdAt)},
                         {QStringLiteral("lastUpdatedAt"), isoTime(lastUpdatedAt)},
                         {QStringLiteral("ttl"), ttlMs}};
        if (!statusMessage.isEmpty()) {
            json.insert(QStringLiteral("statusMessage"), statusMessage);
        }
        if (!isTerminal()) {
            json.insert(QStringLiteral("pollInterval"), kPollIntervalMs);
        }
        return json;
    }
};

TaskRegistry::TaskRegistry(Limits limits, StatusSink statusChanged)
    : m_limits(limits), m_statusChanged(std::move(statusChanged))
{}

TaskRegistry::~TaskRegistry()
{
    stopAll();
}

QJsonObject TaskRegistry::start(const QJsonValue &id, const QJsonObject &taskParams, QThreadPool &pool, Call call)
{
    const QJsonValue ttl = taskParams.value(QStringLiteral("ttl"));
    if (!ttl.isUndefined() && !ttl.isNull() && !(ttl.isDouble() && ttl.toDouble() >= 0)) {
        return makeError(id, InvalidParams, QStringLiteral("task.ttl must be a number of milliseconds (0 or more)."));
    }
    auto task = std::make_shared<Task>();
    task->id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    task->createdAt = task->lastUpdatedAt = QDateTime::currentDateTimeUtc();
    // A task lives at least a second past its creation, at most the server's limit.
    task->ttlMs =
        ttl.isDouble() ? std::clamp<qint64>(qint64(ttl.toDouble()), 1000, m_limits.maxTtlMs) : m_limits.defaultTtlMs;
    task->statusMessage = QStringLiteral("The code is running.");

    QJsonObject created;
    {
        const std::lock_guard lock(m_mutex);
        dropExpired();
        if (m_tasks.size() >= m_limits.maxTasks) {
            const auto finished = std::find_if(m_tasks.begin(), m_tasks.end(),
                                               [](const std::shared_ptr<Task> &held) { return held->isTerminal(); });
            if (finished == m_tasks.end()) {
                return makeError(id, InvalidRequest,
                                 QStringLiteral("%1 tasks are running already: wait for one to end or cancel one with "
                                                "tasks/cancel.")
                                     .arg(m_tasks.size()));
            }
            m_tasks.erase(finished);
        }
        m_tasks.append(task);
        created = task->toJson();
    }
    pool.start([this, task, id, call = std::move(call)] {
        const std::stop_token stop = task->stop.get_token();
        const Progress progress = [this, task](const QString &message) {
            const std::lock_guard lock(m_mutex);
            if (!task->isTerminal()) {
                task->statusMessage = message;
            }
        };
        finish(task, stop.stop_requested()
                         ? makeResult(id, errorToolResult(QStringLiteral("The task was cancelled before it started.")))
                         : call(stop, progress));
    });
    qCInfo(lcMcp) << "task" << task->id << "started for request" << id;
    return makeResult(
        id,
        QJsonObject{
            {QStringLiteral("task"), created},
            {QStringLiteral("_meta"),
             QJsonObject{{QStringLiteral("io.modelcontextprotocol/model-immediate-response"),
                          QStringLiteral("The code is running as task %1; its result will follow.").arg(task->id)}}}});
}

void TaskRegistry::dropResultsBeyondTheCap()
{
    qint64 retained = 0;
    for (const std::shared_ptr<Task> &task : std::as_const(m_tasks)) {
        retained += task->replyBytes;
    }
    // Oldest first (m_tasks is in the order they started); the newest result is always kept.
    for (auto it = m_tasks.begin(); retained > m_limits.maxRetainedBytes && it + 1 < m_tasks.end(); ++it) {
        Task &task = **it;
        if (task.replyBytes == 0) {
            continue;
        }
        retained -= task.replyBytes;
        task.replyBytes = 0;
        task.reply = makeError(QJsonValue(), InvalidRequest,
                               QStringLiteral("The result of task %1 is no longer kept: the server keeps %2 MiB of "
                                              "task results and lets the oldest go first. The run journal has it.")
                                   .arg(task.id)
                                   .arg(m_limits.maxRetainedBytes >> 20));
    }
}

void TaskRegistry::finish(const std::shared_ptr<Task> &task, const QJsonObject &reply)
{
    QJsonObject status;
    QList<std::shared_ptr<QPromise<QJsonObject>>> waiting;
    {
        const std::lock_guard lock(m_mutex);
        task->reply = reply;
        task->replyBytes = QJsonDocument(reply).toJson(QJsonDocument::Compact).size();
        waiting.swap(task->waiting);
        // A cancelled task stays cancelled, whatever the call did after.
        if (!task->isTerminal()) {
            const QJsonObject error = reply.value(QStringLiteral("error")).toObject();
            if (!error.isEmpty()) {
                task->status = QStringLiteral("failed");
                task->statusMessage = error.value(QStringLiteral("message")).toString();
            } else if (reply.value(QStringLiteral("result")).toObject().value(QStringLiteral("isError")).toBool()) {
                task->status = QStringLiteral("failed");
                task->statusMessage = QStringLiteral("The tool reported an error; tasks/result has it.");
            } else {
                task->status = QStringLiteral("completed");
                task->statusMessage = QStringLiteral("The run ended; tasks/result has its result.");
            }
            task->lastUpdatedAt = QDateTime::currentDateTimeUtc();
            status = task->toJson();
        }
        dropResultsBeyondTheCap();
    }
    for (const auto &promise : std::as_const(waiting)) {
        promise->addResult(reply);
        promise->finish();
    }
    if (!status.isEmpty() && m_statusChanged) {
        m_statusChanged(status);
    }
}

QFuture<QJsonObject> TaskRegistry::handle(const QJsonValue &id, const QString &method, const QJsonObject &params)
{
    if (method == QLatin1String("tasks/list")) {
        QJsonArray tasks;
        const std::lock_guard lock(m_mutex);
        dropExpired();
        for (auto it = m_tasks.crbegin(); it != m_tasks.crend(); ++it) {
            tasks.append((*it)->toJson());
        }
        return readyFuture(makeResult(id, QJsonObject{{QStringLiteral("tasks"), tasks}}));
    }
    if (method != QLatin1String("tasks/get") && method != QLatin1String("tasks/result") &&
        method != QLatin1String("tasks/cancel")) {
        return readyFuture(makeError(id, MethodNotFound, QStringLiteral("Method not found: %1").arg(method.left(200))));
    }
    const std::shared_ptr<Task> task = find(params);
    if (!task) {
        return readyFuture(makeError(id, InvalidParams,
                                     QStringLiteral("Failed to retrieve task: no task %1 (it never existed here, or "
                                                    "its ttl has passed).")
                                         .arg(params.value(QStringLiteral("taskId")).toString().left(100))));
    }
    if (method == QLatin1String("tasks/get")) {
        const std::lock_guard lock(m_mutex);
        return readyFuture(makeResult(id, task->toJson()));
    }
    if (method == QLatin1String("tasks/result")) {
        // What the tools/call would have answered, once the call has ended (no thread waits for it).
        const auto answer = [id, taskId = task->id](QJsonObject reply) {
            reply.insert(QStringLiteral("id"), id);
            if (reply.contains(QStringLiteral("result"))) {
                QJsonObject result = reply.value(QStringLiteral("result")).toObject();
                QJsonObject meta = result.value(QStringLiteral("_meta")).toObject();
                meta.insert(kRelatedTask, QJsonObject{{QStringLiteral("taskId"), taskId}});
                result.insert(QStringLiteral("_meta"), meta);
                reply.insert(QStringLiteral("result"), result);
            }
            return reply;
        };
        auto promise = std::make_shared<QPromise<QJsonObject>>();
        promise->start();
        {
            const std::lock_guard lock(m_mutex);
            if (task->reply) {
                return readyFuture(answer(*task->reply));
            }
            task->waiting.append(promise);
        }
        return promise->future().then(QtFuture::Launch::Sync, answer);
    }
    QJsonObject cancelled;
    {
        const std::lock_guard lock(m_mutex);
        if (task->isTerminal()) {
            return readyFuture(makeError(id, InvalidParams,
                                         QStringLiteral("Task %1 has already ended (%2); there is nothing to cancel.")
                                             .arg(task->id, task->status)));
        }
        task->status = QStringLiteral("cancelled");
        task->statusMessage = QStringLiteral("Cancelled by the client; the program was stopped.");
        task->lastUpdatedAt = QDateTime::currentDateTimeUtc();
        cancelled = task->toJson();
    }
    // Stops the run as a timeout would: the whole process tree is killed.
    task->stop.request_stop();
    qCInfo(lcMcp) << "task" << task->id << "cancelled by the client";
    if (m_statusChanged) {
        m_statusChanged(cancelled);
    }
    return readyFuture(makeResult(id, cancelled));
}

int TaskRegistry::stopAll()
{
    const std::lock_guard lock(m_mutex);
    int stopped = 0;
    for (const auto &task : std::as_const(m_tasks)) {
        if (!task->isTerminal() && !task->stop.stop_requested()) {
            task->stop.request_stop();
            ++stopped;
        }
    }
    return stopped;
}

int TaskRegistry::running() const
{
    const std::lock_guard lock(m_mutex);
    return static_cast<int>(
        std::count_if(m_tasks.begin(), m_tasks.end(), [](const auto &task) { return !task->isTerminal(); }));
}

std::shared_ptr<TaskRegistry::Task> TaskRegistry::find(const QJsonObject &params)
{
    const QString taskId = params.value(QStringLiteral("taskId")).toString();
    const std::lock_guard lock(m_mutex);
    dropExpired();
    for (const std::shared_ptr<Task> &task : std::as_const(m_tasks)) {
        if (task->id == taskId) {
            return task;
        }
    }
    return nullptr;
}

void TaskRegistry::dropExpired()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    m_tasks.removeIf([&now](const std::shared_ptr<Task> &task) { return task->expired(now); });
}

} // namespace sandbox::mcp
