#pragma once

#include "engine/RunObserver.h"
#include "engine/RunRequest.h"
#include "engine/RunResult.h"
#include "mcp/tools/Tool.h"
#include "util/Result.h"

#include <QJsonObject>
#include <functional>
#include <optional>
#include <stop_token>

namespace sandbox {
class ExecutionEngine;
}

namespace sandbox::mcp {

/// Runs one request to the end: ExecutionEngine::run, or a stand-in in tests.
using RunFunction = std::function<Result<RunResult>(const RunRequest &, std::stop_token, RunObserver *)>;

/// The execute_code tool: turns validated arguments into a RunRequest, runs it (blocking, so it is called on a
/// worker thread), relays progress, and turns the RunResult into what a model and a person need.
class CodeExecutor final
{
public:
    /// An empty `run` means no container backend is configured: every call then answers with that error.
    explicit CodeExecutor(RunFunction run);
    /// `engine` may be null; otherwise it must outlive every call.
    static CodeExecutor forEngine(ExecutionEngine *engine);
    /// An executor that answers every call with `why` (invalid settings, a backend that cannot be made), so a
    /// server can start and tell the model instead of exiting.
    static CodeExecutor unavailable(Error why);

    /// Why every call fails, when it does (see unavailable()).
    const std::optional<Error> &unavailableReason() const { return m_unavailable; }

    QJsonObject execute(const ToolCall &call) const;

    /// Images up to this size travel inline, as image items; with artifact links, larger ones travel as links.
    static constexpr qint64 kMaxInlineImageBytes = 256 * 1024;

    /// The CallToolResult of a finished run: the run as a JSON text item (plus structuredContent when the client
    /// understands it), then its files. Without `artifactLinks`, one image item per image and HTML pages as
    /// embedded resources; with them, images up to kMaxInlineImageBytes inline and every other file as a
    /// resource_link to artifactUri(). A program that failed is still a normal result: the model reads its exit
    /// code and stderr.
    static QJsonObject toToolResult(const RunRequest &request, const RunResult &result, bool structured,
                                    bool artifactLinks = false);
    /// sandbox://runs/{run_id}/artifacts/{name}: where resources/read serves a run's file.
    static QString artifactUri(const QString &runId, const QString &name);
    /// The run as JSON: exit_code, stdout, stderr, duration_ms, timed_out, stop_reason, resource_usage, ...
    static QJsonObject toJson(const RunRequest &request, const RunResult &result);
    /// JSON Schema of toJson(), announced as the tool's outputSchema.
    static QJsonObject outputSchema();
    /// The CallToolResult of a call that could not run (no backend, unsupported language, engine error): isError,
    /// and as text the JSON object the Python server answered with ({"exit_code": 1, "stdout": "", "stderr":
    /// message}) plus our `error`, `error_code`, `stop_reason` and `success`, so prompts that parse it keep working.
    static QJsonObject failureToolResult(const Error &error);

private:
    RunFunction m_run;
    std::optional<Error> m_unavailable;
};

} // namespace sandbox::mcp
