#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox images build [LANG...]` and `llm-sandbox images list`.
int imagesCommand(const QStringList &arguments);

} // namespace sandbox::cli
