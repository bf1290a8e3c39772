#include "gui/settings/NetworkPage.h"

#include "gui/StateColors.h"
#include "gui/settings/NetworkHostModel.h"
#include "gui/settings/NetworkSecretsPanel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

/// A quiet line of explanation under a control, wrapped.
QLabel *hint(const QString &text, const QString &name)
{
    auto *label = new QLabel(text);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setEnabled(false); // the palette's disabled text: a quiet hint, not content
    return label;
}

NetworkAllowList webReadOnly()
{
    return *NetworkAllowList::parse(QStringLiteral("web-read-only"));
}

NetworkAllowList registries()
{
    auto preset = NetworkAllowList::parse(QStringLiteral("registries"));
    return preset ? *preset : NetworkAllowList();
}

} // namespace

NetworkPage::NetworkPage(SecretStore &secrets, QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("networkPage"));
    auto *intro = new QLabel(tr("Sandboxes have no network. A run gets some only when it asks for hosts (the "
                                "Console's Network field, an assistant's “network” argument, run --network), and "
                                "only within what you allow here."));
    intro->setObjectName(QStringLiteral("networkIntro"));
    intro->setWordWrap(true);

    m_nothing = new QRadioButton(tr("&Nothing (default)"));
    m_nothing->setObjectName(QStringLiteral("networkNothing"));
    m_registries = new QRadioButton(tr("&Package registries"));
    m_registries->setObjectName(QStringLiteral("networkRegistries"));
    m_webReadOnly = new QRadioButton(tr("The public &web, read-only"));
    m_webReadOnly->setObjectName(QStringLiteral("networkWebReadOnly"));
    m_hosts = new QRadioButton(tr("&These hosts:"));
    m_hosts->setObjectName(QStringLiteral("networkHosts"));
    m_choices = new QButtonGroup(this);
    m_choices->addButton(m_nothing, int(Choice::Nothing));
    m_choices->addButton(m_registries, int(Choice::Registries));
    m_choices->addButton(m_webReadOnly, int(Choice::WebReadOnly));
    m_choices->addButton(m_hosts, int(Choice::Hosts));
    m_nothing->setChecked(true);
    auto *registriesHint = hint(tr("PyPI, npm, Go modules, RubyGems, CRAN and Maven Central, over HTTPS."),
                                QStringLiteral("networkRegistriesHint"));
    // Their host names in a tooltip, whole: wrapped in the hint, a line break cut one at its hyphen.
    const QString registryHosts = NetworkAllowList::registryHosts().join(u'\n');
    m_registries->setToolTip(registryHosts);
    registriesHint->setToolTip(registryHosts);

    auto *webReadOnlyHint = hint(tr("Any public host, GET and HEAD requests only: code may read the web but not send "
                                    "to it. To see the method inside HTTPS, the egress proxy opens each connection "
                                    "(it needs the system keychain)."),
                                 QStringLiteral("networkWebReadOnlyHint"));
    m_hostsReadOnly = new QCheckBox(tr("Read &only from them (GET and HEAD)"));
    m_hostsReadOnly->setObjectName(QStringLiteral("networkHostsReadOnly"));

    m_model = new NetworkHostModel(this);
    m_view = new QListView;
    m_view->setObjectName(QStringLiteral("networkHostList"));
    m_view->setModel(m_model);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    // As high as its hosts, four lines at least, rather than the view's default: with the secrets below, the settings
    // dialog still fits a 768-pixel screen (and the list grows with the dialog).
    m_view->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_view->setMinimumHeight(4 * m_view->fontMetrics().lineSpacing() + 2 * m_view->frameWidth() + 4);
    m_newHost = new QLineEdit;
    m_newHost->setObjectName(QStringLiteral("networkNewHost"));
    m_newHost->setPlaceholderText(tr("api.example.org"));
    m_newHost->setClearButtonEnabled(true);
    m_add = new QPushButton(tr("&Add"));
    m_add->setObjectName(QStringLiteral("networkAdd"));
    m_add->setToolTip(tr("Add the host written beside it to the list"));
    m_remove = new QPushButton(tr("&Remove"));
    m_remove->setObjectName(QStringLiteral("networkRemove"));
    m_remove->setToolTip(tr("Take the selected host off the list"));
    auto *hostsHint = hint(tr("api.example.org: that host, over HTTPS and HTTP (ports 443 and 80). *.example.org: "
                              "example.org and every host under it. Add :PORT for another port, as in "
                              "api.example.org:8443."),
                           QStringLiteral("networkHostsHint"));

    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("networkProblem"));
    m_problem->setWordWrap(true);
    m_problem->setVisible(false);
    QPalette colors = m_problem->palette();
    colors.setColor(QPalette::WindowText, StateColors::of(palette()).failed);
    m_problem->setPalette(colors);

    m_environment = new QLabel;
    m_environment->setObjectName(QStringLiteral("networkEnvironment"));
    m_environment->setWordWrap(true);
    m_environment->setTextFormat(Qt::PlainText);
    m_environment->setVisible(false);

    auto *note = hint(tr("Whatever a name resolves to, private and loopback addresses and this computer's are never "
                         "reachable. Every connection a run makes, allowed or refused, is shown with the run in the "
                         "Live Log and History. Changes apply to the app's runs and its MCP server from the next run "
                         "after you press OK; a server an assistant starts itself allows what "
                         "LLM_SANDBOX_NETWORK_ALLOW in its entry says."),
                      QStringLiteral("networkNote"));

    m_secrets = new NetworkSecretsPanel(secrets);

    // The hosts' controls indented under their choice, as its part.
    const int indent = m_hosts->sizeHint().height();
    auto *addRow = new QHBoxLayout;
    addRow->addWidget(m_newHost, 1);
    addRow->addWidget(m_add);
    addRow->addWidget(m_remove);
    auto *hosts = new QVBoxLayout;
    hosts->setContentsMargins(indent, 0, 0, 0);
    hosts->addWidget(m_view, 1);
    hosts->addLayout(addRow);
    hosts->addWidget(hostsHint);
    hosts->addWidget(m_hostsReadOnly);
    hosts->addWidget(m_problem);
    auto *registriesBox = new QVBoxLayout;
    registriesBox->setContentsMargins(indent, 0, 0, 0);
    registriesBox->addWidget(registriesHint);
    auto *webReadOnlyBox = new QVBoxLayout;
    webReadOnlyBox->setContentsMargins(indent, 0, 0, 0);
    webReadOnlyBox->addWidget(webReadOnlyHint);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_environment);
    layout->addSpacing(4);
    layout->addWidget(m_nothing);
    layout->addWidget(m_registries);
    layout->addLayout(registriesBox);
    layout->addWidget(m_webReadOnly);
    layout->addLayout(webReadOnlyBox);
    layout->addWidget(m_hosts);
    layout->addLayout(hosts, 1);
    layout->addWidget(note);
    layout->addSpacing(8);
    layout->addWidget(m_secrets, 1);

    connect(m_add, &QPushButton::clicked, this, [this] {
        if (addHost(m_newHost->text())) {
            m_newHost->clear();
        }
    });
    connect(m_newHost, &QLineEdit::returnPressed, m_add, &QPushButton::click);
    connect(m_newHost, &QLineEdit::textChanged, this, [this] { updateControls(); });
    connect(m_remove, &QPushButton::clicked, this, &NetworkPage::removeCurrent);
    connect(m_choices, &QButtonGroup::idToggled, this, [this] { updateControls(); });
    connect(m_model, &NetworkHostModel::refused, this, &NetworkPage::showProblem);
    connect(m_model, &NetworkHostModel::dataChanged, this, [this] { showProblem({}); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] { updateControls(); });
    connect(m_model, &NetworkHostModel::modelReset, this, [this] { updateControls(); });
    connect(m_model, &NetworkHostModel::rowsRemoved, this, [this] { updateControls(); });
    updateControls();
}

