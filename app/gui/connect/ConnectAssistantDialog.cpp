#include "gui/connect/ConnectAssistantDialog.h"

#include "assistants/McpConfigFile.h"
#include "backend/BackendFactory.h"
#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/widgets/CopyFeedback.h"
#include "mcp/http/BearerToken.h"
#include "settings/UserSettings.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace sandbox::gui {

namespace {

/// The entry as `client`'s file holds it, under its servers key: what the preview shows (`masked`) and Copy copies.
QString entryText(const McpServerEntry &entry, const AssistantClient &client, bool masked)
{
    const nlohmann::ordered_json value = masked ? entry.toMaskedJson(client) : entry.toJson(client);
    if (client.configFormat().toml || client.configFormat().yaml) {
        // The table (or YAML entry) as install writes it into an empty file.
        auto table = McpConfigEditor(client.configFormat()).withEntry({}, McpServerEntry::kName, value);
        return table ? QString::fromUtf8(*table).trimmed() : table.error().message;
    }
    return QString::fromUtf8(McpServerEntry::inServers(client, value));
}

McpConfigFile fileOf(const AssistantClient &client)
{
    return McpConfigFile(client.configPath(), client.configFormat());
}

} // namespace

ConnectAssistantDialog::ConnectAssistantDialog(SecretStore &tokens, const QString &backend, QWidget *parent)
    : QDialog(parent), m_tokens(tokens)
{
    setWindowTitle(tr("Connect an Assistant"));
    setObjectName(QStringLiteral("connectAssistantDialog"));

    m_client = new QComboBox;
    m_client->setObjectName(QStringLiteral("connectClient"));
    // The assistants found on this computer first, each in the order of AssistantClient::all().
    QList<AssistantClient> clients = AssistantClient::all();
    std::stable_partition(clients.begin(), clients.end(),
                          [](const AssistantClient &client) { return client.isPresent(); });
    for (const AssistantClient &client : std::as_const(clients)) {
        m_client->addItem(client.title(), client.name());
    }
    updateClientTexts();
    m_transport = new QComboBox;
    m_transport->setObjectName(QStringLiteral("connectTransport"));
    m_transport->addItem(tr("stdio: the assistant starts llm-sandbox --mcp"), QStringLiteral("stdio"));
    m_transport->addItem(tr("HTTP: the assistant connects to llm-sandbox serve --http"), QStringLiteral("http"));
    m_backend = new QComboBox;
    m_backend->setObjectName(QStringLiteral("connectBackend"));
    for (const QString &name : BackendFactory::names()) {
        m_backend->addItem(backendText(name), name);
    }
    m_backend->setCurrentIndex(qMax(0, m_backend->findData(backend)));
    m_url = new QLineEdit(McpServerEntry::localUrl(UserSettings().serverPort()));
    m_url->setObjectName(QStringLiteral("connectUrl"));
    // Off unless ticked: an assistant's own server shares nothing by default (issue 47).
    m_folders = UserSettings().usableSharedFolders();
    m_shareFolders =
        new QCheckBox(tr("&Share my folders (%n) with this assistant's sandboxes", nullptr, int(m_folders.size())));
    m_shareFolders->setObjectName(QStringLiteral("connectShareFolders"));

    m_path = new QLabel;
    m_path->setObjectName(QStringLiteral("connectPath"));
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setWordWrap(true);
    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("connectState"));
    m_state->setWordWrap(true);
    m_serverNote = new QLabel;
    m_serverNote->setObjectName(QStringLiteral("connectServerNote"));
    m_serverNote->setWordWrap(true);
    m_serverNote->setVisible(false);
    m_preview = new QPlainTextEdit;
    m_preview->setObjectName(QStringLiteral("connectPreview"));
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);

    auto *form = new QFormLayout;
    form->addRow(tr("&Assistant:"), m_client);
    form->addRow(tr("&Transport:"), m_transport);
    form->addRow(tr("&Backend:"), m_backend);
    form->addRow(QString(), m_shareFolders);
    form->addRow(tr("Server &URL:"), m_url);
    form->addRow(tr("File:"), m_path);
    form->addRow(tr("State:"), m_state);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_install = buttons->addButton(tr("&Install"), QDialogButtonBox::ActionRole);
    m_install->setObjectName(QStringLiteral("connectInstall"));
    m_remove = buttons->addButton(tr("&Remove"), QDialogButtonBox::ActionRole);
    m_remove->setObjectName(QStringLiteral("connectRemove"));
    m_copy = buttons->addButton(tr("&Copy Configuration"), QDialogButtonBox::ActionRole);
    m_copy->setObjectName(QStringLiteral("connectCopy"));
    m_copy->setToolTip(tr("Copies the entry shown, with the server's token (or, for a client that cannot take it, "
                          "the common form other MCP clients read)"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_install, &QPushButton::clicked, this, &ConnectAssistantDialog::install);
    connect(m_remove, &QPushButton::clicked, this, &ConnectAssistantDialog::remove);
    connect(m_copy, &QPushButton::clicked, this, &ConnectAssistantDialog::copyConfiguration);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_serverNote);
    m_previewTitle = new QLabel;
    layout->addWidget(m_previewTitle);
    layout->addWidget(m_preview, 1);
    auto *note = new QLabel(tr("Everything else in the file stays as it is; the previous file is kept as a .bak "
                               "next to it. Restart the assistant afterwards."));
    note->setWordWrap(true);
    note->setEnabled(false);
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(640, 520);

    const auto changed = [this] {
        refresh();
    };
    connect(m_client, &QComboBox::currentIndexChanged, this, changed);
    connect(m_transport, &QComboBox::currentIndexChanged, this, changed);
    connect(m_backend, &QComboBox::currentIndexChanged, this, changed);
    connect(m_url, &QLineEdit::textChanged, this, changed);
    connect(m_shareFolders, &QCheckBox::toggled, this, changed);
    refresh();
}

