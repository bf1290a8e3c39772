#pragma once

#include "mcp/server/Resource.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace sandbox {
class ExecutionEngine;
}

namespace sandbox::mcp {

/// The skill this server serves through the Skills extension (io.modelcontextprotocol/skills, SEP-2640): how to use
/// this sandbox well — the languages and their libraries, sessions for work in several steps, the user's shared
/// folders and network when there are any, charts and tables as data, the limits and what errors mean. In English
/// (skill://llm-sandbox/SKILL.md) and Simplified Chinese (skill://llm-sandbox-zh/SKILL.md), each a SKILL.md with YAML
/// front matter. Its lists (languages, libraries, limits, folders, hosts) come from the same registry and settings
/// the tools are made from, so it never says other than they do. To a client without the extension they are plain
/// text/markdown resources.
class SkillResources final
{
public:
    static inline const QString kExtension = QStringLiteral("io.modelcontextprotocol/skills");
    static inline const QString kScheme = QStringLiteral("skill://");

    /// The two SKILL.md resources. `engine`: the settings (limits, shared folders, allowed hosts) and the language
    /// versions of its images; without one the defaults, and versions unknown.
    static QList<Resource> resources(ExecutionEngine *engine = nullptr);
    /// Whether `resource` is a skill (its URI is a skill:// one).
    static bool isSkill(const Resource &resource);
    /// The skills/list and skills/get entry of `skill`: {uri, frontmatter: {name, description}, resources: [{uri,
    /// digest: "sha256:…", size}]} (the skill is one file, its SKILL.md).
    static QJsonObject entry(const Resource &skill);

    SkillResources() = delete;
};

} // namespace sandbox::mcp
