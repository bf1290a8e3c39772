#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox ps`: the sandboxes llm-sandbox runs on a backend (of every llm-sandbox process), with their
/// language, owner, session, age and resource use; a table, or JSON with --json.
int psCommand(const QStringList &arguments);

} // namespace sandbox::cli
