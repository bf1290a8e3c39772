#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox images build [LANG...]`, `images list`, `images prune` (old definitions' images),
/// `images push [LANG...]` and `images login|logout REGISTRY`
/// (registry logins in the system keychain, sent with the pushes to that registry).
int imagesCommand(const QStringList &arguments);

} // namespace sandbox::cli
