#include "mcp/tools/CodeExecutor.h"

#include "artifacts/ChartData.h"
#include "artifacts/TableData.h"
#include "engine/ExecutionEngine.h"
#include "engine/RunResultJson.h"
#include "lang/LanguageRegistry.h"
#include "mcp/McpLogging.h"
#include "mcp/tools/SessionHandle.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QUrl>
#include <chrono>
#include <mutex>

namespace sandbox::mcp {

namespace {

const QString kNoBackend = QStringLiteral(
    "Cannot run code: no container backend is configured. Start Docker or Podman (or set BACKEND, DOCKER_HOST "
    "or KUBECONFIG for the server) and restart the llm-sandbox MCP server.");

// An error message quotes what it refers to; a huge argument must not come back whole inside it.
constexpr qsizetype kMaxErrorChars = 2000;

// Output progress is throttled: a chatty program must not flood the client with notifications.
constexpr qint64 kOutputProgressIntervalMs = 500;

/// Relays a run's events to the client as progress notifications (and debug log messages).
class ProgressRelay final : public RunObserver
{
public:
    explicit ProgressRelay(const ToolCall &call) : m_call(call) {}

    void runStarted(const QString &runId, const RunRequest &request) override
    {
        m_call.ranAs(runId);
        report(QStringLiteral("Running %1 code").arg(request.language));
    }

    void runProgress(const QString &, const RunProgress &progress) override
    {
        m_call.log(LogLevel::Debug, progress.message);
        report(progress.message);
    }

    void runOutput(const QString &, OutputStream stream, const QByteArray &chunk) override
    {
        const std::lock_guard lock(m_mutex);
        m_outputBytes += chunk.size();
        if (m_sinceOutputReport.isValid() && m_sinceOutputReport.elapsed() < kOutputProgressIntervalMs) {
            return;
        }
        m_sinceOutputReport.start();
        const QString line = QString::fromUtf8(chunk).trimmed().section(QLatin1Char('\n'), -1).left(200);
        m_call.progress(
            QStringLiteral("%1 bytes of output so far; %2: %3")
                .arg(m_outputBytes)
                .arg(stream == OutputStream::Stdout ? QStringLiteral("stdout") : QStringLiteral("stderr"), line));
    }

    void runArtifact(const QString &, const Artifact &artifact) override
    {
        report(QStringLiteral("Captured %1 (%2)").arg(artifact.name, artifact.mimeType));
    }

private:
    void report(const QString &message)
    {
        const std::lock_guard lock(m_mutex);
        m_call.progress(message);
    }

