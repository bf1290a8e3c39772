#include "cli/McpCommand.h"

#include "AppContext.h"
#include "cli/CliContext.h"
#include "journal/JournalRecorder.h"
#include "mcp/McpHost.h"

namespace sandbox::cli {

int mcpCommand(const QStringList &arguments)
{
    if (arguments.size() > 1) {
        printError(Cli::tr("--mcp takes no other arguments."));
        return ExitUsage;
    }
    // stdout is the protocol: nothing else may be written there (printError writes to stderr).
    auto context = AppContext::create({.source = RunSource::Mcp,
                                       .removeOrphans = true,
                                       // The first execute_code should not pay for a container start.
                                       .prewarm = {QStringLiteral("python")},
                                       .applyRetention = true});
    // Whatever is wrong, still serve: an assistant that launched us only shows "disconnected" when we exit, while
    // a server that answers can tell the model (and so the person) what to fix. The language tools work anyway.
    const Result<ExecutionEngine *> engine =
        context ? (*context)->engine() : Result<ExecutionEngine *>(context.error());
    if (!engine) {
        printError(engine.error());
    }
    // The journal keeps each tool call as the client sent it and the result as it went back.
    mcp::McpHost host(engine, context ? (*context)->recorder() : nullptr);
    return host.serveStdio();
}

} // namespace sandbox::cli
