#pragma once

#include "journal/JournalRun.h"

#include <QJsonObject>

namespace sandbox {

/// A journal run as JSON (snake_case keys, as `run --json` and MCP use): the summary fields always; with `details`
/// also code, stdout, stderr, artifacts, the files saved into shared folders and the MCP exchange. Output that is not
/// UTF-8 is replaced, not dropped.
QJsonObject journalRunToJson(const JournalRun &run, bool details);

} // namespace sandbox
