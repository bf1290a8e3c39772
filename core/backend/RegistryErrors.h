#pragma once

#include <QString>

namespace sandbox {

struct RegistryCredentials;

/// What a container engine's words about a registry mean, and what to do about them: Docker and Podman pass on the
/// registry's or the network's errors in their own text, which these read (the heuristics of a push and a login).
class RegistryErrors final
{
public:
    /// The message of a failed push: the engine's words, then what to do about the usual causes (the registry
    /// cannot be reached or speaks plain HTTP, the push is refused, the engine has no image by that name).
    /// `loggedIn`: whether the push sent a login (a refusal then means the stored login is no longer accepted).
    static QString pushMessage(const QString &reference, const QString &engineMessage, bool loggedIn = false);
    /// The message of a failed login check: the engine's words (which never hold the password), then what they mean.
    static QString loginMessage(const RegistryCredentials &credentials, const QString &engineMessage);
    /// Whether an engine's message about a login says the registry refused it (the engines pass on its 401: "login
    /// attempt to ... failed with status: 401 Unauthorized"; Docker Hub says "incorrect username or password").
    static bool loginRefused(const QString &engineMessage);
};

} // namespace sandbox
