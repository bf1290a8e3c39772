#pragma once

#include "mcp/server/Resource.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/ToolRegistry.h"

#include <QList>

namespace sandbox {
struct SandboxSettings;
}

namespace sandbox::mcp {

/// What llm-sandbox offers over MCP, declared in one place: the tools execute_code, get_supported_languages and
/// get_language_details (names and parameters of the Python llm-sandbox server), the session tools
/// (create_session, list_sessions, close_session, upload_file, download_file), save_to_folder (a run's file into a
/// folder the user shared for results; only when there is one), the sandbox://languages resource, the skill of how to
/// use it well (SkillResources) and the resource templates of runs' and sessions' files.
class SandboxTools final
{
public:
    /// `engine` serves the session tools; without one they answer that no backend is configured.
    static ToolRegistry tools(const CodeExecutor &executor, ExecutionEngine *engine = nullptr);
    /// The same with the shared folders and the overwrite setting of `settings` (tools() takes the engine's).
    static ToolRegistry tools(const CodeExecutor &executor, ExecutionEngine *engine, const SandboxSettings &settings);
    /// `engine`: where the language versions are asked (the labels of the built images).
    static QList<Resource> resources(ExecutionEngine *engine = nullptr);
    /// The files runs produced (sandbox://runs/{run_id}/artifacts/{name}, read from the journal, only by the client
    /// whose call started the run) and the files in a sandbox session (sandbox://sessions/{session_id}/files/{path},
    /// only by the session's owner). `engine` serves the sessions' files; without one there are none.
    static QList<ResourceTemplate> resourceTemplates(ExecutionEngine *engine = nullptr);

    SandboxTools() = delete;
};

} // namespace sandbox::mcp
