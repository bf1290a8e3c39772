#pragma once

#include "lang/Language.h"

#include <QJsonObject>

namespace sandbox {
class ExecutionEngine;
}

namespace sandbox::mcp {

/// The language details the MCP tools and the sandbox://languages resource show, in the field names of the
/// Python llm-sandbox server (version, package_manager, preinstalled_libraries, use_cases, visualization_support,
/// examples with title, description and code), plus ours.
class LanguageDetails final
{
public:
    /// `engine`: where to ask the version of the language's built image (its version label); without one,
    /// or before the image is built, the version says so.
    static QJsonObject toJson(const Language &language, ExecutionEngine *engine = nullptr);
    /// Every supported language, keyed by name.
    static QJsonObject all(ExecutionEngine *engine = nullptr);

    LanguageDetails() = delete;
};

} // namespace sandbox::mcp
