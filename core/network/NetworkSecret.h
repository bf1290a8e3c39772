#pragma once

#include "network/NetworkAllowList.h"
#include "util/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

/// A secret of the user's bound to hosts and a header: `secrets set GITHUB_TOKEN --host api.github.com --header
/// 'Authorization: Bearer {}'`. A run allowed to reach one of its hosts sees only a placeholder in the environment
/// variable `name`; the run's egress proxy puts the real value into `header` of the HTTPS requests to those hosts that
/// carry the placeholder there, and nowhere else. This is what may be written down (the secrets file, the app's
/// settings, results); the value itself lives in the keychain only (keychainKey()).
struct NetworkSecret
{
    QString name;      ///< an environment variable's name: A-Z, 0-9 and _, not starting with a digit
    QStringList hosts; ///< exact host names, lower case
    QString header;    ///< "Name: template", the template holding "{}" once, where the value goes
    QString createdAt; ///< ISO 8601, UTC

    /// Checks each part; BadRequest naming what is wrong.
    static Result<NetworkSecret> make(const QString &name, const QStringList &hosts, const QString &header);
    static bool isValidName(const QString &name);
    /// Whether a value can go into a header as it is: printable ASCII (no quote, backslash or control character), at
    /// most 8 KiB; BadRequest saying why not (never quoting the value).
    static Result<void> checkValue(const QByteArray &value);

    /// "Authorization" of "Authorization: Bearer {}".
    QString headerName() const;
    /// The header's value with `value` in place of "{}".
    QByteArray headerValue(const QByteArray &value) const;
    /// Whether a run allowed `granted` may reach one of its hosts.
    bool isReachableWith(const NetworkAllowList &granted) const;
    /// The keychain entry that holds the value.
    static QString keychainKey(const QString &name) { return QStringLiteral("network-secret/") + name; }

    QJsonObject toJson() const;
    static Result<NetworkSecret> fromJson(const QJsonObject &json);
};

/// A secret one run gets: its binding, its value (on the host only: the proxy's configuration) and the random
/// placeholder the sandbox sees in its place.
struct GrantedSecret
{
    NetworkSecret binding;
    QByteArray value;
    QString placeholder;

    /// A new random placeholder for `name`: letters and digits only, never a valid credential anywhere.
    static QString makePlaceholder(const QString &name);
};

/// The secrets file: the bindings (never the values) by name, in the user's configuration folder (0600), or where
/// LLM_SANDBOX_SECRETS_FILE says.
class NetworkSecretsFile final
{
public:
    static QString path();
    /// The bindings in `path`; none when there is no file; an Error naming the file when it is not one.
    static Result<QList<NetworkSecret>> load(const QString &path = NetworkSecretsFile::path());
    /// Replaces the file with `secrets` (0600, written whole).
    static Result<void> save(const QList<NetworkSecret> &secrets, const QString &path = NetworkSecretsFile::path());

    NetworkSecretsFile() = delete;
};

} // namespace sandbox
