#pragma once

#include "backend/ContainerBackend.h"
#include "settings/BackendConnection.h"
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
/// `name` empty means $BACKEND, then docker. `connection`: where the user settings say the backend is; the
/// environment's variables win over it.
Result<std::shared_ptr<ContainerBackend>> create(const QString &name = {}, const BackendConnection &connection = {});

} // namespace BackendFactory

} // namespace sandbox