void ConnectAssistantDialog::updateClientTexts()
{
    const QString program = QCoreApplication::applicationFilePath();
    for (int row = 0; row < m_client->count(); ++row) {
        const AssistantClient client = *AssistantClient::fromName(m_client->itemData(row).toString());
        if (!client.editsFile()) {
            m_client->setItemText(row, client.isPresent()
                                           ? tr("%1 — found: paste the configuration").arg(client.title())
                                           : tr("%1 — not found on this computer").arg(client.title()));
            continue;
        }
        const Result<std::optional<nlohmann::ordered_json>> installed = fileOf(client).entry(McpServerEntry::kName);
        QString text;
        if (installed && installed->has_value()) {
            const nlohmann::ordered_json &entry = **installed;
            const auto command = entry.find(client.entryStyle().commandKey.toStdString());
            const QString path = command != entry.end() && command->is_string()
                                     ? QString::fromStdString(command->get<std::string>())
                                     : QString();
            text = path.isEmpty() || path == program
                       ? tr("%1 — connected").arg(client.title())
                       : tr("%1 — connected to another llm-sandbox (%2)").arg(client.title(), path);
        } else {
            text = client.isPresent() ? tr("%1 — found, not connected").arg(client.title())
                                      : tr("%1 — not found on this computer").arg(client.title());
        }
        m_client->setItemText(row, text);
    }
}

AssistantClient ConnectAssistantDialog::client() const
{
    return *AssistantClient::fromName(m_client->currentData().toString());
}

bool ConnectAssistantDialog::http() const
{
    return m_transport->currentData().toString() == QLatin1String("http");
}

void ConnectAssistantDialog::loadToken()
{
    // Once: a token that cannot be had is said, not asked for again by the refresh that says it (a load that
    // answers at once, as $LLM_SANDBOX_HTTP_TOKEN does, would recurse without end).
    if (m_tokenLoading || !m_token.isEmpty() || !m_tokenError.isEmpty()) {
        return;
    }
    m_tokenLoading = true;
    m_tokenError.clear();
    // The same token `serve --http` uses: LLM_SANDBOX_HTTP_TOKEN, else the keychain's (made there on first use).
    mcp::BearerToken::load(m_tokens, qgetenv(mcp::BearerToken::kEnvironmentVariable))
        .then(this, [this](const Result<mcp::BearerToken::Loaded> &loaded) {
            m_tokenLoading = false;
            if (loaded) {
                m_token = loaded->token;
            } else {
                m_tokenError = loaded.error().message;
            }
            refresh();
        });
}

