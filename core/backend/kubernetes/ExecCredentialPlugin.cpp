#include "backend/kubernetes/ExecCredentialPlugin.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>

namespace sandbox {

namespace {

constexpr int kPluginTimeoutMs = 120 * 1000;

} // namespace

ExecCredentialPlugin::ExecCredentialPlugin(KubeExecConfig config, QString server)
    : m_config(std::move(config)), m_server(std::move(server))
{}

void ExecCredentialPlugin::invalidate()
{
    std::lock_guard lock(m_mutex);
    m_cached.reset();
}

Result<KubeCredentials> ExecCredentialPlugin::credentials()
{
    std::lock_guard lock(m_mutex);
    if (m_cached && (!m_expires.isValid() || QDateTime::currentDateTimeUtc() < m_expires)) {
        return *m_cached;
    }
    auto fresh = run();
    if (fresh) {
        m_cached = *fresh;
    }
    return fresh;
}

Result<KubeCredentials> ExecCredentialPlugin::run()
{
    const QString plugin = QStringLiteral("The kubeconfig's exec credential plugin %1").arg(m_config.command);
    if (m_config.interactiveMode == QLatin1String("Always")) {
        return Error{QStringLiteral("%1 needs a terminal (interactiveMode Always), and llm-sandbox runs without one: "
                                    "log in with kubectl first or use a non-interactive plugin.")
                         .arg(plugin),
                     ErrorCode::BadRequest};
    }
    QJsonObject spec{{QStringLiteral("interactive"), false}};
    if (m_config.provideClusterInfo) {
        spec.insert(QStringLiteral("cluster"), QJsonObject{{QStringLiteral("server"), m_server}});
    }
    const QJsonObject execInfo{{QStringLiteral("apiVersion"), m_config.apiVersion},
                               {QStringLiteral("kind"), QStringLiteral("ExecCredential")},
                               {QStringLiteral("spec"), spec}};
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const auto &[name, value] : m_config.env) {
        environment.insert(name, value);
    }
    environment.insert(QStringLiteral("KUBERNETES_EXEC_INFO"),
                       QString::fromUtf8(QJsonDocument(execInfo).toJson(QJsonDocument::Compact)));

    QProcess process;
    process.setProcessEnvironment(environment);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(m_config.command, m_config.args);
    if (!process.waitForStarted()) {
        QString message = QStringLiteral("%1 could not be started: %2.").arg(plugin, process.errorString());
        if (!m_config.installHint.isEmpty()) {
            message += u' ' + m_config.installHint.trimmed();
        }
        return Error{message, ErrorCode::BadRequest};
    }
    if (!process.waitForFinished(kPluginTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        return Error{QStringLiteral("%1 did not finish within %2 seconds.").arg(plugin).arg(kPluginTimeoutMs / 1000),
                     ErrorCode::EngineFailed};
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        return Error{QStringLiteral("%1 failed (exit code %2): %3")
                         .arg(plugin)
                         .arg(process.exitCode())
                         .arg(QString::fromUtf8(process.readAllStandardError().trimmed().right(1000))),
                     ErrorCode::EngineFailed};
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(process.readAllStandardOutput(), &parseError);
    const QJsonObject credential = document.object();
    if (parseError.error != QJsonParseError::NoError || !document.isObject() ||
        credential.value(QStringLiteral("kind")).toString() != QLatin1String("ExecCredential")) {
        return Error{QStringLiteral("%1 printed no ExecCredential (JSON with kind ExecCredential).").arg(plugin),
                     ErrorCode::EngineFailed};
    }
    if (credential.value(QStringLiteral("apiVersion")).toString() != m_config.apiVersion) {
        return Error{QStringLiteral("%1 answered with apiVersion \"%2\"; the kubeconfig asked for %3.")
                         .arg(plugin, credential.value(QStringLiteral("apiVersion")).toString(), m_config.apiVersion),
                     ErrorCode::EngineFailed};
    }
    const QJsonObject status = credential.value(QStringLiteral("status")).toObject();
    KubeCredentials credentials;
    credentials.token = status.value(QStringLiteral("token")).toString();
    credentials.clientCertPem = status.value(QStringLiteral("clientCertificateData")).toString().toUtf8();
    credentials.clientKeyPem = status.value(QStringLiteral("clientKeyData")).toString().toUtf8();
    if (credentials.token.isEmpty() && (credentials.clientCertPem.isEmpty() || credentials.clientKeyPem.isEmpty())) {
        return Error{QStringLiteral("%1 returned neither a token nor a client certificate and key.").arg(plugin),
                     ErrorCode::EngineFailed};
    }
    m_expires = {};
    if (const QString expiry = status.value(QStringLiteral("expirationTimestamp")).toString(); !expiry.isEmpty()) {
        m_expires = QDateTime::fromString(expiry, Qt::ISODate);
        if (!m_expires.isValid()) {
            return Error{QStringLiteral("%1 returned an expirationTimestamp that is not RFC 3339: %2.")
                             .arg(plugin, expiry.left(60)),
                         ErrorCode::EngineFailed};
        }
    }
    return credentials;
}

} // namespace sandbox
