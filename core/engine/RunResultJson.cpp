#include "engine/RunResultJson.h"

#include <QJsonArray>

namespace sandbox {

QJsonObject networkToJson(const NetworkAllowList &granted, const QList<NetworkConnection> &connections)
{
    QJsonArray hosts;
    for (const NetworkHost &host : granted.hosts()) {
        hosts.append(host.text());
    }
    return {{QStringLiteral("allowed"), hosts},
            {QStringLiteral("connections"), NetworkConnection::listToJson(connections)}};
}

QJsonObject runResultToJson(const RunResult &result)
{
    QJsonArray artifacts;
    for (const Artifact &artifact : result.artifacts) {
        QJsonObject item{{QStringLiteral("name"), artifact.name},
                         {QStringLiteral("mime_type"), artifact.mimeType},
                         {QStringLiteral("size"), artifact.size()}};
        if (artifact.hasPixelSize()) {
            item.insert(QStringLiteral("width"), artifact.width);
            item.insert(QStringLiteral("height"), artifact.height);
        }
        if (!artifact.path.isEmpty()) {
            item.insert(QStringLiteral("path"), artifact.path);
        }
        if (!artifact.chart.isEmpty()) {
            item.insert(QStringLiteral("chart"), artifact.chart);
        }
        if (!artifact.table.isEmpty()) {
            item.insert(QStringLiteral("table"), artifact.table);
        }
        artifacts.append(item);
    }
    QJsonObject json{
        {QStringLiteral("run_id"), result.runId},
        {QStringLiteral("exit_code"), result.exitCode},
        {QStringLiteral("stdout"), QString::fromUtf8(result.stdoutData)},
        {QStringLiteral("stderr"), QString::fromUtf8(result.stderrData)},
        {QStringLiteral("duration_ms"), result.durationMs},
        {QStringLiteral("timed_out"), result.timedOut()},
        {QStringLiteral("stop_reason"), toString(result.reason)},
        {QStringLiteral("compile_failed"), result.reason == StopReason::CompileFailed},
        {QStringLiteral("resource_usage"), QJsonObject{{QStringLiteral("wall_ms"), result.wallMs},
                                                       {QStringLiteral("cpu_ms"), result.cpuMs},
                                                       {QStringLiteral("peak_memory_kb"), result.peakMemoryKb}}},
        {QStringLiteral("output_truncated"), result.outputTruncated},
        {QStringLiteral("artifacts"), artifacts},
        {QStringLiteral("artifacts_dropped"), result.artifactsDropped},
    };
    if (!result.sharedFolders.isEmpty()) {
        json.insert(QStringLiteral("shared_folders"), SharedFolderUse::listToJson(result.sharedFolders));
    }
    if (!result.savedResults.isEmpty() || !result.refusedResults.isEmpty()) {
        QJsonArray saved;
        for (const SavedResult &file : result.savedResults) {
            saved.append(QJsonObject{{QStringLiteral("path"), file.sandboxPath()},
                                     {QStringLiteral("size"), file.bytes},
                                     {QStringLiteral("sha256"), file.sha256}});
        }
        QJsonArray refused;
        for (const RefusedResult &file : result.refusedResults) {
            refused.append(QJsonObject{{QStringLiteral("path"), file.path}, {QStringLiteral("reason"), file.reason}});
        }
        json.insert(QStringLiteral("saved_files"), saved);
        json.insert(QStringLiteral("not_saved"), refused);
    }
    if (result.networkGranted) {
        json.insert(QStringLiteral("network"), networkToJson(*result.networkGranted, result.network));
    }
    if (result.librariesCached) {
        json.insert(QStringLiteral("libraries_cached"), true);
    }
    if (result.enforcedLimits.reported) {
        json.insert(QStringLiteral("enforced_limits"), result.enforcedLimits.toJson());
    }
    return json;
}

} // namespace sandbox
