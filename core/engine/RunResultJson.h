#pragma once

#include "engine/RunResult.h"

#include <QJsonObject>

namespace sandbox {

/// The result as JSON, the same for `run --json` and MCP's execute_code: exit_code, stdout,
/// stderr, duration_ms, timed_out, stop_reason, resource_usage, output_truncated, artifacts
/// ({name, mime_type, size}, width and height for raster images, `path` once saved on the host),
/// artifacts_dropped; `network` when the run asked for network (networkToJson()).
QJsonObject runResultToJson(const RunResult &result);
/// {"allowed": ["api.example.org", ...], "connections": [NetworkConnection::toJson(), ...]}: what a run was allowed to
/// reach and what it asked its egress proxy for.
QJsonObject networkToJson(const NetworkAllowList &granted, const QList<NetworkConnection> &connections);

} // namespace sandbox
