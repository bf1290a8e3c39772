#pragma once

#include "mcp/server/Resource.h"

#include <QJsonObject>
#include <QString>

namespace sandbox::mcp {

/// The run view of execute_code for hosts that render MCP Apps (extension io.modelcontextprotocol/ui, SEP-1865):
/// a self-contained page (resources/mcp-apps/run-view.html) that shows a run's output, why it stopped, what it used,
/// its charts (zoom, next and previous; HTML charts in a sandboxed frame of their own) and its code, and runs it
/// again, as it was or changed, through the host. It follows the host's theme and speaks English or Simplified
/// Chinese. Offered only to clients that announce the extension: for the others nothing changes.
class RunViewResource final
{
public:
    static inline const QString kUri = QStringLiteral("ui://llm-sandbox/run-view");
    static inline const QString kMimeType = QStringLiteral("text/html;profile=mcp-app");
    static inline const QString kExtension = QStringLiteral("io.modelcontextprotocol/ui");

    /// True when a client's capabilities announce the extension with the HTML profile.
    static bool clientSupports(const QJsonObject &clientCapabilities);
    /// The page, with its texts' translations filled in: made once per process, then shared.
    static const QString &html();
    /// The resource (listed and read only for clients of the extension), its `_meta` declaring an empty content
    /// security policy: the page reaches no origin at all.
    static Resource resource();
    /// The `_meta` of a tool whose results the view shows: {"ui": {"resourceUri", "visibility"}}.
    static QJsonObject toolMeta();

    RunViewResource() = delete;
};

} // namespace sandbox::mcp
