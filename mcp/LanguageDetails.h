#pragma once

#include "lang/Language.h"

#include <QJsonObject>

namespace sandbox::mcp {

/// The language details the MCP tools and the sandbox://languages resource show, in the field names of the
/// Python llm-sandbox server (version, package_manager, preinstalled_libraries, use_cases, visualization_support,
/// examples with title, description and code), plus ours.
class LanguageDetails final
{
public:
    static QJsonObject toJson(const Language &language);
    /// Every supported language, keyed by name.
    static QJsonObject all();

    LanguageDetails() = delete;
};

} // namespace sandbox::mcp
