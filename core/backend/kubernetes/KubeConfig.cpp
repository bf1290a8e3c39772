#include "backend/kubernetes/KubeConfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <yaml-cpp/yaml.h>

namespace sandbox {

namespace {

/// A named entry (cluster, user, context) and the file it came from, for relative paths and messages.
struct Entry
{
    YAML::Node node;
    QString file;
};

QString text(const YAML::Node &node)
{
    return node && node.IsScalar() ? QString::fromStdString(node.Scalar()) : QString();
}

bool flag(const YAML::Node &node)
{
    const QString value = text(node).toLower();
    return value == QLatin1String("true") || value == QLatin1String("yes") || value == QLatin1String("on");
}

QString resolvedPath(const QString &path, const QString &file)
{
    if (path.isEmpty() || QDir::isAbsolutePath(path)) {
        return path;
    }
    return QDir::cleanPath(QFileInfo(file).absoluteDir().filePath(path));
}

/// The bytes of `field`-data (base64) or of the file `field` names; empty when neither is set.
Result<QByteArray> dataOrFile(const YAML::Node &node, const char *field, const QString &file, const QString &owner)
{
    const std::string dataKey = std::string(field) + "-data";
    if (const QString data = text(node[dataKey]); !data.isEmpty()) {
        auto decoded = QByteArray::fromBase64Encoding(data.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded) {
            return Error{
                QStringLiteral("%1 in %2: %3 is not valid base64.").arg(owner, file, QString::fromStdString(dataKey)),
                ErrorCode::BadRequest};
        }
        return *decoded;
    }
    const QString path = resolvedPath(text(node[field]), file);
    if (path.isEmpty()) {
        return QByteArray();
    }
    QFile input(path);
    if (!input.open(QIODevice::ReadOnly)) {
        return Error{QStringLiteral("%1 in %2: cannot read %3 %4: %5.")
                         .arg(owner, file, QString::fromLatin1(field), path, input.errorString()),
                     ErrorCode::BadRequest};
    }
    return input.readAll();
}

Result<QByteArray> readFile(const QString &path, const QString &what)
{
    QFile input(path);
    if (!input.open(QIODevice::ReadOnly)) {
        return Error{QStringLiteral("Cannot read %1 %2: %3.").arg(what, path, input.errorString()),
                     ErrorCode::BadRequest};
    }
    return input.readAll();
}

/// Adds the named entries of `list` (clusters, users, contexts) that no earlier file set.
Result<void> addEntries(const YAML::Node &list, const char *kind, const char *field, const QString &file,
                        QHash<QString, Entry> &entries)
{
    if (!list || list.IsNull()) {
        return {};
    }
    if (!list.IsSequence()) {
        return Error{QStringLiteral("%1: \"%2\" must be a list.").arg(file, QString::fromLatin1(kind)),
                     ErrorCode::BadRequest};
    }
    for (const YAML::Node &item : list) {
        const QString name = text(item["name"]);
        if (!item.IsMap() || name.isEmpty()) {
            return Error{QStringLiteral("%1: an entry of \"%2\" has no name.").arg(file, QString::fromLatin1(kind)),
                         ErrorCode::BadRequest};
        }
        if (!entries.contains(name)) {
            entries.insert(name, Entry{item[field], file});
        }
    }
    return {};
}

Result<KubeExecConfig> execConfig(const YAML::Node &exec, const QString &file, const QString &owner)
{
    KubeExecConfig config;
    config.apiVersion = text(exec["apiVersion"]);
    config.command = text(exec["command"]);
    config.interactiveMode = text(exec["interactiveMode"]);
    config.installHint = text(exec["installHint"]);
    config.provideClusterInfo = flag(exec["provideClusterInfo"]);
    if (config.command.isEmpty()) {
        return Error{QStringLiteral("%1 in %2: exec has no command.").arg(owner, file), ErrorCode::BadRequest};
    }
    // kubectl resolves the command against the file's directory only when it is a path, not a name to find on PATH.
    if (config.command.contains(QLatin1Char('/'))) {
        config.command = resolvedPath(config.command, file);
    }
    if (config.apiVersion != QLatin1String("client.authentication.k8s.io/v1") &&
        config.apiVersion != QLatin1String("client.authentication.k8s.io/v1beta1")) {
        return Error{QStringLiteral("%1 in %2: exec apiVersion \"%3\" is not supported (use "
                                    "client.authentication.k8s.io/v1).")
                         .arg(owner, file, config.apiVersion),
                     ErrorCode::BadRequest};
    }
    if (config.apiVersion.endsWith(QLatin1String("/v1")) && config.interactiveMode.isEmpty()) {
        return Error{QStringLiteral("%1 in %2: exec with client.authentication.k8s.io/v1 must set interactiveMode.")
                         .arg(owner, file),
                     ErrorCode::BadRequest};
    }
    if (const YAML::Node args = exec["args"]; args && args.IsSequence()) {
        for (const YAML::Node &arg : args) {
            config.args << text(arg);
        }
    }
    if (const YAML::Node env = exec["env"]; env && env.IsSequence()) {
        for (const YAML::Node &variable : env) {
            config.env.append({text(variable["name"]), text(variable["value"])});
        }
    }
    return config;
}

} // namespace

Result<KubeConfig> KubeConfig::fromFiles(const QStringList &paths, const QString &context)
{
    QHash<QString, Entry> clusters;
    QHash<QString, Entry> users;
    QHash<QString, Entry> contexts;
    QString currentContext;
    QStringList loaded;
    for (const QString &path : paths) {
        if (path.isEmpty() || !QFileInfo::exists(path)) {
            continue;
        }
        const QString file = QFileInfo(path).absoluteFilePath();
        auto content = readFile(file, QStringLiteral("the kubeconfig"));
        if (!content) {
            return content.error();
        }
        YAML::Node root;
        try {
            root = YAML::Load(content->toStdString());
        } catch (const YAML::Exception &error) {
            return Error{QStringLiteral("%1 is not valid YAML (line %2, column %3: %4).")
                             .arg(file)
                             .arg(error.mark.line + 1)
                             .arg(error.mark.column + 1)
                             .arg(QString::fromStdString(error.msg)),
                         ErrorCode::BadRequest};
        }
        if (root.IsNull()) {
            continue; // kubectl accepts an empty file
        }
        if (!root.IsMap()) {
            return Error{
                QStringLiteral("%1 is not a kubeconfig (expected a mapping with clusters, users and contexts).")
                    .arg(file),
                ErrorCode::BadRequest};
        }
        loaded << file;
        for (auto added : {addEntries(root["clusters"], "clusters", "cluster", file, clusters),
                           addEntries(root["users"], "users", "user", file, users),
                           addEntries(root["contexts"], "contexts", "context", file, contexts)}) {
            if (!added) {
                return added.error();
            }
        }
        if (currentContext.isEmpty()) {
            currentContext = text(root["current-context"]);
        }
    }
    if (loaded.isEmpty()) {
        return Error{QStringLiteral("No kubeconfig found (looked for %1). Set KUBECONFIG or create ~/.kube/config.")
                         .arg(paths.join(QStringLiteral(", "))),
                     ErrorCode::BadRequest};
    }
    const QString where = loaded.join(QStringLiteral(", "));
    const QString chosen = context.isEmpty() ? currentContext : context;
    if (chosen.isEmpty()) {
        return Error{QStringLiteral("%1 has no current-context: choose one with `kubectl config use-context NAME` or "
                                    "LLM_SANDBOX_KUBE_CONTEXT.")
                         .arg(where),
                     ErrorCode::BadRequest};
    }
    if (!contexts.contains(chosen)) {
        QStringList names = contexts.keys();
        names.sort();
        return Error{
            QStringLiteral("Context \"%1\" is not in %2 (contexts: %3).")
                .arg(chosen, where, names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "))),
            ErrorCode::BadRequest};
    }
    const Entry contextEntry = contexts.value(chosen);
    const QString clusterName = text(contextEntry.node["cluster"]);
    const QString userName = text(contextEntry.node["user"]);
    if (!clusters.contains(clusterName)) {
        return Error{
            QStringLiteral("Context \"%1\" names cluster \"%2\", which is not in %3.").arg(chosen, clusterName, where),
            ErrorCode::BadRequest};
    }

    KubeConfig config;
    config.source = QStringLiteral("%1, context %2").arg(where, chosen);
    config.contextName = chosen;
    config.namespaceName = text(contextEntry.node["namespace"]);

    const Entry cluster = clusters.value(clusterName);
    const QString clusterOwner = QStringLiteral("Cluster \"%1\"").arg(clusterName);
    config.server = text(cluster.node["server"]);
    if (config.server.isEmpty()) {
        return Error{QStringLiteral("%1 in %2 has no server.").arg(clusterOwner, cluster.file), ErrorCode::BadRequest};
    }
    while (config.server.endsWith(QLatin1Char('/'))) {
        config.server.chop(1);
    }
    config.insecureSkipTlsVerify = flag(cluster.node["insecure-skip-tls-verify"]);
    auto ca = dataOrFile(cluster.node, "certificate-authority", cluster.file, clusterOwner);
    if (!ca) {
        return ca.error();
    }
    config.caPem = *ca;

    if (userName.isEmpty()) {
        return config;
    }
    if (!users.contains(userName)) {
        return Error{
            QStringLiteral("Context \"%1\" names user \"%2\", which is not in %3.").arg(chosen, userName, where),
            ErrorCode::BadRequest};
    }
    const Entry user = users.value(userName);
    const QString userOwner = QStringLiteral("User \"%1\"").arg(userName);
    if (user.node["auth-provider"]) {
        return Error{QStringLiteral("%1 in %2 uses an auth-provider, which kubectl no longer supports either: use an "
                                    "exec credential plugin.")
                         .arg(userOwner, user.file),
                     ErrorCode::BadRequest};
    }
    auto cert = dataOrFile(user.node, "client-certificate", user.file, userOwner);
    if (!cert) {
        return cert.error();
    }
    auto key = dataOrFile(user.node, "client-key", user.file, userOwner);
    if (!key) {
        return key.error();
    }
    if (cert->isEmpty() != key->isEmpty()) {
        return Error{QStringLiteral("%1 in %2 has a client certificate without its key (or a key without its "
                                    "certificate).")
                         .arg(userOwner, user.file),
                     ErrorCode::BadRequest};
    }
    config.clientCertPem = *cert;
    config.clientKeyPem = *key;
    config.token = text(user.node["token"]);
    config.tokenFile = resolvedPath(text(user.node["tokenFile"]), user.file);
    if (const YAML::Node exec = user.node["exec"]; exec && exec.IsMap()) {
        auto plugin = execConfig(exec, user.file, userOwner);
        if (!plugin) {
            return plugin.error();
        }
        config.exec = *plugin;
    }
    return config;
}

Result<KubeConfig> KubeConfig::inCluster(const QString &root, const QString &host, const QString &port)
{
    if (host.isEmpty() || port.isEmpty()) {
        return Error{QStringLiteral("Not running in a Kubernetes pod: KUBERNETES_SERVICE_HOST and "
                                    "KUBERNETES_SERVICE_PORT are not set."),
                     ErrorCode::BadRequest};
    }
    KubeConfig config;
    config.source = QStringLiteral("in-cluster service account (%1)").arg(root);
    // An IPv6 service address needs brackets in a URL.
    config.server =
        QStringLiteral("https://%1:%2").arg(host.contains(QLatin1Char(':')) ? u'[' + host + u']' : host, port);
    config.tokenFile = QDir(root).filePath(QStringLiteral("token"));
    if (!QFileInfo::exists(config.tokenFile)) {
        return Error{QStringLiteral("In-cluster configuration: no service account token at %1 (is "
                                    "automountServiceAccountToken off for this pod?).")
                         .arg(config.tokenFile),
                     ErrorCode::BadRequest};
    }
    auto ca = readFile(QDir(root).filePath(QStringLiteral("ca.crt")), QStringLiteral("the service account's CA"));
    if (!ca) {
        return ca.error();
    }
    config.caPem = *ca;
    if (QFile ns(QDir(root).filePath(QStringLiteral("namespace"))); ns.open(QIODevice::ReadOnly)) {
        config.namespaceName = QString::fromUtf8(ns.readAll()).trimmed();
    }
    return config;
}

Result<KubeConfig> KubeConfig::fromEnvironment(const QString &context, const QString &inClusterRoot)
{
    const QString variable = qEnvironmentVariable("KUBECONFIG");
    if (!variable.isEmpty()) {
        return fromFiles(variable.split(QLatin1Char(':'), Qt::SkipEmptyParts), context);
    }
    const QString home = QDir::home().filePath(QStringLiteral(".kube/config"));
    if (QFileInfo::exists(home) || qEnvironmentVariableIsEmpty("KUBERNETES_SERVICE_HOST")) {
        return fromFiles({home}, context);
    }
    return inCluster(inClusterRoot, qEnvironmentVariable("KUBERNETES_SERVICE_HOST"),
                     qEnvironmentVariable("KUBERNETES_SERVICE_PORT"));
}

} // namespace sandbox