    const ToolCall &m_call;
    std::mutex m_mutex;
    qint64 m_outputBytes = 0;
    QElapsedTimer m_sinceOutputReport;
};

bool isImage(const QString &mimeType)
{
    static const QSet<QString> images = {QStringLiteral("image/png"), QStringLiteral("image/jpeg"),
                                         QStringLiteral("image/gif"), QStringLiteral("image/svg+xml"),
                                         QStringLiteral("image/webp")};
    return images.contains(mimeType);
}

QJsonObject schema(const char *type, const char *description)
{
    return QJsonObject{{QStringLiteral("type"), QLatin1String(type)},
                       {QStringLiteral("description"), QLatin1String(description)}};
}

} // namespace

CodeExecutor::CodeExecutor(RunFunction run) : m_run(std::move(run))
{
    if (!m_run) {
        m_unavailable = Error{kNoBackend, ErrorCode::Unavailable};
    }
}

CodeExecutor CodeExecutor::unavailable(Error why)
{
    CodeExecutor executor{RunFunction()};
    executor.m_unavailable = std::move(why);
    return executor;
}

CodeExecutor CodeExecutor::forEngine(ExecutionEngine *engine)
{
    if (!engine) {
        return CodeExecutor(RunFunction());
    }
    return CodeExecutor([engine](const RunRequest &request, std::stop_token stop, RunObserver *observer) {
        return engine->run(request, std::move(stop), observer);
    });
}

QJsonObject CodeExecutor::execute(const ToolCall &call) const
{
    if (m_unavailable) {
        return failureToolResult(*m_unavailable);
    }
    RunRequest request;
    const QString sessionArgument = call.arguments.value(QStringLiteral("session_id")).toString();
    const SessionHandle session = SessionHandle::resolve(sessionArgument, call.owner);
    request.sessionId = session.id;
    request.sessionOwner = session.owner;
    request.connection = call.connection;
    // In a session, a language or timeout the client did not give is the session's (the engine fills it in).
    const bool sessionDefaults = !request.sessionId.isEmpty();
    if (!sessionDefaults || call.givenArguments.contains(QStringLiteral("language"))) {
        const Result<Language> language =
            LanguageRegistry::instance().find(call.arguments.value(QStringLiteral("language")).toString());
        if (!language) {
            return failureToolResult(language.error());
        }
        request.language = language->name;
    } else {
        request.language.clear();
    }
    request.code = call.arguments.value(QStringLiteral("code")).toString();
    for (const QJsonValue &library : call.arguments.value(QStringLiteral("libraries")).toArray()) {
        request.libraries << library.toString();
    }
    // Read even where the tool does not offer it: asking for a network the user does not allow is an error that says
    // so (NetworkAllowList::grant), never silently no network.
    for (const QJsonValue &host : call.arguments.value(QStringLiteral("network")).toArray()) {
        request.network << host.toString();
    }
    request.timeout = sessionDefaults && !call.givenArguments.contains(QStringLiteral("timeout"))
                          ? std::chrono::seconds(0)
                          : std::chrono::seconds(call.arguments.value(QStringLiteral("timeout")).toInteger(30));
    request.source = call.source;
    request.clientName = call.clientName;
    request.clientVersion = call.clientVersion;

    ProgressRelay relay(call);
    const Result<RunResult> result = m_run(request, call.stop, &relay);
    if (!result) {
        qCWarning(lcMcp).noquote() << "execute_code failed:" << result.error().message;
        call.log(LogLevel::Error, result.error().message.left(kMaxErrorChars));
        return failureToolResult(result.error());
    }
    // The client names its session again as it did (a handle stays a handle).
    RunRequest answered = request;
    answered.sessionId = sessionArgument;
    return toToolResult(answered, *result, call.supportsStructuredContent(), call.artifactLinks);
}

QJsonObject CodeExecutor::toJson(const RunRequest &request, const RunResult &result)
{
    // The same JSON as `run --json`, plus the keys of the Python server's reply so prompts written for it keep
    // working.
    QJsonObject json = runResultToJson(result);
    json.insert(QStringLiteral("success"), result.reason == StopReason::Exited && result.exitCode == 0);
    if (!request.language.isEmpty()) {
        json.insert(QStringLiteral("language"), request.language);
    }
    if (!request.sessionId.isEmpty()) {
        json.insert(QStringLiteral("session_id"), request.sessionId);
    }
    json.insert(QStringLiteral("libraries"), QJsonArray::fromStringList(request.libraries));
    return json;
}

QJsonObject CodeExecutor::toToolResult(const RunRequest &request, const RunResult &result, bool structured,
                                       bool artifactLinks)
{
    const QJsonObject json = toJson(request, result);
    QJsonArray content{
        QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                    {QStringLiteral("text"), QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact))}}};
    // What each chart and each table shows, in a line a model reads at a glance (the data is in the artifact's
    // "chart" or "table", a table's whole file a resource).
    QStringList charts;
    QStringList tables;
    for (const Artifact &artifact : result.artifacts) {
        if (!artifact.chart.isEmpty()) {
            charts << ChartData::summary(artifact.name, artifact.chart);
        }
        if (!artifact.table.isEmpty()) {
            tables << TableData::summary(artifact.name, artifact.table);
        }
    }
    for (const auto &[heading, lines] :
         {std::pair{QStringLiteral("Charts:"), charts}, std::pair{QStringLiteral("Tables:"), tables}}) {
        if (!lines.isEmpty()) {
            const QString text = heading + QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
            content.append(
                QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}});
        }
    }
    for (const Artifact &artifact : result.artifacts) {
        const bool image = isImage(artifact.mimeType);
        if (image && (!artifactLinks || artifact.size() <= kMaxInlineImageBytes)) {
            content.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                                       {QStringLiteral("data"), QString::fromLatin1(artifact.data.toBase64())},
                                       {QStringLiteral("mimeType"), artifact.mimeType}});
        } else if (artifactLinks) {
            // Megabytes of base64 would fill the model's context; the client reads the file when it wants it.
            content.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("resource_link")},
                                       {QStringLiteral("uri"), artifactUri(result.runId, artifact.name)},
                                       {QStringLiteral("name"), artifact.name},
                                       {QStringLiteral("mimeType"), artifact.mimeType},
                                       {QStringLiteral("size"), artifact.size()}});
        } else if (artifact.mimeType == QLatin1String("text/html")) {
            const QString uri = QStringLiteral("sandbox://artifacts/") +
                                QString::fromLatin1(QUrl::toPercentEncoding(artifact.name, "/"));
            content.append(QJsonObject{
                {QStringLiteral("type"), QStringLiteral("resource")},
                {QStringLiteral("resource"), QJsonObject{{QStringLiteral("uri"), uri},
                                                         {QStringLiteral("mimeType"), artifact.mimeType},
                                                         {QStringLiteral("text"), QString::fromUtf8(artifact.data)}}}});
        }
    }
    QJsonObject out{{QStringLiteral("content"), content}, {QStringLiteral("isError"), false}};
    if (structured) {
        out.insert(QStringLiteral("structuredContent"), json);
    }
    return out;
}

