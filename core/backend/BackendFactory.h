#pragma once

#include "backend/ContainerBackend.h"
#include "util/Result.h"

#include <QStringList>
#include <memory>

namespace sandbox {

/// Makes the backend named by --backend or the BACKEND variable (docker, podman, kubernetes).
namespace BackendFactory {

QStringList names();
/// The Kubernetes namespace from NAMESPACE (default "default"), as the Python llm-sandbox read it; the kubernetes
/// backend falls back to the kubeconfig context's namespace before "default" (KubernetesSettings).
Result<QString> kubernetesNamespace();
/// `name` empty means $BACKEND, then docker.
Result<std::shared_ptr<ContainerBackend>> create(const QString &name = {});

} // namespace BackendFactory

} // namespace sandbox
