#pragma once

#include "engine/RunSource.h"
#include "mcp/protocol/LogLevel.h"
#include "mcp/protocol/Reply.h"
#include "mcp/server/Resource.h"

#include <QFuture>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <functional>
#include <memory>
#include <mutex>

class QThreadPool;

namespace sandbox::mcp {

class ResourceService;
class TaskRegistry;
class ToolRegistry;
struct Tool;
struct ToolCall;

/// What a tool call needs to know of the client that makes it: the dispatcher's view of its session, or of a
/// 2026-07-28 request's own `_meta`.
struct ToolCallClient
{
    QString protocolVersion;
    QString clientName, clientVersion;
    /// A 2026-07-28 request: no session, so no tasks and no run files to read back later.
    bool perRequest = false;
    /// Whether a log message of this level goes to the client; empty: none does.
    std::function<bool(LogLevel level)> sendsLog;
    /// ToolCall::source, owner, sessionHandles, connection.
    RunSource source = RunSource::Mcp;
    QString owner;
    bool sessionHandles = false;
    QString connection;
    /// Who reads the resources the call may change (subscriptions); its journal also records the call.
    ResourceReader reader;
};

/// tools/call: finds the tool, validates the arguments, builds the ToolCall with its sinks bound to the request's
/// Reply, and runs it at once (short tools), on the pool (long ones, cancellable by request id) or as a task. Each
/// call that ran code is handed to the journal with its reply; the subscriptions it may have changed are checked.
/// Thread-safe.
class ToolCallRunner final
{
public:
    /// Every reference must outlive the runner; the pool must be waited for before it goes.
    ToolCallRunner(const ToolRegistry &tools, TaskRegistry &tasks, ResourceService &resources, QThreadPool &pool);

    /// `message`: the tools/call request as the client sent it; `params`: its params. The future's object is empty
    /// when the call was cancelled (it gets no answer).
    QFuture<QJsonObject> call(const Reply &reply, const QJsonObject &params, const QJsonObject &message,
                              const ToolCallClient &client);
    /// notifications/cancelled: the call of `requestId`, if it still runs, stops and gets no answer. False when no
    /// call of that id runs (a cancellation may cross the answer on the wire).
    bool cancel(const QJsonValue &requestId);
    /// Stops every running call (not the tasks); none of them will be answered.
    void cancelAll();
    /// Calls running on the pool right now (not the tasks).
    int running() const;

private:
    struct RunningCall;
    using Invoke = std::function<QJsonObject(const ToolCall &call)>;

    /// The call's sinks (log, progress) bound to `reply`, its identity from `client`.
    ToolCall makeCall(const Reply &reply, const QJsonObject &params, const QJsonObject &message,
                      const ToolCallClient &client) const;
    QFuture<QJsonObject> startTask(const Reply &reply, const Tool &tool, const QJsonObject &task, ToolCall call,
                                   Invoke invoke);
    QFuture<QJsonObject> runOnPool(const Reply &reply, ToolCall call, Invoke invoke);

    const ToolRegistry &m_tools;
    TaskRegistry &m_tasks;
    ResourceService &m_resources;
    QThreadPool &m_pool;

    mutable std::mutex m_mutex;
    QHash<QString, std::shared_ptr<RunningCall>> m_running;
};

} // namespace sandbox::mcp