QString CodeExecutor::artifactUri(const QString &runId, const QString &name)
{
    // Each part is one template variable: a '/' in a name (plots/a.png) is escaped like any reserved character.
    return QStringLiteral("sandbox://runs/%1/artifacts/%2")
        .arg(QString::fromLatin1(QUrl::toPercentEncoding(runId)), QString::fromLatin1(QUrl::toPercentEncoding(name)));
}

QJsonObject CodeExecutor::failureToolResult(const Error &error)
{
    QString message = error.message;
    if (message.size() > kMaxErrorChars) {
        message = message.left(kMaxErrorChars) +
                  QStringLiteral("... (%1 characters cut)").arg(message.size() - kMaxErrorChars);
    }
    // The keys of the Python server's ExecutionResult(exit_code=1, stderr=str(e)).to_json(), then ours.
    const QJsonObject json{
        {QStringLiteral("exit_code"), 1},
        {QStringLiteral("stdout"), QString()},
        {QStringLiteral("stderr"), message},
        {QStringLiteral("success"), false},
        {QStringLiteral("error"), message},
        {QStringLiteral("error_code"), QLatin1String(errorCodeName(error.code))},
        {QStringLiteral("stop_reason"),
         error.code == ErrorCode::Cancelled ? QStringLiteral("cancelled") : QStringLiteral("error")},
    };
    return errorToolResult(QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact)));
}

