#include "cli/McpCommand.h"

#include "AppContext.h"
#include "cli/CliContext.h"
#include "mcp/StdioServer.h"

namespace sandbox::cli {

int mcpCommand(const QStringList &arguments)
{
    if (arguments.size() > 1) {
        printError(QStringLiteral("--mcp takes no other arguments."));
        return ExitUsage;
    }
    // stdout is the protocol: nothing else may be written there (printError writes to stderr).
    auto context = AppContext::create({.source = QStringLiteral("mcp"),
                                       .removeOrphans = true,
                                       // The first execute_code should not pay for a container start.
                                       .prewarm = {QStringLiteral("python")},
                                       .applyRetention = true});
    if (!context) {
        printError(context.error().message);
        return exitStatusFor(context.error());
    }
    auto engine = (*context)->engine();
    if (!engine) {
        // Still serve: the language tools work, and execute_code explains what is wrong.
        printError(engine.error().message);
    }
    mcp::StdioOptions options;
    // The journal keeps each tool call as the client sent it and the result as it went back.
    options.dispatcher.exchangeSink = (*context)->recorder();
    mcp::StdioServer server(engine ? *engine : nullptr, options);
    return server.exec();
}

} // namespace sandbox::cli
