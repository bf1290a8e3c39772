#include "engine/BackendDiagnosis.h"

#include "engine/ContainerSpecFactory.h"
#include "engine/ContainerStarter.h"
#include "engine/GVisorRuntime.h"
#include "engine/OrphanReaper.h"
#include "lang/LanguageRegistry.h"

namespace sandbox {

namespace {

/// Starts a python sandbox on `backend` (when its image is there) and records the limits its runner finds in force,
/// and those of the settings that are not.
void checkLimits(BackendDiagnosis &diagnosis, ContainerBackend &backend, const SandboxSettings &settings,
                 const ImageCatalog &catalog)
{
    const auto language = LanguageRegistry::instance().find(QStringLiteral("python"));
    const auto image = language ? catalog.runImage(*language) : Result<QString>(language.error());
    if (!image) {
        diagnosis.limitsNotChecked = image.error().message;
        return;
    }
    // Without an image store (Kubernetes) the cluster pulls the image when the container starts below.
    ImageStore *store = backend.imageStore();
    if (auto present = store ? store->hasImage(*image) : Result<bool>(true); !present || !*present) {
        diagnosis.limitsNotChecked =
            QStringLiteral("no python image; llm-sandbox images build --backend %1 python").arg(diagnosis.name);
        return;
    }
    // Started with every limit accepted, so the report shows what is missing instead of a refusal.
    SandboxSettings accepting = settings;
    accepting.allowUnenforcedLimits = EnforcedLimits::limitNames();
    ContainerStarter starter(backend, catalog, ContainerSpecFactory(accepting, OrphanReaper::ownIdentity()));
    auto container = starter.start(*language, *image, {});
    if (!container) {
        diagnosis.limitsNotChecked =
            QStringLiteral("the check sandbox did not start: %1").arg(container.error().message);
        return;
    }
    diagnosis.limits = (*container)->enforcedLimits();
    const ContainerSpec spec = ContainerSpecFactory(settings, QString()).make(*image);
    diagnosis.unenforced = diagnosis.limits->compare(spec);
    if (const auto runtime = starter.sandboxRuntime(); runtime && GVisorRuntime::isGVisor(*runtime)) {
        const auto stats = backend.containerStats((*container)->id());
        const auto assessment = GVisorRuntime::assess(
            spec, *diagnosis.limits, diagnosis.unenforced,
            stats && stats->memoryLimitBytes > 0 ? std::optional<qint64>(stats->memoryLimitBytes) : std::nullopt);
        diagnosis.unenforced = assessment.missing;
        diagnosis.runtimeNote = assessment.note;
    }
    if (!diagnosis.unenforced.isEmpty()) {
        diagnosis.whyNotEnforced = ContainerStarter::whyNotEnforced(diagnosis.name, diagnosis.info.rootless,
                                                                    *diagnosis.limits, diagnosis.unenforced);
    }
}

} // namespace

QString BackendDiagnosis::runtimeList() const
{
    if (!runtimes) {
        return QString();
    }
    if (!*runtimes) {
        return QStringLiteral("not listed: %1").arg(runtimes->error().message);
    }
    QStringList names;
    for (const OciRuntime &runtime : **runtimes) {
        QString name = runtime.name.isEmpty() ? QStringLiteral("(none: the nodes' default)") : runtime.name;
        if (!runtime.handler.isEmpty() && runtime.handler != runtime.name) {
            name += QStringLiteral(" (%1)").arg(runtime.handler);
        }
        names << (runtime.isDefault ? name + QStringLiteral(" [default]") : name);
    }
    return names.join(QStringLiteral(", "));
}

QString BackendDiagnosis::sandboxRuntimeText() const
{
    if (!sandboxRuntime) {
        return QString();
    }
    if (!*sandboxRuntime) {
        return QStringLiteral("NOT AVAILABLE: %1").arg(sandboxRuntime->error().message);
    }
    const OciRuntime &chosen = **sandboxRuntime;
    const QString name = chosen.name.isEmpty() ? QStringLiteral("the default runtime") : chosen.name;
    return GVisorRuntime::isGVisor(chosen) ? QStringLiteral("%1 (%2)").arg(name, GVisorRuntime::description(chosen))
                                           : name;
}

bool BackendDiagnosis::permissionsGranted() const
{
    if (!permissions) {
        return true;
    }
    if (!*permissions) {
        return false;
    }
    for (const KubernetesBackend::Permission &permission : **permissions) {
        if (!permission.allowed && !permission.optional) {
            return false;
        }
    }
    return true;
}

BackendDiagnosis BackendDiagnosis::run(const QString &name, const Result<std::shared_ptr<ContainerBackend>> &backend,
                                       const SandboxSettings &settings, const ImageCatalog &catalog)
{
    BackendDiagnosis diagnosis;
    diagnosis.name = name;
    if (!backend) {
        diagnosis.failure = backend.error();
        return diagnosis;
    }
    auto info = (*backend)->probe();
    if (!info) {
        diagnosis.state = State::Unreachable;
        diagnosis.failure = info.error();
        return diagnosis;
    }
    diagnosis.state = State::Reachable;
    diagnosis.info = *info;
    if (auto *kubernetes = dynamic_cast<KubernetesBackend *>(backend->get())) {
        diagnosis.kubernetesNamespace = kubernetes->settings().namespaceName;
        diagnosis.kubernetesConfigSource = kubernetes->client().config().source;
        diagnosis.permissions = kubernetes->checkPermissions();
    }
    diagnosis.runtimes = (*backend)->runtimes();
    diagnosis.sandboxRuntime = *diagnosis.runtimes ? (*backend)->findRuntime(settings.runtime, **diagnosis.runtimes)
                                                   : Result<OciRuntime>(diagnosis.runtimes->error());
    checkLimits(diagnosis, **backend, settings, catalog);
    return diagnosis;
}

} // namespace sandbox
