#include "gui/settings/SettingsDialog.h"

#include "AppContext.h"
#include "gui/RunText.h"
#include "gui/settings/FoldersPage.h"
#include "gui/settings/NetworkPage.h"
#include "settings/UserSettings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace sandbox::gui {

SettingsDialog::SettingsDialog(UserSettings &settings, SecretStore &secrets, QWidget *parent)
    : QDialog(parent), m_settings(settings)
{
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));

    // Chosen where each backend is set up and tested ("Default backend" on its Connection tab); shown here.
    m_backend = new QLabel;
    m_backend->setObjectName(QStringLiteral("settingsBackend"));
    m_backend->setTextFormat(Qt::RichText);
    connect(m_backend, &QLabel::linkActivated, this, [this] {
        emit backendsPageRequested();
        reject();
    });
    m_runtime = new QLineEdit;
    m_runtime->setObjectName(QStringLiteral("settingsRuntime"));
    m_runtime->setPlaceholderText(tr("the engine's default; runsc for gVisor"));
    m_runtime->setToolTip(tr("The OCI runtime the sandboxes run under (SANDBOX_RUNTIME): one the engine has "
                             "registered; on Kubernetes a RuntimeClass. “llm-sandbox doctor” lists them."));
    m_timeout = new QSpinBox;
    m_timeout->setObjectName(QStringLiteral("settingsTimeout"));
    m_timeout->setRange(1, 3600);
    m_timeout->setSuffix(tr(" s"));
    m_maxAge = new QSpinBox;
    m_maxAge->setObjectName(QStringLiteral("settingsMaxAge"));
    m_maxAge->setRange(1, 3650);
    m_maxAge->setSuffix(tr(" days"));
    m_maxSize = new QSpinBox;
    m_maxSize->setObjectName(QStringLiteral("settingsMaxSize"));
    m_maxSize->setRange(16, 1024 * 1024);
    m_maxSize->setSingleStep(64);
    m_maxSize->setSuffix(tr(" MiB"));

    // Each language by its own name, as language choosers do, so that a person who cannot read the current one finds
    // theirs. Applied at the next start: every window's texts are made once.
    m_language = new QComboBox;
    m_language->setObjectName(QStringLiteral("settingsLanguage"));
    m_language->addItem(tr("System language"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));

    auto *appearance = new QGroupBox(tr("Language"));
    auto *appearanceForm = new QFormLayout(appearance);
    appearanceForm->addRow(tr("&Language:"), m_language);
    auto *languageNote = new QLabel(tr("Takes effect when LLM Sandbox starts again."));
    languageNote->setEnabled(false);
    appearanceForm->addRow(QString(), languageNote);

    auto *execution = new QGroupBox(tr("Execution"));
    auto *executionForm = new QFormLayout(execution);
    executionForm->addRow(tr("Default backend:"), m_backend);
    executionForm->addRow(tr("OCI &runtime:"), m_runtime);
    executionForm->addRow(tr("Default &timeout:"), m_timeout);

    auto *journal = new QGroupBox(tr("Run journal"));
    auto *journalForm = new QFormLayout(journal);
    journalForm->addRow(tr("Keep runs for &at most:"), m_maxAge);
    journalForm->addRow(tr("Limit its &size to:"), m_maxSize);

    auto *note = new QLabel(tr("The command line and the MCP server (llm-sandbox --mcp) read these settings when "
                               "they start. Environment variables such as BACKEND still take precedence."));
    note->setWordWrap(true);
    note->setEnabled(false);

    auto *buttons =
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            &SettingsDialog::restoreDefaults);

    auto *general = new QWidget;
    general->setObjectName(QStringLiteral("generalPage"));
    auto *generalLayout = new QVBoxLayout(general);
    generalLayout->addWidget(execution);
    generalLayout->addWidget(journal);
    generalLayout->addWidget(appearance);
    generalLayout->addWidget(note);
    generalLayout->addStretch();

    m_folders = new FoldersPage;
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("settingsTabs"));
    m_tabs->addTab(general, tr("&General"));
    m_tabs->addTab(m_folders, tr("&Folders"));
    m_network = new NetworkPage(secrets);
    m_tabs->addTab(m_network, tr("&Network"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);
    setMinimumWidth(440);
    resize(720, sizeHint().height()); // room for the Folders tab's paths
    load();
}

void SettingsDialog::load()
{
    m_backend->setText(tr("%1 — chosen on the <a href=\"#backends\">Backends page</a>")
                           .arg(backendText(m_settings.chosenBackend()).toHtmlEscaped()));
    m_runtime->setText(m_settings.runtime());
    m_timeout->setValue(int(m_settings.defaultTimeout().count()));
    m_maxAge->setValue(m_settings.journalMaxAgeDays());
    m_maxSize->setValue(m_settings.journalMaxSizeMiB());
    m_language->setCurrentIndex(qMax(0, m_language->findData(m_settings.language())));
    m_folders->setFolders(m_settings.sharedFolders());
    m_network->setAllowList(m_settings.networkAllow());
    m_network->setEnvironmentValue(
        AppContext::networkAllowFromEnvironment() ? qEnvironmentVariable("LLM_SANDBOX_NETWORK_ALLOW") : QString());
}

void SettingsDialog::showNetwork()
{
    m_tabs->setCurrentWidget(m_network);
}

void SettingsDialog::showFolders()
{
    m_tabs->setCurrentWidget(m_folders);
}

void SettingsDialog::restoreDefaults()
{
    // The documented defaults of UserSettings. The shared folders are the user's own list, not a setting with a
    // default: Remove takes one away. Nothing is what sandboxes reach by default.
    m_runtime->clear();
    m_timeout->setValue(30);
    m_maxAge->setValue(30);
    m_maxSize->setValue(1024);
    m_language->setCurrentIndex(0);
    m_network->setAllowList({});
}

void SettingsDialog::apply()
{
    m_settings.setRuntime(m_runtime->text());
    m_settings.setDefaultTimeout(std::chrono::seconds(m_timeout->value()));
    m_settings.setJournalMaxAgeDays(m_maxAge->value());
    m_settings.setJournalMaxSizeMiB(m_maxSize->value());
    m_settings.setLanguage(m_language->currentData().toString());
    m_settings.setSharedFolders(m_folders->folders());
    m_settings.setNetworkAllow(m_network->allowList());
}

} // namespace sandbox::gui
