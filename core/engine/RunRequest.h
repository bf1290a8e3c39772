#pragma once

#include "engine/RunSource.h"
#include "folders/SharedFolder.h"

#include <QString>
#include <QStringList>
#include <chrono>

namespace sandbox {

/// What to run: the code, its language and the limits of this one run.
struct RunRequest
{
    QString language = QStringLiteral("python");
    QString code;
    QStringList libraries;
    std::chrono::milliseconds timeout{std::chrono::seconds(30)};
    /// Run in this session's container (ExecutionEngine::createSession) instead of a fresh one. There an
    /// empty language and a zero timeout mean the session's.
    QString sessionId;
    /// Who asks (SessionRequest::owner): only the session's own owner may run in it.
    QString sessionOwner;
    /// Where the request came from, for the journal and the live log.
    RunSource source = RunSource::Cli;
    /// The MCP client that asked for the run (its clientInfo name and version), when one did.
    QString clientName;
    QString clientVersion;
    /// The journal id of the run this one replays, for replays.
    QString replayOf;
    /// The MCP connection that asked (ToolCall::connection), kept with the run in the journal: only that connection
    /// reads the run's files back (ExchangeSink::storedArtifact).
    QString connection;
    /// Folders shared for this run only, besides SandboxSettings::sharedFolders (a folder dropped on the Console,
    /// `run --share`): the run gets a sandbox of its own with them.
    QList<SharedFolder> sharedFolders;
    /// The hosts the run asks to reach ("api.example.org", "*.example.org:8443"), within SandboxSettings::networkAllow
    /// (NetworkAllowList::grant): it gets a sandbox of its own whose only way out is its own egress proxy. Empty: no
    /// network, as every other run.
    QStringList network;
};

} // namespace sandbox
