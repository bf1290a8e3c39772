#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox run [options] (FILE | -c CODE | -)`: runs code in a sandbox, passes its
/// output through and exits with its status.
int runCommand(const QStringList &arguments);

} // namespace sandbox::cli
