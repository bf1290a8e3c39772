#include "cli/DoctorCommand.h"

#include "AppContext.h"
#include "DiagnosisText.h"
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

class DoctorCommand final
{
    Q_DECLARE_TR_FUNCTIONS(DoctorCommand)
};

/// Writes one of the report's lines: indented by `indent` spaces, ended by a line break.
void line(int indent, const QString &text)
{
    out() << QString(indent, QLatin1Char(' ')) << text << '\n';
}

/// The limits the diagnosis found in force, and those of the settings that are not.
void reportLimits(const BackendDiagnosis &diagnosis, const SandboxSettings &settings)
{
    if (!diagnosis.limits) {
        line(5, DoctorCommand::tr("limits: not checked (%1)").arg(diagnosis.limitsNotChecked));
        return;
    }
    line(5, DoctorCommand::tr("limits: %1, cgroup v%2")
                .arg(diagnosis.info.rootless ? DoctorCommand::tr("rootless") : DoctorCommand::tr("rootful"))
                .arg(diagnosis.limits->cgroupVersion));
    if (!diagnosis.runtimeNote.isEmpty()) {
        line(5, diagnosis.runtimeNote);
    }
    if (diagnosis.unenforced.isEmpty()) {
        line(5, diagnosis.runtimeNote.isEmpty() ? DoctorCommand::tr("limits: every requested limit is in force")
                                                : DoctorCommand::tr("limits: every other requested limit is in force"));
        return;
    }
    for (const UnenforcedLimit &limit : diagnosis.unenforced) {
        line(5, (settings.allowUnenforcedLimits.contains(limit.name)
                     ? DoctorCommand::tr("NOT ENFORCED: %1 (asked for %2, found %3) - accepted by "
                                         "SANDBOX_ALLOW_UNENFORCED_LIMITS")
                     : DoctorCommand::tr("NOT ENFORCED: %1 (asked for %2, found %3)"))
                    .arg(limit.name, limit.requested, limit.found));
    }
    line(5, DoctorCommand::tr("why: %1").arg(diagnosis.whyNotEnforced));
}

/// The namespace, the kubeconfig and each RBAC permission the kubernetes backend needs.
void reportKubernetes(const BackendDiagnosis &diagnosis)
{
    line(5,
         DoctorCommand::tr("namespace: %1 (%2)").arg(diagnosis.kubernetesNamespace, diagnosis.kubernetesConfigSource));
    const auto &permissions = *diagnosis.permissions;
    if (!permissions) {
        line(5, DoctorCommand::tr("permissions: not checked: %1").arg(permissions.error().message));
        return;
    }
    for (const KubernetesBackend::Permission &permission : *permissions) {
        const QString resource =
            permission.group.isEmpty() ? permission.resource : permission.resource + u'.' + permission.group;
        const QString reason = permission.reason.isEmpty() ? QString() : u' ' + permission.reason;
        line(5,
             DoctorCommand::tr("permission %1 %2: %3")
                 .arg(permission.verb, -6)
                 .arg(resource, -9)
                 .arg(permission.allowed ? DoctorCommand::tr("granted")
                      : permission.optional
                          ? DoctorCommand::tr("denied%1 (only `ps` statistics need it; installer/kubernetes/role.yaml "
                                              "grants it)")
                                .arg(reason)
                          : DoctorCommand::tr("DENIED%1 (installer/kubernetes/role.yaml grants it)").arg(reason)));
    }
}

} // namespace

int doctorCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(DoctorCommand::tr("Check the container backends and the sandbox images."));
    parser.addHelpOption();
    const QCommandLineOption backendOption =
        cli::backendOption(DoctorCommand::tr("The backend that must be usable (default: $BACKEND, then docker)."));
    parser.addOption(backendOption);
    if (const std::optional<int> done = parseOrExit(parser, arguments)) {
        return *done;
    }
    auto context = AppContext::create({.source = RunSource::Cli, .backendName = parser.value(backendOption)});
    if (!context) {
        line(0, DoctorCommand::tr("settings: %1").arg(context.error().message));
        return exitStatusFor(context.error());
    }
    const QString selected = (*context)->defaultBackend();
    if (!BackendFactory::names().contains(selected)) {
        printError(DoctorCommand::tr("unknown backend \"%1\"; choose one of: %2.")
                       .arg(selected, BackendFactory::names().join(QStringLiteral(", "))));
        return ExitUsage;
    }

    line(0, DoctorCommand::tr("Backends:"));
    std::shared_ptr<ContainerBackend> selectedBackend;
    bool permissionsGranted = true;
    const ImageCatalog catalog = (*context)->catalog();
    for (const QString &name : BackendFactory::names()) {
        const QString marker = name == selected ? QStringLiteral("*") : QStringLiteral(" ");
        auto backend = (*context)->backend(name);
        const BackendDiagnosis diagnosis = BackendDiagnosis::run(name, backend, (*context)->settings(), catalog);
        out() << QStringLiteral(" %1 %2 %3\n").arg(marker, name, diagnosisSummary(diagnosis));
        if (diagnosis.state != BackendDiagnosis::State::Reachable) {
            continue;
        }
        if (diagnosis.permissions) {
            reportKubernetes(diagnosis);
            permissionsGranted = permissionsGranted && (diagnosis.permissionsGranted() || name != selected);
        }
        line(5, DoctorCommand::tr("runtimes: %1").arg(diagnosis.runtimeList()));
        line(5, DoctorCommand::tr("sandboxes run under: %1").arg(diagnosis.sandboxRuntimeText()));
        reportLimits(diagnosis, (*context)->settings());
        if (name == selected) {
            selectedBackend = *backend;
        }
    }

    const QString runner = ImageCatalog::defaultRunnerPath();
    out() << '\n';
    line(0, (QFileInfo::exists(runner) ? DoctorCommand::tr("Runner: %1 (present)")
                                       : DoctorCommand::tr("Runner: %1 (MISSING)"))
                .arg(runner));

    if (!selectedBackend) {
        out().flush();
        printError(DoctorCommand::tr("the selected backend \"%1\" is not usable.").arg(selected));
        return ExitFailure;
    }
    out() << '\n';
    line(0, DoctorCommand::tr("Images in %1:").arg(selected));
    for (const Language &language : LanguageRegistry::instance().languages()) {
        auto image = catalog.runImage(language);
        if (!image) {
            line(3, QStringLiteral("%1 %2").arg(language.name, -11).arg(image.error().message));
            continue;
        }
        if (auto *kubernetes = dynamic_cast<KubernetesBackend *>(selectedBackend.get())) {
            // A cluster has no image store to ask: its nodes pull the reference when a pod starts.
            line(3, DoctorCommand::tr("%1 %2 pulled by the cluster")
                        .arg(language.name, -11)
                        .arg(kubernetes->settings().podImage(*image), -40));
            continue;
        }
        ImageStore *store = selectedBackend->imageStore();
        auto present = store ? store->hasImage(*image) : Result<bool>(selectedBackend->noImageStore(*image));
        line(3, QStringLiteral("%1 %2 %3")
                    .arg(language.name, -11)
                    .arg(*image, -40)
                    .arg(!present   ? present.error().message
                         : *present ? DoctorCommand::tr("present")
                                    : DoctorCommand::tr("missing (llm-sandbox images build %1)").arg(language.name)));
    }
    out().flush();
    return QFileInfo::exists(runner) && permissionsGranted ? 0 : ExitFailure;
}

} // namespace sandbox::cli
