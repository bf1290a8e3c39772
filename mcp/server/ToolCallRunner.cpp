#include "mcp/server/ToolCallRunner.h"

#include "journal/ExchangeSink.h"
#include "mcp/McpLogging.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/ProtocolVersion.h"
#include "mcp/protocol/ReadyFuture.h"
#include "mcp/server/ResourceService.h"
#include "mcp/server/ServerIdentity.h"
#include "mcp/server/TaskRegistry.h"
#include "mcp/tools/ArgumentValidator.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/ToolRegistry.h"

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <exception>
#include <stop_token>

namespace sandbox::mcp {

using namespace jsonrpc;

namespace {

/// Runs a tool's handler; what it throws becomes an internal error reply instead of ending the server.
QJsonObject invokeHandler(const Reply &reply, const ToolHandler &handler, const QString &toolName, const ToolCall &call)
{
    try {
        return reply.result(handler(call));
    } catch (const std::exception &e) {
        qCCritical(lcMcp) << "tool" << toolName << "threw:" << e.what();
        return reply.error(InternalError, QStringLiteral("Internal error in tool %1: %2").arg(toolName, e.what()));
    } catch (...) {
        qCCritical(lcMcp) << "tool" << toolName << "threw";
        return reply.error(InternalError, QStringLiteral("Internal error in tool %1.").arg(toolName));
    }
}

} // namespace

struct ToolCallRunner::RunningCall
{
    std::stop_source stop;
    // Set when the client cancelled (or the server shuts down): the call then gets no reply.
    std::atomic<bool> cancelled = false;
};

ToolCallRunner::ToolCallRunner(const ToolRegistry &tools, TaskRegistry &tasks, ResourceService &resources,
                               QThreadPool &pool)
    : m_tools(tools), m_tasks(tasks), m_resources(resources), m_pool(pool)
{}

QFuture<QJsonObject> ToolCallRunner::call(const Reply &reply, const QJsonObject &params, const QJsonObject &message,
                                          const ToolCallClient &client)
{
    const QJsonValue name = params.value(QStringLiteral("name"));
    if (!name.isString()) {
        return readyFuture(
            reply.error(InvalidParams, QStringLiteral("tools/call needs the tool's \"name\" as a string.")));
    }
    const Tool *tool = m_tools.find(name.toString());
    if (!tool) {
        QStringList names;
        for (const Tool &known : m_tools.tools()) {
            names << known.name;
        }
        return readyFuture(reply.error(InvalidParams, QStringLiteral("Unknown tool: %1. Available tools: %2.")
                                                          .arg(name.toString(), names.join(QStringLiteral(", ")))));
    }
    const QJsonValue arguments = params.value(QStringLiteral("arguments"));
    if (!arguments.isUndefined() && !arguments.isNull() && !arguments.isObject()) {
        return readyFuture(reply.error(InvalidParams, QStringLiteral("Tool \"arguments\" must be an object.")));
    }
    Result<QJsonObject> validated = ArgumentValidator::validate(tool->inputSchema, arguments.toObject());
    if (!validated) {
        // Bad arguments are the model's to fix, so they travel as a tool result it can read, not a protocol error.
        return readyFuture(reply.result(errorToolResult(validated.error().message)));
    }

    ToolCall call = makeCall(reply, params, message, client);
    call.arguments = std::move(validated.value());
    // The handler names the run it started; the journal keeps the call and the reply with that run.
    auto runId = std::make_shared<QString>();
    call.ranAs = [runId](const QString &id) {
        *runId = id;
    };
    Invoke invoke = [this, reply, runId, handler = tool->handler, toolName = tool->name,
                     reader = client.reader](const ToolCall &call) {
        QJsonObject answer = invokeHandler(reply, handler, toolName, call);
        if (reader.journal && !runId->isEmpty()) {
            reader.journal->recordExchange(*runId, call.request, answer, call.protocolVersion);
        }
        m_resources.checkSubscriptions(call.arguments, reader);
        return answer;
    };

    // 2026-07-28 moved tasks into an extension this server does not offer: there `task` is an unknown member.
    const QJsonValue task = params.value(QStringLiteral("task"));
    if (!client.perRequest && task.isObject() && call.protocolVersion >= ProtocolVersion::kTasks) {
        return startTask(reply, *tool, task.toObject(), std::move(call), std::move(invoke));
    }
    if (!tool->longRunning) {
        return readyFuture(invoke(call));
    }
    return runOnPool(reply, std::move(call), std::move(invoke));
}

ToolCall ToolCallRunner::makeCall(const Reply &reply, const QJsonObject &params, const QJsonObject &message,
                                  const ToolCallClient &client) const
{
    ToolCall call;
    // A null argument was not given (the validator filled in its default).
    const QJsonObject sent = params.value(QStringLiteral("arguments")).toObject();
    for (auto it = sent.begin(); it != sent.end(); ++it) {
        if (!it.value().isNull()) {
            call.givenArguments << it.key();
        }
    }
    call.request = message;
    call.source = client.source;
    call.owner = client.owner;
    call.sessionHandles = client.sessionHandles;
    call.connection = client.connection;
    call.journal = client.reader.journal;
    call.protocolVersion = client.protocolVersion;
    call.clientName = client.clientName;
    call.clientVersion = client.clientVersion;
    // A 2026-07-28 request has no session to read the files back in later.
    call.artifactLinks = !client.perRequest && call.protocolVersion >= ProtocolVersion::kStructuredContent &&
                         client.reader.journal &&
                         m_resources.templateFor(CodeExecutor::artifactUri(QString(), QString()));
    call.log = [reply, sendsLog = client.sendsLog](LogLevel level, const QString &text) {
        qCDebug(lcMcp).noquote() << toString(level) << text;
        if (sendsLog && sendsLog(level)) {
            reply.notify(ServerIdentity::logMessage(level, text));
        }
    };
    const QJsonValue progressToken =
        params.value(QStringLiteral("_meta")).toObject().value(QStringLiteral("progressToken"));
    if (progressToken.isString() || progressToken.isDouble()) {
        auto counter = std::make_shared<std::atomic<int>>(0);
        call.progress = [reply, progressToken, counter](const QString &text) {
            // Progress must grow with every notification even though the total is unknown.
            reply.notify(makeNotification(QStringLiteral("notifications/progress"),
                                          QJsonObject{{QStringLiteral("progressToken"), progressToken},
                                                      {QStringLiteral("progress"), ++*counter},
                                                      {QStringLiteral("message"), text}}));
        };
    }
    return call;
}

QFuture<QJsonObject> ToolCallRunner::startTask(const Reply &reply, const Tool &tool, const QJsonObject &task,
                                               ToolCall call, Invoke invoke)
{
    if (!tool.longRunning) {
        return readyFuture(reply.error(MethodNotFound, QStringLiteral("Tool %1 answers at once and does not run as a "
                                                                      "task; call it without \"task\".")
                                                           .arg(tool.name)));
    }
    return readyFuture(m_tasks.start(reply.id(), task, m_pool,
                                     [invoke = std::move(invoke), call = std::move(call)](
                                         std::stop_token stop, const TaskRegistry::Progress &progress) mutable {
                                         call.stop = std::move(stop);
                                         // tasks/get shows the latest progress too, for a client that polls instead of
                                         // listening.
                                         call.progress = [notify = call.progress, progress](const QString &message) {
                                             notify(message);
                                             progress(message);
                                         };
                                         return invoke(call);
                                     }));
}

QFuture<QJsonObject> ToolCallRunner::runOnPool(const Reply &reply, ToolCall call, Invoke invoke)
{
    // Registered before the call is queued, so a notifications/cancelled that follows at once finds it.
    const QString key = idKey(reply.id());
    auto running = std::make_shared<RunningCall>();
    {
        const std::lock_guard lock(m_mutex);
        if (m_running.contains(key)) {
            return readyFuture(reply.error(
                InvalidRequest, QStringLiteral("Request id %1 is already in use by a running call.").arg(key.mid(2))));
        }
        m_running.insert(key, running);
    }
    call.stop = running->stop.get_token();
    return QtConcurrent::run(&m_pool, [this, key, running, invoke = std::move(invoke), call = std::move(call)] {
        QJsonObject answer = call.stop.stop_requested() ? QJsonObject() : invoke(call);
        {
            const std::lock_guard lock(m_mutex);
            if (m_running.value(key) == running) {
                m_running.remove(key);
            }
        }
        return running->cancelled ? QJsonObject() : answer;
    });
}

bool ToolCallRunner::cancel(const QJsonValue &requestId)
{
    std::shared_ptr<RunningCall> call;
    {
        const std::lock_guard lock(m_mutex);
        call = m_running.value(idKey(requestId));
    }
    if (!call) {
        return false;
    }
    call->cancelled = true;
    call->stop.request_stop();
    return true;
}

void ToolCallRunner::cancelAll()
{
    const std::lock_guard lock(m_mutex);
    for (const auto &call : std::as_const(m_running)) {
        call->cancelled = true;
        call->stop.request_stop();
    }
}

int ToolCallRunner::running() const
{
    const std::lock_guard lock(m_mutex);
    return static_cast<int>(m_running.size());
}

} // namespace sandbox::mcp