QJsonObject CodeExecutor::outputSchema()
{
    const QJsonObject artifact{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("name"), schema("string", "File name in the output directory.")},
                     {QStringLiteral("mime_type"), schema("string", "MIME type, e.g. image/png or text/html.")},
                     {QStringLiteral("size"), schema("integer", "Size in bytes.")},
                     {QStringLiteral("width"), schema("integer", "Width in pixels (raster images only).")},
                     {QStringLiteral("height"), schema("integer", "Height in pixels (raster images only).")},
                     {QStringLiteral("path"), schema("string", "Where it was saved on the host, when it was.")},
                     {QStringLiteral("chart"),
                      schema("object", "What a chart shows (matplotlib with seaborn and pandas, plotly; R's base "
                                       "graphics, ggplot2, lattice; a plotly or Vega-Lite JSON file from any "
                                       "language): {library, kind, title, axes: [{title, x: {label, scale, range}, y: "
                                       "{...}, series: [{name, kind (line, scatter, area, bar, histogram with "
                                       "bin_edges, pie, image, box with boxes: [{label, median, q1, q3, whisker_low, "
                                       "whisker_high, outliers}]), x, y, points, truncated (cut to 200 points), y_min, "
                                       "y_max, r (a scatter's correlation)}], legend, annotations}], data_file (every "
                                       "point as CSV, another artifact, when a series was cut)}.")},
                     {QStringLiteral("table"),
                      schema("object", "What a CSV or tab-separated file holds: {rows, columns: [{name, type (number, "
                                       "text, boolean, empty), missing, min, max, mean (numbers), distinct (text)}], "
                                       "head: the first rows, head_rows}; the whole file is a resource.")}}},
        {QStringLiteral("required"),
         QJsonArray{QStringLiteral("name"), QStringLiteral("mime_type"), QStringLiteral("size")}},
    };
    const QJsonObject usage{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("description"), QStringLiteral("What the program used, measured inside the sandbox.")},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("wall_ms"), schema("integer", "Wall-clock time of the program.")},
                     {QStringLiteral("cpu_ms"), schema("integer", "CPU time of the program (user + system).")},
                     {QStringLiteral("peak_memory_kb"), schema("integer", "Peak resident memory.")}}},
    };
    QJsonObject libraries = schema("array", "Libraries installed before the run.");
    libraries.insert(QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    QJsonObject artifacts = schema("array", "Files the program wrote to its output directory (charts, HTML, ...); "
                                            "images up to 256 KiB come as image content items, other files as "
                                            "resource_link items to read with resources/read.");
    artifacts.insert(QStringLiteral("items"), artifact);

    const QJsonObject properties{
        {QStringLiteral("success"), schema("boolean", "True when the program exited on its own with exit code 0.")},
        {QStringLiteral("exit_code"), schema("integer", "Exit code of the program (or of the compiler when "
                                                        "compilation failed).")},
        {QStringLiteral("stdout"), schema("string", "Standard output (invalid UTF-8 replaced).")},
        {QStringLiteral("stderr"), schema("string", "Standard error (invalid UTF-8 replaced).")},
        {QStringLiteral("language"), schema("string", "The language the code ran as.")},
        {QStringLiteral("session_id"), schema("string", "The session the code ran in, if any.")},
        {QStringLiteral("libraries"), libraries},
        {QStringLiteral("duration_ms"), schema("integer", "Wall time of the whole call, setup included.")},
        {QStringLiteral("timed_out"), schema("boolean", "True when the timeout killed the program.")},
        {QStringLiteral("stop_reason"),
         schema("string", "Why the program stopped: exit, timeout, oom (out of memory), cpu_limit (its CPU "
                          "time was used up), output_limit, cancelled, compile_failed or stopped_by_user "
                          "(the person at the computer stopped it).")},
        {QStringLiteral("resource_usage"), usage},
        {QStringLiteral("output_truncated"), schema("boolean", "True when output beyond the limit was cut off.")},
        {QStringLiteral("artifacts"), artifacts},
        {QStringLiteral("artifacts_dropped"), schema("integer", "Artifacts not returned because of the count or "
                                                                "size limits.")},
        {QStringLiteral("network"),
         schema("object", "Only when the call asked for network: {allowed: [hosts], connections: [{host, port, "
                          "method, allowed, reason (why it was refused or failed), status, bytes_out, bytes_in, "
                          "duration_ms, started_ms}]}.")},
    };
    return QJsonObject{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"), properties},
        {QStringLiteral("required"),
         QJsonArray{QStringLiteral("exit_code"), QStringLiteral("stdout"), QStringLiteral("stderr"),
                    QStringLiteral("duration_ms"), QStringLiteral("timed_out"), QStringLiteral("stop_reason"),
                    QStringLiteral("resource_usage"), QStringLiteral("output_truncated"), QStringLiteral("artifacts")}},
    };
}

} // namespace sandbox::mcp
