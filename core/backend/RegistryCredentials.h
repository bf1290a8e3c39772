#pragma once

#include <QByteArray>
#include <QString>

namespace sandbox {

/// A login to an image registry, as the engines take it from their clients: never written to a settings file or a
/// log (the keychain keeps it, see RegistryCredentialStore).
struct RegistryCredentials
{
    QString username;
    QString password;      ///< a password or an access token
    QString serverAddress; ///< the registry as the user named it, "host[:port]"

    bool isEmpty() const { return username.isEmpty() && password.isEmpty(); }

    /// The registry part of `nameOrReference` ("host[:port]", lower case): what is before the first '/' of an image
    /// reference, without a scheme or a path. "docker.io" for Docker Hub's names.
    static QString registryHost(const QString &nameOrReference);

    /// The value of the Engine API's X-Registry-Auth header: base64url of the JSON {username, password,
    /// serveraddress}, or of "{}" when there are no credentials (the engines want the header even then).
    QByteArray registryAuthHeader() const;
    /// The body of the Engine API's POST /auth.
    QByteArray authRequestBody() const;
    /// `text` with the password (and the header that carries it) replaced by "***": for engine messages and
    /// progress lines, which should never echo it but are not ours to trust.
    QString redact(QString text) const;
};

} // namespace sandbox
