#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox images build [LANG...]`, `llm-sandbox images list` and `llm-sandbox images push [LANG...]`.
int imagesCommand(const QStringList &arguments);

} // namespace sandbox::cli
