#include "backend/RegistryErrors.h"

#include "backend/RegistryCredentials.h"

namespace sandbox {

namespace {

/// What to do when the engine could not talk to `registry` at all; empty when `lower` says something else.
/// `namedBy`: where the user gave the registry's name.
QString reachabilityAdvice(const QString &registry, const QString &lower, const QString &namedBy)
{
    if (lower.contains(QLatin1String("server gave http response to https client"))) {
        return QStringLiteral("The registry %1 speaks plain HTTP: the engine talks to it without TLS only when "
                              "told it may (Docker: \"insecure-registries\" in /etc/docker/daemon.json; Podman: "
                              "insecure = true for it in registries.conf); loopback addresses need neither.")
            .arg(registry);
    }
    if (lower.contains(QLatin1String("connection refused")) || lower.contains(QLatin1String("no such host")) ||
        lower.contains(QLatin1String("i/o timeout")) || lower.contains(QLatin1String("no route to host")) ||
        lower.contains(QLatin1String("dial tcp"))) {
        return QStringLiteral("The registry %1 could not be reached: check the name and port given %2 and that "
                              "the registry is running.")
            .arg(registry, namedBy);
    }
    return {};
}

} // namespace

bool RegistryErrors::loginRefused(const QString &engineMessage)
{
    const QString lower = engineMessage.toLower();
    return lower.contains(QLatin1String("unauthorized")) ||
           lower.contains(QLatin1String("incorrect username or password"));
}

QString RegistryErrors::pushMessage(const QString &reference, const QString &engineMessage, bool loggedIn)
{
    const QString registry = reference.section(QLatin1Char('/'), 0, 0);
    const QString lower = engineMessage.toLower();
    if (lower.contains(QLatin1String("no such image")) || lower.contains(QLatin1String("does not exist locally"))) {
        return QStringLiteral("%1. The engine has no image named %2: tag an image with that name before pushing it.")
            .arg(engineMessage, reference);
    }
    if (const QString advice =
            reachabilityAdvice(registry, lower, QStringLiteral("with --registry or LLM_SANDBOX_REGISTRY"));
        !advice.isEmpty()) {
        return engineMessage + QStringLiteral(". ") + advice;
    }
    // "no basic auth credentials": Docker's words when a registry wants a login and got none.
    if (lower.contains(QLatin1String("unauthorized")) || lower.contains(QLatin1String("authentication required")) ||
        lower.contains(QLatin1String("denied")) || lower.contains(QLatin1String("no basic auth credentials"))) {
        if (loggedIn) {
            return QStringLiteral("%1. The registry %2 refused the push with the login stored for it: the account "
                                  "may lack the right to push there, or the password changed (log in again with "
                                  "`llm-sandbox images login %2`).")
                .arg(engineMessage, registry);
        }
        return QStringLiteral("%1. The registry %2 refused the push: it needs a login. Log in with `llm-sandbox "
                              "images login %2 --username NAME` (the password is read from stdin and kept in the "
                              "system keychain), then push again.")
            .arg(engineMessage, registry);
    }
    return engineMessage;
}

QString RegistryErrors::loginMessage(const RegistryCredentials &credentials, const QString &engineMessage)
{
    const QString registry = credentials.serverAddress;
    const QString lower = engineMessage.toLower();
    if (const QString advice = reachabilityAdvice(registry, lower, QStringLiteral("to images login"));
        !advice.isEmpty()) {
        return QStringLiteral("Logging in to %1 failed: %2. %3").arg(registry, engineMessage, advice);
    }
    if (loginRefused(engineMessage)) {
        return QStringLiteral("The registry %1 refused the login of %2: wrong username or password (%3).")
            .arg(registry, credentials.username, engineMessage);
    }
    return QStringLiteral("Logging in to %1 failed: %2").arg(registry, engineMessage);
}

} // namespace sandbox
