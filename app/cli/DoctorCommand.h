#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox doctor`: reachability and version of each backend, presence of each image;
/// non-zero when the selected backend is unusable.
int doctorCommand(const QStringList &arguments);

} // namespace sandbox::cli
