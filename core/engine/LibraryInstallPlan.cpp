#include "engine/LibraryInstallPlan.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QUrl>

namespace sandbox {

namespace {

constexpr qint64 kMaxOfflineBytes = 256LL * 1024 * 1024;

QString libraryBaseName(const QString &library)
{
    // "pkg==1.0", "pkg@1.0", "pkg:1.0", "pkg[extra]" -> "pkg"
    static const QRegularExpression suffix(QStringLiteral("(\\[|==|>=|<=|~=|!=|<|>|@(?!.*/)|:).*$"));
    QString name = library;
    if (name.startsWith(QLatin1Char('@'))) { // npm scope
        const int at = int(name.indexOf(QLatin1Char('@'), 1));
        return at > 0 ? name.left(at) : name;
    }
    return name.remove(suffix);
}

} // namespace

Result<void> LibraryInstallPlan::moveLoginToProxy(QString &registry, QString &login, bool &tls)
{
    QUrl url(registry);
    if (url.userInfo().isEmpty() || url.scheme() == QLatin1String("file")) {
        return {};
    }
    const QString user = url.userName(QUrl::FullyDecoded);
    const QString password = url.password(QUrl::FullyDecoded);
    if (user.contains(u':')) {
        // HTTP Basic cannot carry it.
        return Error{QStringLiteral("The user name in the registry address has a colon."), ErrorCode::BadRequest};
    }
    login = user + u':' + password;
    tls = url.scheme() == QLatin1String("https");
    url.setUserInfo({});
    url.setPort(url.port(tls ? 443 : 80));
    url.setScheme(QStringLiteral("http"));
    registry = url.toString();
    return {};
}

Result<LibraryInstallPlan> LibraryInstallPlan::make(const Language &language, const QStringList &libraries,
                                                    const QString &workdir,
                                                    const std::function<QString(const char *)> &variable)
{
    const auto read = [&](const QString &name) {
        return variable ? variable(name.toLatin1().constData()) : qEnvironmentVariable(name.toLatin1().constData());
    };
    const LibraryInstaller &installer = language.libraries;
    if (!installer.isSupported()) {
        return Error{QStringLiteral("Installing %1 libraries is not supported yet; the sandbox has: %2.")
                         .arg(language.displayName, language.preinstalledLibraries.join(QStringLiteral(", "))),
                     ErrorCode::BadRequest};
    }
    const QRegularExpression pattern(installer.namePattern);
    for (const QString &library : libraries) {
        if (library.size() > 200 || !pattern.match(library).hasMatch()) {
            return Error{QStringLiteral("\"%1\" is not a valid %2 library name for %3; nothing was run.")
                             .arg(library, language.packageManager, language.displayName),
                         ErrorCode::BadRequest};
        }
    }

    LibraryInstallPlan plan;
    QString registry = installer.registryDefault;
    for (const QString &name : installer.registryVariables) {
        if (const QString value = read(name); !value.isEmpty()) {
            registry = value;
            break;
        }
    }
    static const QRegularExpression registryPattern(QStringLiteral(R"(^(https?|file)://[^\s'"\\]+$)"));
    if (!registryPattern.match(registry).hasMatch()) {
        return Error{QStringLiteral("The %1 source \"%2\" is not an http(s):// or file:// address.")
                         .arg(language.packageManager, registry),
                     ErrorCode::BadRequest};
    }
    QString login;
    bool loginTls = false;
    if (auto moved = moveLoginToProxy(registry, login, loginTls); !moved) {
        return moved.error();
    }

    const QString offlineHost = installer.offlineVariable.isEmpty() ? QString() : read(installer.offlineVariable);
    const QString offlineInSandbox = workdir + QLatin1Char('/') + offlineFolder();
    QStringList files;
    if (!offlineHost.isEmpty()) {
        const QDir folder(offlineHost);
        if (!folder.exists()) {
            return Error{
                QStringLiteral("%1 names %2, which is not a folder.").arg(installer.offlineVariable, offlineHost),
                ErrorCode::BadRequest};
        }
        qint64 total = 0;
        QDirIterator it(offlineHost, QDir::Files | QDir::NoSymLinks, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            total += file.size();
            if (total > kMaxOfflineBytes || !file.open(QIODevice::ReadOnly)) {
                return Error{QStringLiteral("The offline folder %1 is too large or unreadable (at %2).")
                                 .arg(offlineHost, file.fileName()),
                             ErrorCode::BadRequest};
            }
            plan.offlineFiles.append(FileEntry{
                offlineFolder() + QLatin1Char('/') + folder.relativeFilePath(file.fileName()), file.readAll(), 0644});
        }
        for (const QString &library : libraries) {
            const QString base = libraryBaseName(library);
            QString match;
            for (const FileEntry &file : plan.offlineFiles) {
                const QString fileName = file.path.section(QLatin1Char('/'), -1);
                if (fileName.startsWith(base + QLatin1Char('-')) || fileName.startsWith(base + QLatin1Char('_'))) {
                    match = workdir + QLatin1Char('/') + file.path;
                    break;
                }
            }
            files << match;
        }
        plan.needsNetwork = false;
        registry = QStringLiteral("file://") + offlineInSandbox;
    }

    const QStringList &command = offlineHost.isEmpty() ? installer.command : installer.offlineCommand;
    for (const QString &arg : command) {
        if (arg == QLatin1String("{libs}")) {
            plan.argv << libraries;
        } else if (arg == QLatin1String("{files}")) {
            const qsizetype missing = files.indexOf(QString());
            if (missing >= 0) {
                return Error{QStringLiteral("The offline folder %1 has no package for \"%2\".")
                                 .arg(offlineHost, libraries.value(missing)),
                             ErrorCode::BadRequest};
            }
            plan.argv << files;
        } else {
            plan.argv << QString(arg)
                             .replace(QStringLiteral("{registry}"), registry)
                             .replace(QStringLiteral("{offline}"), offlineInSandbox);
        }
    }
    // The install step trusts the certificate authorities the host trusts (a TLS-inspecting
    // proxy's CA, for example): LLM_SANDBOX_CA_BUNDLE, else the host's system bundle.
    QString caBundle = read(QStringLiteral("LLM_SANDBOX_CA_BUNDLE"));
    if (caBundle.isEmpty() && QFile::exists(QStringLiteral("/etc/ssl/certs/ca-certificates.crt"))) {
        caBundle = QStringLiteral("/etc/ssl/certs/ca-certificates.crt");
    }
    if (!caBundle.isEmpty() && plan.needsNetwork) {
        QFile bundle(caBundle);
        if (!bundle.open(QIODevice::ReadOnly) || bundle.size() > 16 * 1024 * 1024) {
            return Error{QStringLiteral("Cannot read the CA bundle %1 (LLM_SANDBOX_CA_BUNDLE).").arg(caBundle),
                         ErrorCode::BadRequest};
        }
        const QString inSandbox = workdir + QLatin1Char('/') + caBundleFile();
        plan.trustedCertificates = bundle.readAll();
        plan.offlineFiles.append(FileEntry{caBundleFile(), plan.trustedCertificates, 0644});
        for (const char *name : {"SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "PIP_CERT", "REQUESTS_CA_BUNDLE",
                                 "CURL_CA_BUNDLE", "GIT_SSL_CAINFO"}) {
            plan.environment.insert(QString::fromLatin1(name), inSandbox);
        }
    }
    for (auto it = installer.environment.begin(); it != installer.environment.end(); ++it) {
        plan.environment.insert(it.key(), QString(it.value())
                                              .replace(QStringLiteral("{registry}"), registry)
                                              .replace(QStringLiteral("{offline}"), offlineInSandbox));
    }
    if (const QUrl url(registry); plan.needsNetwork && !url.host().isEmpty()) {
        const bool configured = registry != installer.registryDefault;
        const int port = url.port(url.scheme() == QLatin1String("http") ? 80 : 443);
        plan.egress.append(EgressRule{url.host(), port, configured, login, loginTls});
        if (!configured) {
            for (const QString &host : installer.registryHosts) {
                plan.egress.append(EgressRule{host, port, false});
            }
        }
    }
    if (registry.startsWith(QLatin1String("http://"))) {
        const QString host = QUrl(registry).host();
        for (auto it = installer.plainHttpEnvironment.begin(); it != installer.plainHttpEnvironment.end(); ++it) {
            plan.environment.insert(it.key(), QString(it.value()).replace(QStringLiteral("{registryHost}"), host));
        }
    }
    return plan;
}

} // namespace sandbox
