#include "gui/server/ServerPage.h"

#include "gui/StateColors.h"
#include "gui/server/ServerClientsModel.h"
#include "gui/widgets/CopyFeedback.h"
#include "gui/widgets/SelectionKeeper.h"
#include "gui/widgets/ThemedIcon.h"
#include "mcp/McpHost.h"
#include "secrets/KeychainSecretStore.h"
#include "secrets/SecretStore.h"
#include "settings/UserSettings.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QSystemTrayIcon>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

using mcp::BearerToken;
using mcp::McpHost;

QString dot(const QColor &color)
{
    return QStringLiteral("<span style='color:%1'>●</span>").arg(color.name());
}

} // namespace

ServerPage::ServerPage(McpHost &host, SecretStore &secrets, UserSettings &settings, QWidget *parent)
    : Page(parent), m_host(host), m_secrets(secrets), m_settings(settings)
{
    setObjectName(QStringLiteral("serverPage"));

    // The server: its state, its URL, start and stop.
    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("serverState"));
    QFont stateFont = m_state->font();
    stateFont.setPointSizeF(stateFont.pointSizeF() * 1.25);
    stateFont.setBold(true);
    m_state->setFont(stateFont);
    m_startStop = new QPushButton;
    m_startStop->setObjectName(QStringLiteral("startStopServer"));
    m_startStop->setMinimumWidth(120);
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("serverUrl"));
    m_url->setReadOnly(true);
    m_copyUrl = new QPushButton(tr("Copy URL"));
    m_copyUrl->setObjectName(QStringLiteral("copyUrl"));
    m_port = new QSpinBox;
    m_port->setObjectName(QStringLiteral("serverPort"));
    m_port->setRange(1024, 65535);
    m_port->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_port->setMinimumWidth(m_port->fontMetrics().horizontalAdvance(QStringLiteral("000000")) + 40);
    m_port->setValue(m_settings.serverPort());
    m_port->setToolTip(tr("The server listens on this port of 127.0.0.1 only: other machines cannot reach it."));
    m_startWithApp = new QCheckBox(tr("Start the server when LLM Sandbox starts"));
    m_startWithApp->setObjectName(QStringLiteral("startWithApp"));
    m_startWithApp->setChecked(m_settings.serverStartsWithApp());
    m_keepInTray = new QCheckBox(tr("Keep the server running in the system tray when the window is closed"));
    m_keepInTray->setObjectName(QStringLiteral("keepServingInTray"));
    // Without a tray it cannot be: shown off (the setting stays for a desktop that has one).
    const bool trayAvailable = QSystemTrayIcon::isSystemTrayAvailable();
    m_keepInTray->setChecked(trayAvailable && m_settings.serverKeepsRunningInTray());
    if (!trayAvailable) {
        m_keepInTray->setEnabled(false);
        m_keepInTray->setToolTip(tr("This desktop has no system tray: closing the window ends the server."));
    }

    auto *stateRow = new QHBoxLayout;
    stateRow->addWidget(m_state, 1);
    stateRow->addWidget(m_startStop);
    auto *urlRow = new QHBoxLayout;
    urlRow->addWidget(m_url, 1);
    urlRow->addWidget(m_copyUrl);
    auto *serverForm = new QFormLayout;
    serverForm->addRow(tr("URL:"), urlRow);
    serverForm->addRow(tr("Port:"), m_port);
    serverForm->addRow(QString(), m_startWithApp);
    serverForm->addRow(QString(), m_keepInTray);
    auto *serverBox = new QGroupBox(tr("Server"));
    auto *serverLayout = new QVBoxLayout(serverBox);
    serverLayout->addLayout(stateRow);
    serverLayout->addLayout(serverForm);

    // The token: what a client sends as "Authorization: Bearer <token>".
    m_tokenField = new QLineEdit;
    m_tokenField->setObjectName(QStringLiteral("serverToken"));
    m_tokenField->setReadOnly(true);
    m_tokenField->setEchoMode(QLineEdit::Password);
    m_tokenField->setPlaceholderText(tr("Read from the keychain when the server starts"));
    m_reveal = new QPushButton(tr("Reveal"));
    m_reveal->setObjectName(QStringLiteral("revealToken"));
    m_reveal->setCheckable(true);
    m_copyToken = new QPushButton(tr("Copy"));
    m_copyToken->setObjectName(QStringLiteral("copyToken"));
    m_rotate = new QPushButton(tr("Rotate"));
    m_rotate->setObjectName(QStringLiteral("rotateToken"));
    m_rotate->setToolTip(tr("Replace the token with a new one. Clients that use the old one are disconnected and must "
                            "be given the new one."));
    m_tokenNote = new QLabel;
    m_tokenNote->setObjectName(QStringLiteral("tokenNote"));
    m_tokenNote->setWordWrap(true);
    m_tokenNote->setForegroundRole(QPalette::PlaceholderText);
    auto *tokenRow = new QHBoxLayout;
    tokenRow->addWidget(m_tokenField, 1);
    tokenRow->addWidget(m_reveal);
    tokenRow->addWidget(m_copyToken);
    tokenRow->addWidget(m_rotate);
    auto *tokenBox = new QGroupBox(tr("Access token"));
    auto *tokenLayout = new QVBoxLayout(tokenBox);
    tokenLayout->addLayout(tokenRow);
    tokenLayout->addWidget(m_tokenNote);

    // The clients connected now.
    m_clients = new ServerClientsModel(this);
    m_clientsView = new QTableView;
    m_clientsView->setObjectName(QStringLiteral("serverClients"));
    // Refreshed every few seconds: a selection stays with its client.
    setModelKeepingSelection(m_clientsView, m_clients);
    m_clientsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_clientsView->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_clientsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_clientsView->setAlternatingRowColors(true);
    m_clientsView->setShowGrid(false);
    m_clientsView->verticalHeader()->hide();
    m_clientsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_clientsView->horizontalHeader()->setSectionResizeMode(ServerClientsModel::Client, QHeaderView::Stretch);
    m_clientsEmpty = new QLabel;
    m_clientsEmpty->setObjectName(QStringLiteral("clientsEmpty"));
    m_clientsEmpty->setAlignment(Qt::AlignCenter);
    m_clientsEmpty->setWordWrap(true);
    m_clientsEmpty->setForegroundRole(QPalette::PlaceholderText);
    auto *clientsStack = new QStackedWidget;
    clientsStack->addWidget(m_clientsEmpty);
    clientsStack->addWidget(m_clientsView);
    auto *clientsBox = new QGroupBox(tr("Connected clients"));
    auto *clientsLayout = new QVBoxLayout(clientsBox);
    clientsLayout->addWidget(clientsStack);
    auto *runsNote = new QLabel(tr("Their runs appear in the live log under the client's name."));
    runsNote->setForegroundRole(QPalette::PlaceholderText);
    runsNote->setWordWrap(true);
    m_endSession = new QPushButton(tr("&End Session"));
    m_endSession->setObjectName(QStringLiteral("endSession"));
    m_endSession->setToolTip(tr("End the selected client's session now: its running calls are cancelled, and it "
                                "must connect again."));
    m_endSession->setEnabled(false);
    auto *endAction = new QAction(m_endSession->text(), m_clientsView);
    endAction->setEnabled(false);
    m_clientsView->addAction(endAction);
    auto *clientsFooter = new QHBoxLayout;
    clientsFooter->addWidget(runsNote, 1);
    clientsFooter->addWidget(m_endSession);
    clientsLayout->addLayout(clientsFooter);
    m_clientsTimer = new QTimer(this);
    m_clientsTimer->setInterval(std::chrono::seconds(20));

    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("serverError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(serverBox);
    layout->addWidget(tokenBox);
    layout->addWidget(m_error);
    layout->addWidget(clientsBox, 1);

    connect(m_startStop, &QPushButton::clicked, this, [this] {
        if (m_host.state() == McpHost::State::Stopped) {
            start();
        } else {
            stop();
        }
    });
    connect(m_copyUrl, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_url->text());
        showCopied(m_copyUrl);
    });
    connect(m_port, &QSpinBox::valueChanged, this, [this](int port) { m_settings.setServerPort(port); });
    connect(m_startWithApp, &QCheckBox::toggled, this,
            [this](bool checked) { m_settings.setServerStartsWithApp(checked); });
    connect(m_reveal, &QPushButton::toggled, this, [this](bool revealed) {
        m_tokenField->setEchoMode(revealed ? QLineEdit::Normal : QLineEdit::Password);
        m_reveal->setText(revealed ? tr("Hide") : tr("Reveal"));
    });
    connect(m_copyToken, &QPushButton::clicked, this, [this] {
        copySecret(QString::fromLatin1(m_token)); // not left there for whatever pastes next
        showCopied(m_copyToken);
    });
    connect(m_rotate, &QPushButton::clicked, this, &ServerPage::rotateToken);
    connect(&m_host, &McpHost::stateChanged, this, &ServerPage::updateState);
    connect(m_keepInTray, &QCheckBox::toggled, this,
            [this](bool checked) { m_settings.setServerKeepsRunningInTray(checked); });
    connect(&m_host, &McpHost::sessionsChanged, this, [this, clientsStack] {
        updateClients();
        clientsStack->setCurrentIndex(m_clients->rowCount() > 0 ? 1 : 0);
    });
    connect(m_clientsTimer, &QTimer::timeout, this, &ServerPage::updateClients);
    connect(m_clientsView->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this, endAction] {
        const bool any = m_clientsView->selectionModel()->hasSelection();
        m_endSession->setEnabled(any);
        endAction->setEnabled(any);
    });
    connect(m_endSession, &QPushButton::clicked, this, &ServerPage::endSelectedSessions);
    connect(endAction, &QAction::triggered, this, &ServerPage::endSelectedSessions);
    updateState();
    updateToken();
}

