#pragma once

#include "assistants/AssistantClient.h"
#include "folders/SharedFolder.h"
#include "network/NetworkAllowList.h"
#include "util/Result.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QProcessEnvironment>
#include <QString>
#include <nlohmann/json.hpp>

namespace sandbox {

/// What an assistant needs to reach llm-sandbox: the binary with `--mcp` and the environment of the chosen backend
/// (stdio), or the URL of `serve --http` and its bearer token (http). Renders itself as each client's entry.
class McpServerEntry final
{
public:
    /// The name of our entry in every client's servers object.
    static inline const QString kName = QStringLiteral("llm-sandbox");
    /// The app's embedded MCP server on this machine at `port` (UserSettings::serverPort()); the user may give
    /// another URL, e.g. that of `serve --http`.
    static QString localUrl(int port) { return QStringLiteral("http://127.0.0.1:%1/mcp").arg(port); }

    enum class Transport
    {
        Stdio,
        Http,
    };

    /// `program` --mcp with BACKEND=`backend` and the variables that backend reads from `environment`, when set:
    /// DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH (docker), CONTAINER_HOST (podman), KUBECONFIG, NAMESPACE
    /// (kubernetes). Errors: a relative `program`, an unknown backend.
    static Result<McpServerEntry> stdio(const QString &program, const QString &backend,
                                        const QProcessEnvironment &environment);
    /// The Streamable HTTP server at `url` (http or https, with a host) with "Authorization: Bearer `token`".
    static Result<McpServerEntry> http(const QString &url, const QByteArray &token);

    /// A stdio entry's server lets its sandboxes read `folders` (LLM_SANDBOX_SHARE in its "env", after the backend's
    /// variables); none: the variable is left out and nothing is shared. An HTTP server shares what its own settings
    /// say: nothing changes for it.
    void setSharedFolders(const QList<SharedFolder> &folders);
    /// A stdio entry's server lets its runs ask for the hosts of `allowed` (LLM_SANDBOX_NETWORK_ALLOW in its "env",
    /// after the shared folders); empty: the variable is left out and runs get no network.
    void setNetworkAllow(const NetworkAllowList &allowed);

    Transport transport() const { return m_transport; }
    /// The entry as `client` reads it, keys in the order its documentation shows them.
    nlohmann::ordered_json toJson(const AssistantClient &client) const;
    /// The same with the token replaced by dots, for showing on screen.
    nlohmann::ordered_json toMaskedJson(const AssistantClient &client) const;
    /// `entry` (toJson() or toMaskedJson() of `client`) under the client's servers key, as JSON indented by two:
    /// {"SERVERS": {"llm-sandbox": entry}}, what a JSON file holds and what Cherry Studio's import takes.
    static QByteArray inServers(const AssistantClient &client, const nlohmann::ordered_json &entry);
    /// A configuration for any other client: {"mcpServers": {"llm-sandbox": entry}} in the common (Claude Desktop,
    /// Cursor) form, with "type" so clients that need it know the transport.
    QByteArray genericSnippet() const;
    /// Whether the entry holds a secret (the token): its file must then be readable by the user alone.
    bool holdsSecret() const { return m_transport == Transport::Http; }

private:
    McpServerEntry() = default;
    nlohmann::ordered_json render(const AssistantClient::EntryStyle &style, const QByteArray &token) const;

    Transport m_transport = Transport::Stdio;
    QString m_program;
    QList<QPair<QString, QString>> m_environment;
    QList<SharedFolder> m_sharedFolders;
    NetworkAllowList m_networkAllow;
    QString m_url;
    QByteArray m_token;
};

} // namespace sandbox
