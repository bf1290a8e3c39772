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

    /// Where the offline folder's packages are put, relative to the working directory.
    static QString offlineFolder() { return QStringLiteral(".llm-sandbox-offline"); }
    /// Where the CA bundle the install step trusts is put, relative to the working directory.
    static QString caBundleFile() { return QStringLiteral(".llm-sandbox-ca.pem"); }
    /// Where the registry's login goes, relative to the working directory of the builder sandbox (0600, never
    /// copied into the sandbox that runs the code).
    static QString credentialsFile() { return QStringLiteral(".llm-sandbox-credentials"); }

    /// Validates every name (nothing reaches a package manager unless it looks like a library
    /// name of that ecosystem, so no option or shell injection) and builds the step.
    /// `variable` reads the host's environment (replaceable in tests).
    static Result<LibraryInstallPlan> make(const Language &language, const QStringList &libraries,
                                           const QString &workdir,
                                           const std::function<QString(const char *)> &variable = {});

private:
    /// Takes the login out of `registry` (user info) into credentialsFile() in the form `style` names, so it is on
    /// no command line (where every process of the sandbox could read it from /proc, and progress would show it).
    Result<void> moveLoginToFile(LibraryInstaller::Credentials style, QString &registry, const QString &workdir);
};

} // namespace sandbox
