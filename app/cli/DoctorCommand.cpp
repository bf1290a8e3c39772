#include "cli/DoctorCommand.h"

#include "AppContext.h"
#include "backend/BackendFactory.h"
#include "backend/kubernetes/KubernetesBackend.h"
#include "cli/CliContext.h"
#include "engine/BackendDiagnosis.h"
#include "images/ImageCatalog.h"
#include "lang/LanguageRegistry.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace sandbox::cli {

namespace {

/// The limits the diagnosis found in force, and those of the settings that are not.
void reportLimits(const BackendDiagnosis &diagnosis, const SandboxSettings &settings)
{
    if (!diagnosis.limits) {
        out() << QStringLiteral("     limits: not checked (%1)\n").arg(diagnosis.limitsNotChecked);
        return;
    }
    out() << QStringLiteral("     limits: %1, cgroup v%2\n")
                 .arg(diagnosis.info.rootless ? QStringLiteral("rootless") : QStringLiteral("rootful"))
                 .arg(diagnosis.limits->cgroupVersion);
    if (!diagnosis.runtimeNote.isEmpty()) {
        out() << QStringLiteral("     %1\n").arg(diagnosis.runtimeNote);
    }
    if (diagnosis.unenforced.isEmpty()) {
        out() << (diagnosis.runtimeNote.isEmpty() ? "     limits: every requested limit is in force\n"
                                                  : "     limits: every other requested limit is in force\n");
        return;
    }
    for (const UnenforcedLimit &limit : diagnosis.unenforced) {
        out() << QStringLiteral("     NOT ENFORCED: %1 (asked for %2, found %3)%4\n")
                     .arg(limit.name, limit.requested, limit.found,
                          settings.allowUnenforcedLimits.contains(limit.name)
                              ? QStringLiteral(" - accepted by SANDBOX_ALLOW_UNENFORCED_LIMITS")
                              : QString());
    }
    out() << QStringLiteral("     why: %1\n").arg(diagnosis.whyNotEnforced);
}

/// The namespace, the kubeconfig and each RBAC permission the kubernetes backend needs.
void reportKubernetes(const BackendDiagnosis &diagnosis)
{
    out() << QStringLiteral("     namespace: %1 (%2)\n")
                 .arg(diagnosis.kubernetesNamespace, diagnosis.kubernetesConfigSource);
    const auto &permissions = *diagnosis.permissions;
    if (!permissions) {
        out() << QStringLiteral("     permissions: not checked: %1\n").arg(permissions.error().message);
        return;
    }
    for (const KubernetesBackend::Permission &permission : *permissions) {
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
    const ImageCatalog catalog = (*context)->catalog();
    for (const QString &name : BackendFactory::names()) {
        const QString marker = name == selected ? QStringLiteral("*") : QStringLiteral(" ");
        auto backend = (*context)->backend(name);
        const BackendDiagnosis diagnosis = BackendDiagnosis::run(name, backend, (*context)->settings(), catalog);
        out() << QStringLiteral(" %1 %2 %3\n").arg(marker, name, diagnosis.summary());
        if (diagnosis.state != BackendDiagnosis::State::Reachable) {
            continue;
        }
        if (diagnosis.permissions) {
            reportKubernetes(diagnosis);
            permissionsGranted = permissionsGranted && (diagnosis.permissionsGranted() || name != selected);
        }
        out() << QStringLiteral("     runtimes: %1\n").arg(diagnosis.runtimeList());
        out() << QStringLiteral("     sandboxes run under: %1\n").arg(diagnosis.sandboxRuntimeText());
        reportLimits(diagnosis, (*context)->settings());
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
