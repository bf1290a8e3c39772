#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox libraries list [--json]` and `libraries prune [LANG...]`: the library sets kept in the library cache
/// (LibraryCache) for later calls, and removing them.
int librariesCommand(const QStringList &arguments);

} // namespace sandbox::cli
