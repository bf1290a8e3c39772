#pragma once

#include "util/Result.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandbox {

/// A user's `exec` credential plugin (client.authentication.k8s.io): the program that prints an ExecCredential.
struct KubeExecConfig
{
    QString apiVersion; ///< client.authentication.k8s.io/v1 (or v1beta1)
    QString command;    ///< resolved against the kubeconfig's directory when it is a relative path
    QStringList args;
    QList<QPair<QString, QString>> env;
    QString interactiveMode; ///< Never, IfAvailable, Always
    QString installHint;
    bool provideClusterInfo = false;
};

/// The cluster, user and namespace of one Kubernetes context, resolved as kubectl resolves them: file references
/// are read (relative paths against the file that named them), so what is left is data.
struct KubeConfig
{
    QString source;      ///< where it came from, for messages ("/home/u/.kube/config, context kind")
    QString contextName; ///< empty for the in-cluster configuration
    QString server;      ///< "https://host:port"
    QByteArray caPem;    ///< certificate-authority(-data); empty: the system's CAs
    bool insecureSkipTlsVerify = false;
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
    QString token;
    QString tokenFile; ///< read on every use: service-account tokens are rotated
    std::optional<KubeExecConfig> exec;
    QString namespaceName; ///< the context's (or the pod's) namespace; empty when it names none

    /// Merges the kubeconfig `paths` by kubectl's rules (the first file to set a map entry or current-context wins;
    /// files that do not exist are skipped) and resolves `context` (empty: current-context).
    static Result<KubeConfig> fromFiles(const QStringList &paths, const QString &context = {});
    /// The service account of the pod this process runs in: `root`/token, `root`/ca.crt, `root`/namespace and
    /// KUBERNETES_SERVICE_HOST / KUBERNETES_SERVICE_PORT.
    static Result<KubeConfig> inCluster(const QString &root, const QString &host, const QString &port);
    /// What kubectl would use: $KUBECONFIG (colon-separated), else ~/.kube/config, else the in-cluster
    /// configuration when KUBERNETES_SERVICE_HOST is set.
    static Result<KubeConfig> fromEnvironment(const QString &context = {},
                                              const QString &inClusterRoot = defaultInClusterRoot());
    static QString defaultInClusterRoot() { return QStringLiteral("/var/run/secrets/kubernetes.io/serviceaccount"); }
};

} // namespace sandbox