QString ServerPage::title() const
{
    return tr("MCP server");
}

QIcon ServerPage::icon() const
{
    return themedIcon(QStringLiteral(":/icons/page-server.svg"), palette());
}

void ServerPage::start()
{
    if (m_host.state() != McpHost::State::Stopped || m_busy) {
        return;
    }
    m_error->hide();
    withToken([this] {
        mcp::HttpServerOptions options;
        options.port = quint16(m_port->value());
        const Result<QUrl> url = m_host.startHttp(m_token, options);
        if (!url) {
            showError(tr("The server did not start: %1").arg(url.error().message));
        }
    });
}

void ServerPage::stop()
{
    m_host.stopHttp();
}

void ServerPage::rotateToken()
{
    if (m_busy || m_tokenSource == BearerToken::Source::Environment) {
        return;
    }
    m_busy = true;
    m_error->hide();
    updateState();
    const QByteArray token = BearerToken::generate();
    m_secrets.set(BearerToken::kSecretKey, token).then(this, [this, token](const Result<void> &saved) {
        m_busy = false;
        if (!saved) {
            showError(tr("The new token could not be saved in the keychain, so the old one stays: %1")
                          .arg(saved.error().message));
        } else {
            m_token = token;
            m_tokenSource = BearerToken::Source::SecretStore;
            m_host.setToken(token);
            emit tokenChanged();
        }
        updateToken();
        updateState();
    });
}

