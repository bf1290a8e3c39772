#pragma once

#include "backend/ContainerBackend.h"
#include "lang/Language.h"
#include "util/Result.h"

#include <QHash>
#include <QStringList>
#include <functional>

namespace sandbox {

/// One destination the egress proxy of an install lets through.
struct EgressRule
{
    QString host; ///< a host name or an IP address, as the registry's URL names it
    int port = 443;
    /// The user named this registry (a variable): allowed even at a private address (a mirror on the LAN). The
    /// default registries are allowed only at public addresses, whatever their names resolve to.
    bool configured = false;
    /// "user:password" the proxy adds (as HTTP Basic) to every request for this registry; the install reaches the
    /// registry as a plain http:// address of the proxy's and never holds the login. Empty: none.
    QString login;
    /// With a login: the proxy speaks TLS to the registry (an https:// registry the install names as http://).
    bool tls = false;

    bool operator==(const EgressRule &) const = default;
};

/// The install step for the libraries a run names, made from the language's description and
/// the sources the user configured (registry variables, an offline folder of packages).
struct LibraryInstallPlan
{

    QStringList argv;
    QHash<QString, QString> environment;
    QList<FileEntry>
        offlineFiles;         ///< the offline folder's packages and the CA bundle, relative to the working directory
    bool needsNetwork = true; ///< false when every package comes from the offline folder
    /// Where the install may connect (through the egress proxy): the registry, and the hosts the default one links
    /// to; empty without network.
    QList<EgressRule> egress;
    /// The certificate authorities the host trusts (PEM, LLM_SANDBOX_CA_BUNDLE or the system's bundle) when the install
    /// needs the network: the builder trusts them, and so does the egress proxy where it speaks TLS to a registry
    /// itself (EgressRule::login). Empty: only the images' own.
    QByteArray trustedCertificates;

    /// Where the offline folder's packages are put, relative to the working directory.
    static QString offlineFolder() { return QStringLiteral(".llm-sandbox-offline"); }
    /// Where the CA bundle the install step trusts is put, relative to the working directory.
    static QString caBundleFile() { return QStringLiteral(".llm-sandbox-ca.pem"); }

    /// Validates every name (nothing reaches a package manager unless it looks like a library
    /// name of that ecosystem, so no option or shell injection) and builds the step.
    /// `variable` reads the host's environment (replaceable in tests). A login in the registry's URL is taken out
    /// of it into the registry's EgressRule: the egress proxy adds it, and the builder never sees it.
    static Result<LibraryInstallPlan> make(const Language &language, const QStringList &libraries,
                                           const QString &workdir,
                                           const std::function<QString(const char *)> &variable = {});

private:
    /// Takes the login out of `registry` for the egress proxy to add: `registry` becomes the same address as plain
    /// http:// (its port explicit), `login` "user:password", `tls` whether it was https://.
    static Result<void> moveLoginToProxy(QString &registry, QString &login, bool &tls);
};

} // namespace sandbox