std::optional<McpServerEntry> ConnectAssistantDialog::entry(bool forThisClient, QString *why) const
{
    if (!http()) {
        const Result<McpServerEntry> stdio =
            McpServerEntry::stdio(QCoreApplication::applicationFilePath(), m_backend->currentData().toString(),
                                  QProcessEnvironment::systemEnvironment());
        if (!stdio) {
            *why = stdio.error().message;
            return std::nullopt;
        }
        McpServerEntry local = *stdio;
        if (m_shareFolders->isChecked()) {
            local.setSharedFolders(m_folders);
        }
        return local;
    }
    if (forThisClient && !client().supportsHttp()) {
        *why = tr("Claude Desktop's configuration file only starts local (stdio) servers. Choose stdio, or add the "
                  "URL as a custom connector in Claude Desktop's settings.");
        return std::nullopt;
    }
    if (!m_tokenError.isEmpty()) {
        *why = tr("The server's token cannot be read from the system keychain: %1").arg(m_tokenError);
        return std::nullopt;
    }
    if (m_token.isEmpty()) {
        *why = tr("Reading the server's token from the system keychain…");
        return std::nullopt;
    }
    const Result<McpServerEntry> remote = McpServerEntry::http(m_url->text().trimmed(), m_token);
    if (!remote) {
        *why = remote.error().message;
        return std::nullopt;
    }
    return *remote;
}

void ConnectAssistantDialog::showState(const QString &text, bool problem)
{
    m_state->setText(text);
    QPalette colors = palette();
    if (problem) {
        colors.setColor(QPalette::WindowText, StateColors::of(palette()).failed);
    }
    m_state->setPalette(colors);
}

QString ConnectAssistantDialog::problemText(const McpConfigFile &file) const
{
    const std::optional<McpConfigEditor::Problem> problem = file.problem(McpServerEntry::kName);
    if (!problem) {
        return {};
    }
    // Worded here from the problem's data, not from the core's English message, so that no English is left in it.
    QString reason;
    switch (problem->kind) {
    case McpConfigEditor::Problem::Kind::NotJson:
        reason = problem->comments
                     ? tr("it is not valid JSON (at line %1, column %2): this assistant reads strict JSON, without "
                          "comments")
                     : tr("it is not valid JSON (at line %1, column %2)");
        reason = reason.arg(problem->line).arg(problem->column);
        break;
    case McpConfigEditor::Problem::Kind::TopLevelNotObject:
        reason = tr("its top level is not a JSON object");
        break;
    case McpConfigEditor::Problem::Kind::ServersNotObject:
        reason = tr("its “%1” is not a JSON object").arg(problem->key);
        break;
    case McpConfigEditor::Problem::Kind::DuplicateKey:
        reason = tr("the key “%1” appears twice in one object").arg(problem->key);
        break;
    case McpConfigEditor::Problem::Kind::NotToml:
        reason = tr("it is not valid TOML (at line %1, column %2)").arg(problem->line).arg(problem->column);
        break;
    case McpConfigEditor::Problem::Kind::ServersNotTable:
        reason = tr("its “%1” is not a TOML table").arg(problem->key);
        break;
    case McpConfigEditor::Problem::Kind::EntryNotTable:
        reason = tr("its “%1” is not written as a table [%1] of its own: change it by hand").arg(problem->key);
        break;
    case McpConfigEditor::Problem::Kind::NotYaml:
        reason = tr("it is not valid YAML (at line %1, column %2)").arg(problem->line).arg(problem->column);
        break;
    case McpConfigEditor::Problem::Kind::YamlTopLevelNotMapping:
        reason = tr("its top level is not a YAML mapping");
        break;
    case McpConfigEditor::Problem::Kind::YamlServersNotMapping:
        reason = tr("its “%1” is not a YAML mapping").arg(problem->key);
        break;
    case McpConfigEditor::Problem::Kind::YamlServersNotSequence:
        reason = tr("its “%1” is not a YAML list").arg(problem->key);
        break;
    case McpConfigEditor::Problem::Kind::YamlNotLocatable:
        reason = problem->key.isEmpty()
                     ? tr("it holds several YAML documents: change it by hand")
                     : tr("its “%1” is written in a way that cannot be changed safely (in flow style with other "
                          "entries, or an alias): change it by hand")
                           .arg(problem->key);
        break;
    }
    return tr("The file cannot be changed: %1. It is left as it is: fix it (or move it away), then try again.")
        .arg(reason);
}

