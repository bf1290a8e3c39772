#pragma once

// The engine's own parts (not for its users): a session's container and its runs.

#include "engine/EngineRun.h"

namespace sandbox {

/// What a run does for a session: prepares the container a new session keeps (its libraries installed first), and
/// runs code in an open one, where files (and a persistent interpreter's variables) stay from run to run.
class ExecutionEngine::SessionRun final
{
public:
    explicit SessionRun(Run &run) : m_run(run) {}

    /// The started container of the new session `sessionId` of `language` with `libraries` installed, and with an
    /// egress proxy of its own for the hosts of `network` (SessionRequest::network) that every run in it may reach.
    Result<std::unique_ptr<SandboxContainer>> prepare(const Language &language, const QStringList &libraries,
                                                      const QStringList &network, const QString &sessionId);
    /// Runs `request` in its session (request.sessionId); a session whose sandbox stopped or stopped answering is
    /// closed.
    Result<RunResult> execute(const RunRequest &request);

private:
    Run &m_run;
};

} // namespace sandbox
