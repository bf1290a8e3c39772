#pragma once

#include <QStringList>

namespace sandbox::cli {

/// `llm-sandbox secrets set NAME --host HOST [--header 'Authorization: Bearer {}']` (the value from stdin or typed),
/// `secrets list [--json]` and `secrets remove NAME`: secrets bound to hosts, which a run's egress proxy adds to the
/// requests to those hosts while the sandbox sees only a placeholder (NetworkSecret). The values live in the system
/// keychain; the secrets file keeps the names, hosts and headers.
int secretsCommand(const QStringList &arguments);

} // namespace sandbox::cli
