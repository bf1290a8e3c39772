#include "cli/DoctorCommand.h"

#include "AppContext.h"
#include "backend/BackendFactory.h"
#include "backend/kubernetes/KubernetesBackend.h"
#include "cli/CliContext.h"
#include "engine/ContainerStarter.h"
#include "engine/GVisorRuntime.h"
#include "engine/OrphanReaper.h"
#include "images/ImageCatalog.h"
#include "lang/LanguageRegistry.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace sandbox::cli {

namespace {

/// Starts a python sandbox on `backend` (when its image is there) and prints the limits its runner finds in force,
/// and those of the settings that are not.
void reportLimits(AppContext &context, const QString &name, ContainerBackend &backend, bool rootless)
{
    const auto language = LanguageRegistry::instance().find(QStringLiteral("python"));
    const ImageCatalog catalog = context.catalog();
    const auto image = language ? catalog.runImage(*language) : Result<QString>(language.error());
    if (!image) {
        out() << QStringLiteral("     limits: not checked (%1)\n").arg(image.error().message);
        return;
    }
    if (auto present = backend.hasImage(*image); !present || !*present) {
        out() << QStringLiteral("     limits: not checked (no python image; llm-sandbox images build --backend %1 "
                                "python)\n")
                     .arg(name);
        return;
    }
    // Started with every limit accepted, so the report shows what is missing instead of a refusal.
    SandboxSettings accepting = context.settings();
    accepting.allowUnenforcedLimits = EnforcedLimits::limitNames();
    ContainerStarter starter(backend, catalog, ContainerSpecFactory(accepting, OrphanReaper::ownIdentity()));
    auto container = starter.start(*language, *image, {});
    if (!container) {
        out() << QStringLiteral("     limits: the check sandbox did not start: %1\n").arg(container.error().message);
        return;
    }
    const EnforcedLimits &limits = (*container)->enforcedLimits();
    const ContainerSpec spec = ContainerSpecFactory(context.settings(), QString()).make(*image);
    QList<UnenforcedLimit> missing = limits.compare(spec);
    out() << QStringLiteral("     limits: %1, cgroup v%2\n")
                 .arg(rootless ? QStringLiteral("rootless") : QStringLiteral("rootful"))
                 .arg(limits.cgroupVersion);
    bool gvisor = false;
    if (const auto runtime = starter.sandboxRuntime(); runtime && GVisorRuntime::isGVisor(*runtime)) {
        gvisor = true;
        const auto stats = backend.containerStats((*container)->id());
        const auto assessment = GVisorRuntime::assess(
            spec, limits, missing,
            stats && stats->memoryLimitBytes > 0 ? std::optional<qint64>(stats->memoryLimitBytes) : std::nullopt);
        missing = assessment.missing;
        out() << QStringLiteral("     %1\n").arg(assessment.note);
    }
    if (missing.isEmpty()) {
        out() << (gvisor ? "     limits: every other requested limit is in force\n"
                         : "     limits: every requested limit is in force\n");
        return;
    }
    for (const UnenforcedLimit &limit : missing) {
        out() << QStringLiteral("     NOT ENFORCED: %1 (asked for %2, found %3)%4\n")
                     .arg(limit.name, limit.requested, limit.found,
                          context.settings().allowUnenforcedLimits.contains(limit.name)
                              ? QStringLiteral(" - accepted by SANDBOX_ALLOW_UNENFORCED_LIMITS")
                              : QString());
    }
    out() << QStringLiteral("     why: %1\n").arg(ContainerStarter::whyNotEnforced(name, rootless, limits, missing));
}

/// The OCI runtimes `backend` offers and the one the sandboxes run under (`wanted`: the settings' runtime).
void reportRuntimes(ContainerBackend &backend, const QString &wanted)
{
    auto runtimes = backend.runtimes();
    if (!runtimes) {
        out() << QStringLiteral("     runtimes: not listed: %1\n").arg(runtimes.error().message);
        return;
    }
    QStringList names;
    for (const OciRuntime &runtime : *runtimes) {
        QString name = runtime.name.isEmpty() ? QStringLiteral("(none: the nodes' default)") : runtime.name;
        if (!runtime.handler.isEmpty() && runtime.handler != runtime.name) {
            name += QStringLiteral(" (%1)").arg(runtime.handler);
        }
        names << (runtime.isDefault ? name + QStringLiteral(" [default]") : name);
    }
    out() << QStringLiteral("     runtimes: %1\n").arg(names.join(QStringLiteral(", ")));
    auto chosen = backend.findRuntime(wanted);
    if (!chosen) {
        out() << QStringLiteral("     sandboxes run under: NOT AVAILABLE: %1\n").arg(chosen.error().message);
        return;
    }
    const QString name = chosen->name.isEmpty() ? QStringLiteral("the default runtime") : chosen->name;
    out() << QStringLiteral("     sandboxes run under: %1%2\n")
                 .arg(name, GVisorRuntime::isGVisor(*chosen)
                                ? QStringLiteral(" (%1)").arg(GVisorRuntime::description(*chosen))
                                : QString());
}

/// The namespace, the kubeconfig and each RBAC permission the kubernetes backend needs; false when one is denied.
bool reportKubernetes(KubernetesBackend &backend)
{
    out() << QStringLiteral("     namespace: %1 (%2)\n")
                 .arg(backend.settings().namespaceName, backend.client().config().source);
    auto permissions = backend.checkPermissions();
    if (!permissions) {
        out() << QStringLiteral("     permissions: not checked: %1\n").arg(permissions.error().message);
        return false;
    }
    bool allGranted = true;
    for (const KubernetesBackend::Permission &permission : *permissions) {
        allGranted = allGranted && (permission.allowed || permission.optional);
        const QString resource =
            permission.group.isEmpty() ? permission.resource : permission.resource + u'.' + permission.group;
        const QString reason = permission.reason.isEmpty() ? QString() : u' ' + permission.reason;
        out() << QStringLiteral("     permission %1 %2: %3\n")
                     .arg(permission.verb, -6)
                     .arg(resource, -9)
                     .arg(permission.allowed ? QStringLiteral("granted")
                          : permission.optional
                              ? QStringLiteral("denied%1 (only `ps` statistics need it; installer/kubernetes/role.yaml "
                                               "grants it)")
                                    .arg(reason)
                              : QStringLiteral("DENIED%1 (installer/kubernetes/role.yaml grants it)").arg(reason));
    }
    return allGranted;
}

} // namespace

int doctorCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Check the container backends and the sandbox images."));
    parser.addHelpOption();
    const QCommandLineOption backendOption =
        cli::backendOption(QStringLiteral("The backend that must be usable (default: $BACKEND, then docker)."));
    parser.addOption(backendOption);
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    auto context = AppContext::create({.source = QStringLiteral("cli"), .backendName = parser.value(backendOption)});
    if (!context) {
        out() << "settings: " << context.error().message << "\n";
        return exitStatusFor(context.error());
    }
    const QString selected = (*context)->defaultBackend();
    if (!BackendFactory::names().contains(selected)) {
        printError(QStringLiteral("unknown backend \"%1\"; choose one of: %2.")
                       .arg(selected, BackendFactory::names().join(QStringLiteral(", "))));
        return ExitUsage;
    }

    out() << "Backends:\n";
    std::shared_ptr<ContainerBackend> selectedBackend;
    bool permissionsGranted = true;
    for (const QString &name : BackendFactory::names()) {
        const QString marker = name == selected ? QStringLiteral("*") : QStringLiteral(" ");
        auto backend = (*context)->backend(name);
        if (!backend) {
            out() << QStringLiteral(" %1 %2 unavailable: %3\n").arg(marker, name, backend.error().message);
            continue;
        }
        auto info = (*backend)->probe();
        if (!info) {
            out() << QStringLiteral(" %1 %2 unreachable: %3\n").arg(marker, name, info.error().message);
            continue;
        }
        out() << QStringLiteral(" %1 %2 reachable: version %3, API %4, %5 at %6%7\n")
                     .arg(marker, name, info->version, info->apiVersion, info->os, info->endpoint,
                          info->rootless ? QStringLiteral(", rootless") : QStringLiteral(", rootful"));
        if (auto *kubernetes = dynamic_cast<KubernetesBackend *>(backend->get())) {
            const bool granted = reportKubernetes(*kubernetes);
            permissionsGranted = permissionsGranted && (granted || name != selected);
        }
        reportRuntimes(**backend, (*context)->settings().runtime);
        reportLimits(**context, name, **backend, info->rootless);
        if (name == selected) {
            selectedBackend = *backend;
        }
    }

    const QString runner = ImageCatalog::defaultRunnerPath();
    out() << "\nRunner: " << runner << (QFileInfo::exists(runner) ? " (present)" : " (MISSING)") << "\n";

    if (!selectedBackend) {
        out().flush();
        printError(QStringLiteral("the selected backend \"%1\" is not usable.").arg(selected));
        return ExitFailure;
    }
    out() << "\nImages in " << selected << ":\n";
    const ImageCatalog catalog = (*context)->catalog();
    for (const Language &language : LanguageRegistry::instance().languages()) {
        auto image = catalog.runImage(language);
        if (!image) {
            out() << QStringLiteral("   %1 %2\n").arg(language.name, -11).arg(image.error().message);
            continue;
        }
        if (auto *kubernetes = dynamic_cast<KubernetesBackend *>(selectedBackend.get())) {
            // A cluster has no image store to ask: its nodes pull the reference when a pod starts.
            out() << QStringLiteral("   %1 %2 pulled by the cluster\n")
                         .arg(language.name, -11)
                         .arg(kubernetes->settings().podImage(*image), -40);
            continue;
        }
        auto present = selectedBackend->hasImage(*image);
        out() << QStringLiteral("   %1 %2 %3\n")
                     .arg(language.name, -11)
                     .arg(*image, -40)
                     .arg(!present   ? present.error().message
                          : *present ? QStringLiteral("present")
                                     : QStringLiteral("missing (llm-sandbox images build %1)").arg(language.name));
    }
    out().flush();
    return QFileInfo::exists(runner) && permissionsGranted ? 0 : ExitFailure;
}

} // namespace sandbox::cli