void ServerPage::startIfWanted()
{
    if (m_settings.serverStartsWithApp()) {
        start();
    }
}

void ServerPage::endSelectedSessions()
{
    QStringList ids;
    for (const QModelIndex &row : m_clientsView->selectionModel()->selectedRows()) {
        ids << row.data(ServerClientsModel::SessionIdRole).toString();
    }
    for (const QString &id : std::as_const(ids)) {
        m_host.endSession(id);
    }
}

void ServerPage::updateClients()
{
    m_clients->setSessions(m_host.sessions());
}

void ServerPage::withToken(std::function<void()> then)
{
    if (!m_token.isEmpty()) {
        then();
        return;
    }
    m_busy = true;
    updateState();
    BearerToken::load(m_secrets, qgetenv(BearerToken::kEnvironmentVariable))
        .then(this, [this, then = std::move(then)](const Result<BearerToken::Loaded> &loaded) {
            m_busy = false;
            if (!loaded) {
                showError(tr("The token could not be read from the system keychain: %1\nStart a keychain (such as "
                             "GNOME Keyring or KWallet), or set %2 to a secret of at least %3 characters.")
                              .arg(loaded.error().message, QLatin1String(BearerToken::kEnvironmentVariable))
                              .arg(BearerToken::kMinimumLength));
                updateState();
                return;
            }
            m_token = loaded->token;
            m_tokenSource = loaded->source;
            updateToken();
            emit tokenChanged();
            then();
            updateState();
        });
}

