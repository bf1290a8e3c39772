#pragma once

#include "backend/ContainerBackend.h"
#include "backend/kubernetes/KubernetesBackend.h"
#include "engine/EnforcedLimits.h"
#include "images/ImageCatalog.h"
#include "settings/SandboxSettings.h"
#include "util/Result.h"

#include <QList>
#include <QString>
#include <memory>
#include <optional>

namespace sandbox {

/// What `llm-sandbox doctor` finds out about one backend, and what the Backends page's Test connection shows: whether
/// it can be made and reached, what it is, the limits a sandbox really gets there, and (Kubernetes) the permissions.
/// Both faces call run(), so a failing backend gets the same diagnosis in both.
struct BackendDiagnosis
{
    enum class State
    {
        Unavailable, ///< the backend could not be made (settings, kubeconfig): `failure` says why
        Unreachable, ///< made, but its engine did not answer: `failure` says why and how to fix it
        Reachable
    };

    QString name;
    State state = State::Unavailable;
    Error failure;
    BackendInfo info;

    /// Kubernetes: the namespace and where the configuration came from; each permission the backend needs.
    QString kubernetesNamespace;
    QString kubernetesConfigSource;
    std::optional<Result<QList<KubernetesBackend::Permission>>> permissions;

    /// The OCI runtimes the engine offers (Kubernetes: RuntimeClasses), and the one the settings' SANDBOX_RUNTIME
    /// chooses for the sandboxes (the error says how to register a missing one).
    std::optional<Result<QList<OciRuntime>>> runtimes;
    std::optional<Result<OciRuntime>> sandboxRuntime;

    /// The limits a python sandbox started with every limit accepted has in force; when it could not be started,
    /// `limitsNotChecked` says why. Under gVisor, `runtimeNote` says what it replaces or cannot show inside
    /// (GVisorRuntime::assess), and `unenforced` holds only what remains missing.
    QString limitsNotChecked;
    std::optional<EnforcedLimits> limits;
    QList<UnenforcedLimit> unenforced; ///< of the limits the settings ask for
    QString whyNotEnforced;            ///< empty when `unenforced` is
    QString runtimeNote;

    /// "runc [default], runsc" for doctor and the page; `error` when the engine did not list them.
    QString runtimeList() const;
    /// The runtime the sandboxes run under ("the default runtime", "runsc (gVisor …)"), or why none can.
    QString sandboxRuntimeText() const;

    /// False when a permission the backend cannot work without is denied (or could not be checked).
    bool permissionsGranted() const;

    /// Diagnoses `backend` (as made, or the error of making it) named `name`; starts and removes a python sandbox
    /// when its image is there. Blocking: minutes at worst, call it off the GUI thread.
    static BackendDiagnosis run(const QString &name, const Result<std::shared_ptr<ContainerBackend>> &backend,
                                const SandboxSettings &settings, const ImageCatalog &catalog);
};

} // namespace sandbox
