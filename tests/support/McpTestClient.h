#pragma once

// The MCP client of the tests and benchmarks: JSON-RPC messages, and one client over stdio (an `llm-sandbox --mcp`
// child process) or Streamable HTTP (POSTs answered with JSON or an event stream). Every client works in the event
// loop (send() with a handler, as many servers at once as a benchmark wants) or waits for its answers itself
// (request(), for a test). The official TypeScript SDK drives the binary elsewhere (tests/mcp/sdk); a raw HTTP
// client for the transport's own tests is HttpTestClient.

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QNetworkAccessManager>
#include <QNetworkRequest>
#include <QProcess>
#include <QString>
#include <QUrl>
#include <chrono>
#include <functional>

class QEventLoop;
class QNetworkReply;

namespace sandbox::test {

// ---------------------------------------------------------------------------------------------------------------------
// JSON-RPC messages

/// A request; `params` left out when empty.
QJsonObject jsonRpcRequest(const QJsonValue &id, const QString &method, const QJsonObject &params = {});
/// A notification; `params` left out when empty.
QJsonObject jsonRpcNotification(const QString &method, const QJsonObject &params = {});
/// `message` as one line of JSON.
QByteArray compactJson(const QJsonObject &message);

/// The params of the initialize request of client `clientName` asking for `protocolVersion`.
QJsonObject initializeParams(const QString &protocolVersion, const QString &clientName = QStringLiteral("test"),
                             const QJsonObject &capabilities = {});
/// The params of a tools/call of `tool`; `meta` (a progress token, ...) as its `_meta` when not empty.
QJsonObject toolCallParams(const QString &tool, const QJsonObject &arguments, const QJsonObject &meta = {});

/// The text of a CallToolResult's first content item.
QString firstText(const QJsonObject &callToolResult);
/// The text of the first content item of the result a tools/call response carries.
QString toolText(const QJsonObject &response);

/// The data of each Server-Sent Event of `body`, parsed as JSON (comment lines skipped; an event cut short at the end
/// of `body` is parsed as far as it goes).
QList<QJsonObject> eventStreamMessages(const QByteArray &body);

/// Where `llm-sandbox serve --http` said it listens, from what it wrote to stderr; empty before it said so.
QUrl announcedMcpUrl(const QString &stderrText);

// ---------------------------------------------------------------------------------------------------------------------
// The client

/// A JSON-RPC message a server sent back, or why none came.
struct McpAnswer
{
    QJsonObject message; ///< empty for an accepted notification
    QString error;       ///< the transport's failure: no answer came

    bool ok() const { return error.isEmpty(); }
};

/// One MCP connection. Answers go to the handler given with their request, in the event loop; the answers of requests
/// sent without one are kept for waitForAnswer(). Notifications the server sends are collected.
class McpTestClient
{
public:
    using Handler = std::function<void(const McpAnswer &answer)>;
    static constexpr std::chrono::milliseconds kDefaultTimeout = std::chrono::minutes(10);

    McpTestClient() = default;
    virtual ~McpTestClient();
    McpTestClient(const McpTestClient &) = delete;
    McpTestClient &operator=(const McpTestClient &) = delete;

    /// Sends `message`; its answer (for a notification: its acceptance) goes to `handler`, or without one is kept.
    virtual void send(const QJsonObject &message, Handler handler = {}) = 0;
    /// Ends the session (HTTP: DELETE; stdio: closes the server's stdin), then calls `done`.
    virtual void close(std::function<void()> done) = 0;

    /// Sends request `id` and runs the event loop until its answer came (or `timeout` passed: an error answer).
    McpAnswer request(const QJsonValue &id, const QString &method, const QJsonObject &params = {},
                      std::chrono::milliseconds timeout = kDefaultTimeout);
    /// The kept answer to request `id` (sent without a handler), running the event loop until it came; answers to
    /// other requests that come meanwhile are kept for their own call.
    McpAnswer waitForAnswer(const QJsonValue &id, std::chrono::milliseconds timeout = kDefaultTimeout);
    /// Whether the answer to `id` has come (after handling what is waiting in the event loop).
    bool answered(const QJsonValue &id);

    /// The handshake: initialize (request `id`), then notifications/initialized once it succeeded; initialize's answer.
    McpAnswer initialize(const QJsonValue &id, const QString &protocolVersion = QStringLiteral("2025-06-18"),
                         const QString &clientName = QStringLiteral("test"));
    /// tools/call of `tool` as request `id`; its answer.
    McpAnswer callTool(const QJsonValue &id, const QString &tool, const QJsonObject &arguments,
                       const QJsonObject &meta = {}, std::chrono::milliseconds timeout = kDefaultTimeout);

    /// The notifications the server sent so far, in order (none when they are not kept).
    QList<QJsonObject> notifications() const { return m_notifications; }
    /// Whether notifications are kept (they are unless a long-running client says otherwise).
    void setKeepNotifications(bool keep) { m_keepNotifications = keep; }

protected:
    /// Hands `answer` to request `id`'s handler, or keeps it.
    void deliver(const QJsonValue &id, const Handler &handler, const McpAnswer &answer);
    /// Keeps a notification the server sent (a message with a method and no id); others are ignored.
    void noteServerMessage(const QJsonObject &message);

private:
    /// Runs the event loop until an answer is kept or `timeout` passed.
    void waitForDelivery(std::chrono::milliseconds timeout);

    QHash<QString, McpAnswer> m_answers;
    QList<QJsonObject> m_notifications;
    bool m_keepNotifications = true;
    QEventLoop *m_waiting = nullptr;
};

/// `llm-sandbox --mcp` (or anything speaking MCP on its stdio), one JSON-RPC message per line. The client owns the
/// process: configure it through process() and start it; it is killed with the client when still running.
class StdioMcpClient final : public McpTestClient
{
public:
    StdioMcpClient();
    ~StdioMcpClient() override;

    QProcess &process() { return m_process; }

    void send(const QJsonObject &message, Handler handler = {}) override;
    void close(std::function<void()> done) override;

private:
    void readMessages();
    /// The process ended: every request still waiting is answered with `why`.
    void failPending(const QString &why);

    QProcess m_process;
    /// The requests not answered yet, by id; a request sent without a handler has an empty one.
    QHash<QString, Handler> m_pending;
};

/// Streamable HTTP: one POST per message, with the bearer token; the session id and protocol version an initialize
/// answer brings go on every later request. An answer may come as JSON or as an event stream (notifications first).
/// Each client has its own network manager: one manager opens at most 6 connections to a host.
class HttpMcpClient final : public McpTestClient
{
public:
    HttpMcpClient(QUrl url, QByteArray token, std::chrono::milliseconds timeout = kDefaultTimeout);
    ~HttpMcpClient() override;

    void send(const QJsonObject &message, Handler handler = {}) override;
    void close(std::function<void()> done) override;

    /// Runs the event loop until every request sent so far went out whole (or was answered); false after `timeout`.
    bool waitForSent(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    QByteArray sessionId() const { return m_sessionId; }

private:
    QNetworkRequest request() const;
    McpAnswer answerOf(QNetworkReply &reply);

    QNetworkAccessManager m_network;
    const QUrl m_url;
    const QByteArray m_token;
    const std::chrono::milliseconds m_timeout;
    QByteArray m_sessionId;
    QByteArray m_protocolVersion;
    int m_unsent = 0; ///< requests not yet sent whole
};

} // namespace sandbox::test
