#pragma once

#include "artifacts/Artifact.h"
#include "folders/SavedResult.h"
#include "util/Result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sandbox {

/// The run journal as the MCP layer uses it: it receives a tool call exactly as an MCP client sent it and the reply
/// exactly as it was returned, for the run the call started, and gives back the files a run produced (served as MCP
/// resources). The MCP layer calls it from its worker threads: implementations must be thread-safe.
class ExchangeSink
{
public:
    virtual ~ExchangeSink() = default;

    virtual void recordExchange(const QString &runId, const QJsonObject &request, const QJsonObject &response,
                                const QString &protocolVersion) = 0;

    /// Run `runId`'s artifact named `name` (its name in the run's output directory), with everything the journal
    /// was handed before this call, when MCP connection `connection` asked for the run (RunRequest::connection):
    /// ErrorCode::NotFound when the run has no such artifact or another connection's (or no connection's) it is.
    virtual Result<Artifact> storedArtifact(const QString &runId, const QString &name, const QString &connection) = 0;

    /// Keeps with run `runId` that llm-sandbox saved `saved` into a shared folder for it (save_to_folder). A run the
    /// journal does not have gets nothing.
    virtual void recordSavedResult(const QString &runId, const SavedResult &saved) = 0;
    /// The files saved for run `runId` so far, with everything recordSavedResult() was handed before this call, in
    /// the order they were saved.
    virtual Result<QList<SavedResult>> savedResults(const QString &runId) = 0;
};

} // namespace sandbox
