#pragma once

#include <QString>

namespace sandbox {

/// Credentials a URL can carry, removed from text that leaves the engine as progress, logs, the journal or MCP
/// output: the user info of a URL ("https://user:secret@host" becomes "https://***@host") and the values of query
/// parameters that name a secret (token, access_token, password, ...). Everything else is kept as it was.
QString redactCredentials(QString text);

} // namespace sandbox