void ConnectAssistantDialog::setServerRunning(bool running)
{
    m_serverRunning = running;
    showServerNote();
}

void ConnectAssistantDialog::showServerNote()
{
    m_serverNote->setVisible(http());
    const bool startsWithApp = UserSettings().serverStartsWithApp();
    QString text;
    if (!m_serverRunning) {
        text = startsWithApp ? tr("The app's MCP server is not running now: the assistant can connect once it runs (it "
                                  "starts with LLM Sandbox, or use Start on the MCP server page).")
                             : tr("The app's MCP server is not running, and it does not start with LLM Sandbox: the "
                                  "assistant cannot connect until you start it on the MCP server page. Tick “Start "
                                  "the server when LLM Sandbox starts” there to have it whenever the app runs.");
    } else if (!startsWithApp) {
        text = tr("The app's MCP server is running now, but it does not start with LLM Sandbox: after a restart the "
                  "assistant cannot connect until you start it again. Tick “Start the server when LLM Sandbox "
                  "starts” on the MCP server page to have it whenever the app runs.");
    } else {
        text = tr("This entry reaches the app's MCP server: it is running, and starts whenever LLM Sandbox does.");
    }
    const bool warning = !m_serverRunning || !startsWithApp;
    const QString color = warning ? StateColors::of(palette()).timedOut.name() : QString();
    m_serverNote->setText(
        warning ? QStringLiteral("<span style='color:%1'>●</span>&nbsp; %2").arg(color, text.toHtmlEscaped())
                : text.toHtmlEscaped());
}

void ConnectAssistantDialog::refresh()
{
    const AssistantClient assistant = client();
    m_backend->setEnabled(!http());
    m_url->setEnabled(http());
    m_shareFolders->setEnabled(!http() && !m_folders.isEmpty());
    if (http()) {
        m_shareFolders->setToolTip(tr("A server reached over HTTP shares the folders of its own settings: the app's "
                                      "server, those of Settings → Folders."));
    } else if (m_folders.isEmpty()) {
        m_shareFolders->setToolTip(tr("No folder is shared: add some in Settings → Folders first."));
    } else {
        QStringList names;
        for (const SharedFolder &folder : std::as_const(m_folders)) {
            names << folder.mountPath();
        }
        m_shareFolders->setToolTip(tr("The server this assistant starts lets its sandboxes read %1 "
                                      "(LLM_SANDBOX_SHARE in its entry).")
                                       .arg(QLocale().createSeparatedList(names)));
    }
    if (http()) {
        loadToken();
    }
    showServerNote();
    QString why;
    const std::optional<McpServerEntry> wanted = entry(true, &why);
    if (wanted) {
        m_preview->setPlainText(entryText(*wanted, assistant, true));
    } else {
        m_preview->clear(); // why there is none is the state line's
    }
    m_preview->setEnabled(wanted.has_value());
    m_previewTitle->setEnabled(wanted.has_value());
    m_previewTitle->setText(assistant.editsFile() ? tr("Entry written to the file:") : tr("Configuration to paste:"));
    m_install->setEnabled(wanted.has_value() && assistant.editsFile());
    m_copy->setEnabled(entry(false, &why).has_value());
    if (!assistant.editsFile()) {
        // Its settings are its own database: the user pastes the configuration there.
        m_path->setText(tr("None: %1 keeps its servers in its own settings").arg(assistant.title()));
        m_remove->setEnabled(false);
        showState(wanted ? tr("Copy Configuration, then in Cherry Studio open Settings → MCP Servers → Add Server → "
                              "Import from JSON, paste it and confirm.")
                         : why,
                  !wanted && !m_tokenLoading);
        return;
    }
    const McpConfigFile file = fileOf(assistant);
    m_path->setText(file.path());

    const Result<std::optional<nlohmann::ordered_json>> installed = file.entry(McpServerEntry::kName);
    m_remove->setEnabled(installed && installed->has_value());
    if (const QString problem = problemText(file); !problem.isEmpty()) {
        showState(problem, true);
        m_install->setEnabled(false);
    } else if (!installed) {
        showState(tr("The file cannot be changed: %1").arg(installed.error().message), true);
        m_install->setEnabled(false);
    } else if (!wanted) {
        // Nothing to show below: the state line says why, whole (not cut off in the code box).
        showState(why, !m_tokenLoading);
    } else if (!installed->has_value()) {
        showState(tr("%1 does not use llm-sandbox yet.").arg(assistant.title()), false);
    } else if (wanted && nlohmann::json::parse(installed->value().dump()) ==
                             nlohmann::json::parse(wanted->toJson(assistant).dump())) {
        showState(tr("Installed, as shown below."), false);
        m_install->setEnabled(false); // nothing to change
    } else {
        showState(tr("Installed with other settings; Install replaces them with the ones below."), false);
    }
}

