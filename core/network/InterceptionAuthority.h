#pragma once

#include "util/Result.h"

#include <QByteArray>
#include <QString>

namespace sandbox {

/// The certificate authority of this installation: a run's egress proxy signs with it the certificates it shows a
/// sandbox for the hosts it opens to add a secret to (NetworkSecret). Made once per user, kept in the keychain
/// (keychainKey()), trusted inside the sandboxes of runs with secrets only — never by the computer itself.
struct InterceptionAuthority
{
    QByteArray certificatePem;
    QByteArray keyPem;

    /// A new authority: an EC P-256 key, valid for ten years, for signing certificates only (CA:TRUE, pathlen 0).
    static Result<InterceptionAuthority> generate();
    /// What toPem() wrote; an Error when it is not a certificate authority with its key, or it expires within 30 days.
    static Result<InterceptionAuthority> fromPem(const QByteArray &pem);
    /// The certificate, then its key.
    [[nodiscard]] QByteArray toPem() const { return certificatePem + keyPem; }
    static QString keychainKey() { return QStringLiteral("network-authority"); }
};

} // namespace sandbox
