#include "assistants/McpServerEntry.h"

#include "backend/BackendFactory.h"

#include <QDir>
#include <QUrl>

namespace sandbox {

namespace {

/// What each backend reads from the environment besides BACKEND (the variables the docker, podman and kubectl
/// tools honour, and the Python server's NAMESPACE).
QStringList variablesOf(const QString &backend)
{
    if (backend == QLatin1String("docker")) {
        return {QStringLiteral("DOCKER_HOST"), QStringLiteral("DOCKER_TLS_VERIFY"), QStringLiteral("DOCKER_CERT_PATH")};
    }
    if (backend == QLatin1String("podman")) {
        return {QStringLiteral("CONTAINER_HOST")};
    }
    if (backend == QLatin1String("kubernetes")) {
        return {QStringLiteral("KUBECONFIG"), QStringLiteral("NAMESPACE")};
    }
    return {};
}

} // namespace

Result<McpServerEntry> McpServerEntry::stdio(const QString &program, const QString &backend,
                                             const QProcessEnvironment &environment)
{
    if (!QDir::isAbsolutePath(program)) {
        return Error{QStringLiteral("the program's path \"%1\" is not absolute.").arg(program), ErrorCode::Internal};
    }
    const QString name = backend.trimmed().toLower();
    if (!BackendFactory::names().contains(name)) {
        return Error{QStringLiteral("unknown backend \"%1\"; use one of %2.")
                         .arg(backend, BackendFactory::names().join(QStringLiteral(", "))),
                     ErrorCode::BadRequest};
    }
    McpServerEntry entry;
    entry.m_program = program;
    entry.m_environment.append({QStringLiteral("BACKEND"), name});
    for (const QString &variable : variablesOf(name)) {
        const QString value = environment.value(variable);
        if (!value.isEmpty()) {
            entry.m_environment.append({variable, value});
        }
    }
    return entry;
}

void McpServerEntry::setSharedFolders(const QList<SharedFolder> &folders)
{
    m_sharedFolders = folders;
}

void McpServerEntry::setNetworkAllow(const NetworkAllowList &allowed)
{
    m_networkAllow = allowed;
}

Result<McpServerEntry> McpServerEntry::http(const QString &url, const QByteArray &token)
{
    const QUrl parsed(url, QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty() ||
        (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https"))) {
        return Error{
            QStringLiteral("\"%1\" is not an http:// or https:// URL such as http://127.0.0.1:8080/mcp.").arg(url),
            ErrorCode::BadRequest};
    }
    if (token.isEmpty()) {
        return Error{QStringLiteral("an HTTP entry needs the server's token."), ErrorCode::BadRequest};
    }
    McpServerEntry entry;
    entry.m_transport = Transport::Http;
    entry.m_url = parsed.toString();
    entry.m_token = token;
    return entry;
}

nlohmann::ordered_json McpServerEntry::render(const AssistantClient::EntryStyle &style, const QByteArray &token) const
{
    nlohmann::ordered_json entry = nlohmann::ordered_json::object();
    if (style.named) {
        entry["name"] = kName.toStdString();
    }
    if (!style.description.isEmpty()) {
        entry["description"] = style.description.toStdString();
    }
    if (style.timeoutSeconds > 0) {
        entry["enabled"] = true;
    }
    if (m_transport == Transport::Stdio) {
        if (!style.stdioType.isEmpty()) {
            entry["type"] = style.stdioType.toStdString();
        }
        entry[style.commandKey.toStdString()] = m_program.toStdString();
        entry["args"] = nlohmann::ordered_json::array({"--mcp"});
        nlohmann::ordered_json environment = nlohmann::ordered_json::object();
        for (const auto &[variable, value] : m_environment) {
            environment[variable.toStdString()] = value.toStdString();
        }
        if (!m_sharedFolders.isEmpty()) {
            environment["LLM_SANDBOX_SHARE"] = SharedFolder::listText(m_sharedFolders).toStdString();
        }
        if (!m_networkAllow.isEmpty()) {
            environment["LLM_SANDBOX_NETWORK_ALLOW"] = m_networkAllow.text().toStdString();
        }
        entry[style.environmentKey.toStdString()] = std::move(environment);
    } else {
        if (!style.httpType.isEmpty()) {
            entry["type"] = style.httpType.toStdString();
        }
        entry[style.urlKey.toStdString()] = m_url.toStdString();
        const nlohmann::ordered_json headers = {{"Authorization", "Bearer " + token.toStdString()}};
        // "requestOptions.headers": the headers in a member of their own.
        const QStringList path = style.headersKey.split(QLatin1Char('.'));
        entry[path.front().toStdString()] =
            path.size() > 1 ? nlohmann::ordered_json{{path.back().toStdString(), headers}} : headers;
    }
    if (style.timeoutSeconds > 0) {
        entry["timeout"] = style.timeoutSeconds;
    }
    return entry;
}

nlohmann::ordered_json McpServerEntry::toJson(const AssistantClient &client) const
{
    return render(client.entryStyle(), m_token);
}

nlohmann::ordered_json McpServerEntry::toMaskedJson(const AssistantClient &client) const
{
    return render(client.entryStyle(), QByteArray(8, '*'));
}

namespace {

QByteArray document(const QString &serversKey, const nlohmann::ordered_json &entry)
{
    const nlohmann::ordered_json servers = {{serversKey.toStdString(), {{McpServerEntry::kName.toStdString(), entry}}}};
    return QByteArray::fromStdString(servers.dump(2));
}

} // namespace

QByteArray McpServerEntry::inServers(const AssistantClient &client, const nlohmann::ordered_json &entry)
{
    return document(client.serversKey(), entry);
}

QByteArray McpServerEntry::genericSnippet() const
{
    return document(QStringLiteral("mcpServers"), render(AssistantClient::commonStyle(), m_token)) + '\n';
}

} // namespace sandbox
