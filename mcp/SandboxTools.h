#pragma once

#include "mcp/CodeExecutor.h"
#include "mcp/Resource.h"
#include "mcp/ToolRegistry.h"

#include <QList>

namespace sandbox::mcp {

/// What llm-sandbox offers over MCP, declared in one place: the tools execute_code, get_supported_languages and
/// get_language_details (names and parameters of the Python llm-sandbox server), the session tools
/// (create_session, list_sessions, close_session, upload_file, download_file) and the sandbox://languages
/// resource.
class SandboxTools final
{
public:
    /// `engine` serves the session tools; without one they answer that no backend is configured.
    static ToolRegistry tools(const CodeExecutor &executor, ExecutionEngine *engine = nullptr);
    /// `engine`: where the language versions are asked (the labels of the built images).
    static QList<Resource> resources(ExecutionEngine *engine = nullptr);

    SandboxTools() = delete;
};

} // namespace sandbox::mcp