void ConnectAssistantDialog::install()
{
    QString why;
    const std::optional<McpServerEntry> wanted = entry(true, &why);
    if (!wanted) {
        return;
    }
    const AssistantClient assistant = client();
    const McpConfigFile file = fileOf(assistant);
    const Result<McpConfigFile::Change> change =
        file.install(McpServerEntry::kName, wanted->toJson(assistant), false, wanted->holdsSecret());
    refresh();
    updateClientTexts();
    if (!change) {
        const QString problem = problemText(file);
        showState(problem.isEmpty() ? tr("Nothing was changed: %1").arg(change.error().message) : problem, true);
    } else if (change->outcome != McpConfigFile::Change::Outcome::Unchanged) {
        showState(tr("Installed. Restart %1 to use it.").arg(assistant.title()), false);
    }
}

void ConnectAssistantDialog::remove()
{
    const AssistantClient assistant = client();
    const McpConfigFile file = fileOf(assistant);
    const Result<McpConfigFile::Change> change = file.uninstall(McpServerEntry::kName, false);
    refresh();
    updateClientTexts();
    if (!change) {
        const QString problem = problemText(file);
        showState(problem.isEmpty() ? tr("Nothing was changed: %1").arg(change.error().message) : problem, true);
    } else if (change->outcome == McpConfigFile::Change::Outcome::Removed) {
        showState(tr("Removed. Restart %1 for it to stop using llm-sandbox.").arg(assistant.title()), false);
    }
}

void ConnectAssistantDialog::copyConfiguration()
{
    QString why;
    const std::optional<McpServerEntry> wanted = entry(false, &why);
    if (!wanted) {
        return;
    }
    // What the preview shows, the token unmasked; with no preview (Claude Desktop takes no HTTP server), the form
    // most other clients read.
    const bool shown = entry(true, &why).has_value();
    const QString text = shown ? entryText(*wanted, client(), false) : QString::fromUtf8(wanted->genericSnippet());
    showCopied(m_copy);
    if (!wanted->holdsSecret()) {
        QApplication::clipboard()->setText(text);
        showState(shown ? tr("The entry shown is on the clipboard.")
                        : tr("A configuration for any MCP client is on the clipboard."),
                  false);
        return;
    }
    copySecret(text);
    showState(tr("The clipboard now holds the server's token with the configuration: paste it only into the "
                 "assistant's settings. It is cleared from the clipboard in %n second(s).",
                 nullptr, int(kSecretOnClipboard.count())),
              false);
}

} // namespace sandbox::gui