void ServerPage::updateState()
{
    const StateColors colors = StateColors::of(palette());
    const McpHost::State state = m_host.state();
    switch (state) {
    case McpHost::State::Running:
        m_state->setText(tr("%1 Running").arg(dot(colors.succeeded)));
        m_startStop->setText(tr("Stop"));
        m_url->setText(m_host.url().toString());
        break;
    case McpHost::State::Stopping:
        m_state->setText(tr("%1 Stopping: cancelling the clients' calls…").arg(dot(colors.stopped)));
        m_startStop->setText(tr("Stop"));
        break;
    case McpHost::State::Stopped:
        m_state->setText(m_busy ? tr("%1 Starting…").arg(dot(colors.running))
                                : tr("%1 Stopped").arg(dot(palette().color(QPalette::PlaceholderText))));
        m_startStop->setText(tr("Start"));
        m_url->setText(QStringLiteral("http://127.0.0.1:%1/mcp").arg(m_port->value()));
        break;
    }
    m_startStop->setEnabled(!m_busy && state != McpHost::State::Stopping);
    if (state == McpHost::State::Running) {
        m_clientsTimer->start();
    } else {
        m_clientsTimer->stop();
    }
    m_port->setEnabled(state == McpHost::State::Stopped && !m_busy);
    m_clientsEmpty->setText(state == McpHost::State::Running
                                ? tr("No client is connected. Point an MCP client at the URL above and have it send "
                                     "the token as “Authorization: Bearer <token>”.")
                                : tr("The server is stopped."));
    updateToken();
}

void ServerPage::updateToken()
{
    m_tokenField->setText(QString::fromLatin1(m_token));
    m_reveal->setEnabled(!m_token.isEmpty());
    m_copyToken->setEnabled(!m_token.isEmpty());
    const bool fromEnvironment = m_tokenSource == BearerToken::Source::Environment;
    m_rotate->setEnabled(!m_busy && !fromEnvironment);
    if (fromEnvironment) {
        m_tokenNote->setText(tr("From the environment variable %1; change it there to rotate it.")
                                 .arg(QLatin1String(BearerToken::kEnvironmentVariable)));
    } else {
        m_tokenNote->setText(tr("Kept in the system keychain (%1/%2). Clients send it as “Authorization: Bearer "
                                "<token>”; the same token serves “llm-sandbox serve --http”.")
                                 .arg(KeychainSecretStore::kDefaultService, BearerToken::kSecretKey));
    }
}

void ServerPage::showError(const QString &message)
{
    m_error->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                         .arg(StateColors::of(palette()).failed.name(),
                              message.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
    m_error->show();
    emit failed(message);
}

} // namespace sandbox::gui
