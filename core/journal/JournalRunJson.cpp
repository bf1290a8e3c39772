#include "journal/JournalRunJson.h"

#include <QJsonArray>

namespace sandbox {

namespace {

QJsonValue timeOrNull(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonObject journalRunToJson(const JournalRun &run, bool details)
{
    QJsonObject json{
        {QStringLiteral("id"), run.id},
        {QStringLiteral("seq"), run.seq},
        {QStringLiteral("source"), run.source ? toString(*run.source) : QString()},
        {QStringLiteral("client_name"), run.clientName},
        {QStringLiteral("client_version"), run.clientVersion},
        {QStringLiteral("backend"), run.backend},
        {QStringLiteral("endpoint"), run.endpoint},
        {QStringLiteral("image"), run.image},
        {QStringLiteral("language"), run.language},
        {QStringLiteral("libraries"), QJsonArray::fromStringList(run.libraries)},
        {QStringLiteral("libraries_cached"), run.librariesCached},
        {QStringLiteral("timeout_ms"), run.timeoutMs},
        {QStringLiteral("settings"), run.settings},
        {QStringLiteral("session_id"), run.sessionId},
        {QStringLiteral("replay_of"), run.replayOf},
        {QStringLiteral("started_at"), timeOrNull(run.startedAt)},
        {QStringLiteral("finished_at"), timeOrNull(run.finishedAt)},
        {QStringLiteral("duration_ms"), run.durationMs},
        {QStringLiteral("status"), toString(run.status)},
        {QStringLiteral("exit_code"), run.exitCode ? QJsonValue(*run.exitCode) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("stop_reason"), run.stopReason ? toString(*run.stopReason) : QString()},
        {QStringLiteral("error"), run.error},
        {QStringLiteral("resource_usage"), QJsonObject{{QStringLiteral("wall_ms"), run.wallMs},
                                                       {QStringLiteral("cpu_ms"), run.cpuMs},
                                                       {QStringLiteral("peak_memory_kb"), run.peakMemoryKb}}},
        {QStringLiteral("output_cap"), run.outputCap},
        {QStringLiteral("output_truncated"), run.outputTruncated},
    };
    if (!details) {
        return json;
    }
    json.insert(QStringLiteral("code"), run.code);
    json.insert(QStringLiteral("stdout"), QString::fromUtf8(run.stdoutData));
    json.insert(QStringLiteral("stderr"), QString::fromUtf8(run.stderrData));
    QJsonArray artifacts;
    for (const JournalArtifact &artifact : run.artifacts) {
        QJsonObject item{{QStringLiteral("name"), artifact.name},     {QStringLiteral("mime_type"), artifact.mimeType},
                         {QStringLiteral("size"), artifact.size},     {QStringLiteral("width"), artifact.width},
                         {QStringLiteral("height"), artifact.height}, {QStringLiteral("path"), artifact.path}};
        if (!artifact.chart.isEmpty()) {
            item.insert(QStringLiteral("chart"), artifact.chart);
        }
        artifacts.append(item);
    }
    json.insert(QStringLiteral("artifacts"), artifacts);
    QJsonArray saved;
    for (const SavedResult &result : run.savedResults) {
        saved.append(QJsonObject{{QStringLiteral("folder"), result.folderName},
                                 {QStringLiteral("name"), result.fileName},
                                 {QStringLiteral("sandbox_path"), result.sandboxPath()},
                                 {QStringLiteral("path"), result.hostPath()},
                                 {QStringLiteral("bytes"), result.bytes},
                                 {QStringLiteral("sha256"), result.sha256},
                                 {QStringLiteral("saved_at"), timeOrNull(result.savedAt)}});
    }
    json.insert(QStringLiteral("saved_results"), saved);
    json.insert(QStringLiteral("shared_folders"), SharedFolderUse::listToJson(run.sharedFolders));
    if (!run.network.isEmpty()) {
        json.insert(QStringLiteral("network"), run.network);
    }
    if (!run.mcpRequest.isEmpty() || !run.mcpResponse.isEmpty()) {
        json.insert(QStringLiteral("mcp"), QJsonObject{{QStringLiteral("protocol_version"), run.protocolVersion},
                                                       {QStringLiteral("request"), run.mcpRequest},
                                                       {QStringLiteral("response"), run.mcpResponse}});
    }
    return json;
}

} // namespace sandbox
