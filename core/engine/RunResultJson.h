#pragma once

#include "engine/RunResult.h"

#include <QJsonObject>

namespace sandbox {

/// The result as JSON, the same for `run --json` and MCP's execute_code: exit_code, stdout,
/// stderr, duration_ms, timed_out, stop_reason, resource_usage, output_truncated, artifacts
/// ({name, mime_type, size}, width and height for raster images, `path` once saved on the host),
/// artifacts_dropped.
QJsonObject runResultToJson(const RunResult &result);

} // namespace sandbox
