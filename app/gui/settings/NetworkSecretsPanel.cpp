#include "gui/settings/NetworkSecretsPanel.h"

#include "gui/StateColors.h"
#include "gui/settings/NetworkSecretDialog.h"
#include "gui/settings/NetworkSecretModel.h"
#include "secrets/SecretStore.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace sandbox::gui {

NetworkSecretsPanel::NetworkSecretsPanel(SecretStore &store, QWidget *parent) : QWidget(parent), m_store(store)
{
    setObjectName(QStringLiteral("networkSecrets"));
    auto *heading = new QLabel(tr("Secrets"));
    heading->setObjectName(QStringLiteral("networkSecretsHeading"));
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    auto *hint = new QLabel(tr("Tokens and keys that runs use without ever seeing them. A run that may reach one of a "
                               "secret's hosts sees only a placeholder in $NAME; the egress proxy puts the value into "
                               "the secret's header of the HTTPS requests to those hosts. Values stay in the system "
                               "keychain. A secret is kept or removed at once, not on OK."));
    hint->setObjectName(QStringLiteral("networkSecretsHint"));
    hint->setWordWrap(true);
    hint->setEnabled(false); // a quiet hint, as the page's others

    m_model = new NetworkSecretModel(this);
    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("networkSecretList"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    // Whole names, headers and dates; the hosts take the rest (each on a line of its tooltip).
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(NetworkSecretModel::Hosts, QHeaderView::Stretch);
    m_view->horizontalHeader()->setStretchLastSection(false);
    // As high as its rows, three at least: the settings dialog fits a small screen, and grows with it.
    m_view->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_view->setMinimumHeight(m_view->horizontalHeader()->sizeHint().height() +
                             3 * m_view->verticalHeader()->defaultSectionSize() + 2 * m_view->frameWidth());

    m_add = new QPushButton(tr("Add &Secret…"));
    m_add->setObjectName(QStringLiteral("networkSecretAdd"));
    m_add->setToolTip(tr("Keep a token or key for runs to use with the hosts you name"));
    m_edit = new QPushButton(tr("&Edit…"));
    m_edit->setObjectName(QStringLiteral("networkSecretEdit"));
    m_edit->setToolTip(tr("Change the selected secret's hosts, header or value"));
    m_remove = new QPushButton(tr("Re&move Secret"));
    m_remove->setObjectName(QStringLiteral("networkSecretRemove"));
    m_remove->setToolTip(tr("Delete the selected secret's value from the system keychain and forget it"));

    m_waiting = new QLabel(tr("Waiting for the system keychain…"));
    m_waiting->setObjectName(QStringLiteral("networkSecretWaiting"));
    m_waiting->setVisible(false);

    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("networkSecretProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setVisible(false);
    QPalette colors = m_problem->palette();
    colors.setColor(QPalette::WindowText, StateColors::of(palette()).failed);
    m_problem->setPalette(colors);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_edit);
    buttons->addWidget(m_remove);
    buttons->addSpacing(12);
    buttons->addWidget(m_waiting);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(heading);
    layout->addWidget(hint);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_problem);

    connect(m_add, &QPushButton::clicked, this, &NetworkSecretsPanel::addSecret);
    connect(m_edit, &QPushButton::clicked, this, &NetworkSecretsPanel::editCurrent);
    connect(m_view, &QTableView::doubleClicked, this, &NetworkSecretsPanel::editCurrent);
    connect(m_remove, &QPushButton::clicked, this, &NetworkSecretsPanel::removeCurrent);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &NetworkSecretsPanel::updateButtons);
    connect(m_model, &NetworkSecretModel::modelReset, this, &NetworkSecretsPanel::updateButtons);
    reload();
}

void NetworkSecretsPanel::reload()
{
    const QString current = m_view->currentIndex().siblingAtColumn(NetworkSecretModel::Name).data().toString();
    auto secrets = NetworkSecretsFile::load();
    m_readable = bool(secrets);
    m_model->setSecrets(secrets ? *secrets : QList<NetworkSecret>());
    // Not written over: a file that is not one is the user's to fix.
    showProblem(secrets ? QString() : secrets.error().message);
    select(current);
}

