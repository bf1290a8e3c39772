#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox history [--limit N] [--json] [--language L] [--source S] [--status S]`: the journal's runs,
/// newest first, as a table (or a JSON array).
int historyCommand(const QStringList &arguments);

} // namespace sandbox::cli