void NetworkPage::setAllowList(const NetworkAllowList &allowed)
{
    showProblem({});
    if (allowed.isEmpty()) {
        m_model->setAllowList({});
        m_nothing->setChecked(true);
    } else if (allowed == registries()) {
        m_model->setAllowList({});
        m_registries->setChecked(true);
    } else if (allowed == webReadOnly()) {
        m_model->setAllowList({});
        m_webReadOnly->setChecked(true);
    } else {
        m_model->setAllowList(allowed);
        m_hostsReadOnly->setChecked(allowed.isReadOnly());
        m_hosts->setChecked(true);
    }
    updateControls();
}

NetworkAllowList NetworkPage::allowList() const
{
    switch (choice()) {
    case Choice::Registries:
        return registries();
    case Choice::WebReadOnly:
        return webReadOnly();
    case Choice::Hosts:
        return NetworkAllowList(m_model->allowList().hosts(),
                                m_hostsReadOnly->isChecked() && !m_model->allowList().isEmpty());
    case Choice::Nothing:
    default:
        return {};
    }
}

NetworkPage::Choice NetworkPage::choice() const
{
    return Choice(m_choices->checkedId());
}

void NetworkPage::setEnvironmentValue(const QString &value)
{
    m_fromEnvironment = !value.isNull();
    if (m_fromEnvironment) {
        auto allowed = NetworkAllowList::parse(value);
        const QString what = !allowed ? value : allowed->isEmpty() ? tr("nothing") : allowed->text();
        m_environment->setText(tr("LLM_SANDBOX_NETWORK_ALLOW is set where LLM Sandbox started, and it wins over "
                                  "this page: runs may reach %1. Unset it to choose here.")
                                   .arg(what));
    }
    m_environment->setVisible(m_fromEnvironment);
    updateControls();
}

bool NetworkPage::addHost(const QString &text)
{
    if (m_fromEnvironment) {
        return false;
    }
    if (!m_model->addEntry(text)) {
        return false; // refused() showed why
    }
    showProblem({});
    m_hosts->setChecked(true);
    m_view->setCurrentIndex(m_model->index(m_model->rowCount() - 1));
    return true;
}

QString NetworkPage::problem() const
{
    return m_problem->text();
}

void NetworkPage::removeCurrent()
{
    m_model->removeEntry(m_view->currentIndex().row());
    showProblem({});
}

void NetworkPage::showProblem(const QString &problem)
{
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
}

void NetworkPage::updateControls()
{
    const bool editable = !m_fromEnvironment;
    for (QRadioButton *button : {m_nothing, m_registries, m_webReadOnly, m_hosts}) {
        button->setEnabled(editable);
    }
    // The list stays while another choice is made: choosing "These hosts" again brings it back as it was.
    const bool hosts = editable && choice() == Choice::Hosts;
    m_view->setEnabled(hosts);
    m_hostsReadOnly->setEnabled(hosts);
    m_newHost->setEnabled(editable);
    m_add->setEnabled(editable && !m_newHost->text().trimmed().isEmpty());
    const int row = m_view->currentIndex().row();
    m_remove->setEnabled(hosts && row >= 0 && row < m_model->rowCount());
}

} // namespace sandbox::gui