QString NetworkSecretsPanel::problem() const
{
    return m_problem->text();
}

NetworkSecretDialog *NetworkSecretsPanel::addSecret()
{
    if (m_busy || !m_readable) {
        return nullptr;
    }
    QStringList taken;
    for (const NetworkSecret &secret : m_model->secrets()) {
        taken << secret.name;
    }
    return open(new NetworkSecretDialog(m_store, taken, this));
}

NetworkSecretDialog *NetworkSecretsPanel::editCurrent()
{
    const int row = m_view->currentIndex().row();
    if (m_busy || !m_readable || row < 0 || row >= m_model->rowCount()) {
        return nullptr;
    }
    return open(new NetworkSecretDialog(m_store, m_model->secrets().at(row), this));
}

NetworkSecretDialog *NetworkSecretsPanel::open(NetworkSecretDialog *dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NetworkSecretDialog::saved, this, [this](const QString &name) {
        reload();
        select(name);
    });
    dialog->open();
    return dialog;
}

void NetworkSecretsPanel::removeCurrent()
{
    const int row = m_view->currentIndex().row();
    if (m_busy || !m_readable || row < 0 || row >= m_model->rowCount()) {
        return;
    }
    const NetworkSecret secret = m_model->secrets().at(row);
    QMessageBox question(QMessageBox::Question, tr("Remove Secret"),
                         tr("Remove the secret %1? Its value is deleted from the system keychain, and runs no longer "
                            "get it for %2.")
                             .arg(secret.name, secret.hosts.join(QStringLiteral(", "))),
                         QMessageBox::NoButton, this);
    question.setObjectName(QStringLiteral("removeSecretQuestion"));
    QPushButton *removeButton = question.addButton(tr("Remove Secret"), QMessageBox::AcceptRole);
    question.addButton(QMessageBox::Cancel);
    question.setDefaultButton(QMessageBox::Cancel);
    question.exec();
    if (question.clickedButton() == removeButton) {
        remove(secret.name);
    }
}

void NetworkSecretsPanel::remove(const QString &name)
{
    if (m_busy) {
        return;
    }
    showProblem({});
    setBusy(true);
    m_store.remove(NetworkSecret::keychainKey(name)).then(this, [this, name](const Result<void> &removed) {
        setBusy(false);
        if (!removed) {
            showProblem(tr("The system keychain could not delete the value of %1: %2. The secret stays.")
                            .arg(name, removed.error().message));
            return;
        }
        // Read again: `llm-sandbox secrets` may have changed it meanwhile.
        auto secrets = NetworkSecretsFile::load();
        if (!secrets) {
            showProblem(secrets.error().message);
            return;
        }
        secrets->removeIf([&name](const NetworkSecret &each) { return each.name == name; });
        if (auto written = NetworkSecretsFile::save(*secrets); !written) {
            showProblem(tr("The value of %1 is deleted, but the secrets file could not be written: %2")
                            .arg(name, written.error().message));
            return;
        }
        reload();
    });
}

void NetworkSecretsPanel::select(const QString &name)
{
    const int row = m_model->rowOf(name);
    if (row >= 0) {
        m_view->setCurrentIndex(m_model->index(row, NetworkSecretModel::Name));
    }
    updateButtons();
}

void NetworkSecretsPanel::showProblem(const QString &problem)
{
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
}

void NetworkSecretsPanel::setBusy(bool busy)
{
    m_busy = busy;
    m_waiting->setVisible(busy);
    updateButtons();
}

void NetworkSecretsPanel::updateButtons()
{
    const int row = m_view->currentIndex().row();
    const bool selected = row >= 0 && row < m_model->rowCount();
    const bool usable = !m_busy && m_readable;
    m_add->setEnabled(usable);
    m_edit->setEnabled(usable && selected);
    m_remove->setEnabled(usable && selected);
}

} // namespace sandbox::gui
