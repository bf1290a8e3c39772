#pragma once

#include "backend/ContainerSpec.h"
#include "backend/kubernetes/KubernetesSettings.h"
#include "util/Result.h"

#include <QJsonObject>

namespace sandbox {

/// The Pod object a sandbox's ContainerSpec becomes on Kubernetes: hardened security contexts, memory-backed
/// emptyDirs for the spec's tmpfs mounts, requests equal to limits, our labels, the settings' scheduling. Pure: it
/// reads no file and asks the cluster nothing, so every field is tested without one.
class PodManifest final
{
public:
    /// `userNamespacesByDefault`: the API server gives pods user namespaces by default (probe() found 1.33 or
    /// later), which KubernetesSettings::UserNamespaces::Auto follows.
    PodManifest(const KubernetesSettings &settings, bool userNamespacesByDefault);

    /// The pod named `podName` for `spec`; BadRequest for what a pod cannot be: a non-numeric user, a privileged
    /// sandbox, an engine network other than bridge.
    Result<QJsonObject> make(const ContainerSpec &spec, const QString &podName) const;

    /// The name of the sandbox's container in each pod (attach, status).
    static QString containerName();
    /// The name of the init container that fills a pod's folder volumes (ContainerSpec::binds): the sandbox's image
    /// and runner with those volumes writable, which the sandbox's container mounts read-only once it has ended.
    static QString folderLoaderName();
    /// What the runner runs as: the spec's command under prlimit with the spec's ulimits (a pod has no ulimit
    /// field).
    static QStringList runnerCommand(const ContainerSpec &spec);
    /// A label value Kubernetes accepts for `value`: itself when valid, else a digest ("x" + SHA-1 hex). The exact
    /// value is kept in an annotation.
    static QString labelValue(const QString &value);
    /// A pod's labels as its spec gave them: the exact values of the annotation, else the labels.
    static QJsonObject labelsOf(const QJsonObject &pod);

private:
    Result<QJsonObject> metadata(const ContainerSpec &spec, const QString &podName) const;
    QJsonObject container(const ContainerSpec &spec, const QJsonObject &identity, const QJsonArray &mounts) const;
    QJsonObject podSpec(const ContainerSpec &spec, const QJsonObject &identity, QJsonObject container,
                        const QJsonArray &volumes) const;
    QJsonObject seccompProfile() const;

    const KubernetesSettings &m_settings;
    bool m_userNamespacesByDefault = false;
};

} // namespace sandbox
