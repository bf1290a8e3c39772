#include "cli/McpCommand.h"

#include "AppContext.h"
#include "cli/CliContext.h"
#include "journal/JournalRecorder.h"
#include "mcp/CodeExecutor.h"
#include "mcp/SandboxTools.h"
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
    // Whatever is wrong, still serve: an assistant that launched us only shows "disconnected" when we exit, while
    // a server that answers can tell the model (and so the person) what to fix. The language tools work anyway.
    const auto serveUnavailable = [](const Error &why) {
        printError(why.message);
        mcp::StdioServer server(mcp::SandboxTools::tools(mcp::CodeExecutor::unavailable(why)),
                                mcp::SandboxTools::resources());
        return server.exec();
    };
    if (!context) {
        return serveUnavailable(context.error());
    }
    auto engine = (*context)->engine();
    if (!engine) {
        return serveUnavailable(engine.error());
    }
    mcp::StdioOptions options;
    // The journal keeps each tool call as the client sent it and the result as it went back.
    options.dispatcher.exchangeSink = (*context)->recorder();
    mcp::StdioServer server(*engine, options);
    return server.exec();
}

} // namespace sandbox::cli
