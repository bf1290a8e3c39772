#include "gui/settings/NetworkSecretDialog.h"

#include "gui/StateColors.h"
#include "secrets/SecretStore.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace sandbox::gui {

namespace {

const QString kDefaultHeader = QStringLiteral("Authorization: Bearer {}");

QStringList hostsOf(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    return text.split(separators, Qt::SkipEmptyParts);
}

} // namespace

NetworkSecretDialog::NetworkSecretDialog(SecretStore &store, const QStringList &taken, QWidget *parent)
    : NetworkSecretDialog(store, taken, std::nullopt, parent)
{}

NetworkSecretDialog::NetworkSecretDialog(SecretStore &store, const NetworkSecret &existing, QWidget *parent)
    : NetworkSecretDialog(store, {}, existing, parent)
{}

NetworkSecretDialog::NetworkSecretDialog(SecretStore &store, QStringList taken, std::optional<NetworkSecret> existing,
                                         QWidget *parent)
    : QDialog(parent), m_store(store), m_taken(std::move(taken)), m_existing(std::move(existing))
{
    setObjectName(QStringLiteral("secretDialog"));
    setWindowTitle(m_existing ? tr("Edit Secret") : tr("Add Secret"));

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("secretName"));
    m_name->setPlaceholderText(tr("GITHUB_TOKEN"));
    m_name->setToolTip(tr("The environment variable a run finds the placeholder in"));
    m_hosts = new QLineEdit;
    m_hosts->setObjectName(QStringLiteral("secretHosts"));
    m_hosts->setPlaceholderText(tr("api.github.com, uploads.github.com"));
    m_hosts->setToolTip(tr("The hosts the value is sent to, separated by commas: names as they are, without a port "
                           "or a wildcard"));
    m_header = new QLineEdit(kDefaultHeader);
    m_header->setObjectName(QStringLiteral("secretHeader"));
    m_header->setToolTip(tr("The header of each request to those hosts that carries the value, {} where it goes: "
                            "“Authorization: Bearer {}”, “X-Api-Key: {}”"));
    m_value = new QLineEdit;
    m_value->setObjectName(QStringLiteral("secretValue"));
    m_value->setEchoMode(QLineEdit::Password);
    m_value->setPlaceholderText(m_existing ? tr("leave empty to keep the stored value") : tr("the token or key"));
    if (m_existing) {
        m_name->setText(m_existing->name);
        m_name->setReadOnly(true); // another name is another secret: Add it
        m_hosts->setText(m_existing->hosts.join(QStringLiteral(", ")));
        m_header->setText(m_existing->header);
    }

    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("secretNote"));
    m_note->setWordWrap(true);
    m_note->setEnabled(false); // a quiet hint

    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("secretProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText); // it can quote what was typed
    m_problem->setVisible(false);
    QPalette colors = m_problem->palette();
    colors.setColor(QPalette::WindowText, StateColors::of(palette()).failed);
    m_problem->setPalette(colors);

    m_waiting = new QLabel(tr("Waiting for the system keychain… It may ask you to unlock it."));
    m_waiting->setObjectName(QStringLiteral("secretWaiting"));
    m_waiting->setWordWrap(true);
    m_waiting->setVisible(false);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(m_existing ? tr("Save") : tr("Add Secret"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &NetworkSecretDialog::save);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Hosts:"), m_hosts);
    form->addRow(tr("H&eader:"), m_header);
    form->addRow(tr("&Value:"), m_value);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_note);
    layout->addWidget(m_problem);
    layout->addWidget(m_waiting);
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    for (QLineEdit *field : {m_name, m_hosts, m_header, m_value}) {
        connect(field, &QLineEdit::textChanged, this, [this] {
            m_failure.clear();
            update();
        });
    }
    (m_existing ? m_hosts : m_name)->setFocus();
    setMinimumWidth(520);
    update();
}

QString NetworkSecretDialog::problem() const
{
    return m_problem->isVisibleTo(this) ? m_problem->text() : QString();
}

QByteArray NetworkSecretDialog::value() const
{
    return m_value->text().trimmed().toUtf8();
}

std::optional<NetworkSecret> NetworkSecretDialog::binding(QString *problem) const
{
    // Each part checked by what the secrets file accepts (NetworkSecret::make), and said in the user's language.
    const QString name = m_name->text().trimmed();
    if (name.isEmpty()) {
        return std::nullopt;
    }
    if (!NetworkSecret::isValidName(name)) {
        *problem = tr("“%1” cannot be a secret's name: it is the variable a run finds the placeholder in, written in "
                      "capital letters, digits and _, not starting with a digit, at most 64 characters, and not one "
                      "the sandbox sets itself (PATH, HOME, HTTPS_PROXY, LLM_SANDBOX_…).")
                       .arg(name.left(80));
        return std::nullopt;
    }
    if (!m_existing && m_taken.contains(name)) {
        *problem = tr("There is a secret %1 already: select it and choose Edit… to change it.").arg(name);
        return std::nullopt;
    }
    const QStringList hosts = hostsOf(m_hosts->text());
    for (const QString &host : hosts) {
        if (!NetworkSecret::make(name, {host}, kDefaultHeader)) {
            *problem = tr("“%1” is not a host name: a secret is sent to host names as they are, without a port, a "
                          "wildcard or an address, such as api.github.com.")
                           .arg(host.left(260));
            return std::nullopt;
        }
    }
    if (!NetworkSecret::make(name, {QStringLiteral("example.org")}, m_header->text())) {
        *problem = tr("The header is “Name: value” with {} once where the value goes, in printable ASCII without "
                      "quotes or backslashes, such as “Authorization: Bearer {}”.");
        return std::nullopt;
    }
    if (hosts.isEmpty()) {
        return std::nullopt;
    }
    const QByteArray typed = value();
    if (!typed.isEmpty() && !NetworkSecret::checkValue(typed)) {
        *problem = typed.size() > 8 * 1024
                       ? tr("The value is longer than 8 KiB.")
                       : tr("The value can go into a header only as printable ASCII, without quotes or backslashes.");
        return std::nullopt;
    }
    if (typed.isEmpty() && !m_existing) {
        return std::nullopt;
    }
    auto made = NetworkSecret::make(name, hosts, m_header->text());
    if (!made) {
        *problem = made.error().message;
        return std::nullopt;
    }
    return *made;
}

void NetworkSecretDialog::update()
{
    const QString name = m_name->text().trimmed();
    const QString variable = NetworkSecret::isValidName(name) ? name : QStringLiteral("NAME");
    m_note->setText(tr("A run that may reach one of the hosts sees only a placeholder in $%1. The egress proxy puts "
                       "the value into this header of the HTTPS requests to those hosts that carry the placeholder "
                       "there, and nowhere else. The value is kept in the system keychain, never in a file.")
                        .arg(variable));
    QString fieldProblem;
    const bool valid = binding(&fieldProblem).has_value();
    const QString problem = m_failure.isEmpty() ? fieldProblem : m_failure;
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty() && !m_busy);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(valid && !m_busy);
    // A window does not grow by itself when a wrapped text gets longer: it does here, so that none is cut.
    if (isVisible() && layout()) {
        layout()->activate();
        if (const int needed = heightForWidth(width()); needed > height()) {
            resize(width(), needed);
        }
    }
}

void NetworkSecretDialog::save()
{
    QString problem;
    std::optional<NetworkSecret> made = binding(&problem);
    if (!made || m_busy) {
        return;
    }
    m_failure.clear();
    // The file must be one before anything is stored; it is read again once the keychain answered.
    if (auto secrets = NetworkSecretsFile::load(); !secrets) {
        fail(secrets.error().message);
        return;
    }
    const QByteArray typed = value();
    if (typed.isEmpty()) {
        made->createdAt = m_existing->createdAt; // the value stays as it was stored
        writeBinding(*made);
        return;
    }
    setBusy(true);
    // Bound to this dialog: cancelled before the keychain answers, the binding is not written (a value the keychain
    // kept anyway is bound to nothing, and never sent).
    m_store.set(NetworkSecret::keychainKey(made->name), typed)
        .then(this, [this, binding = *made](const Result<void> &stored) {
            setBusy(false);
            if (!isVisible()) {
                return;
            }
            if (!stored) {
                fail(tr("The system keychain could not keep the value: %1. Nothing was stored; start a keychain "
                        "(such as GNOME Keyring or KWallet) and try again.")
                         .arg(stored.error().message));
                return;
            }
            writeBinding(binding);
        });
}

void NetworkSecretDialog::writeBinding(const NetworkSecret &binding)
{
    // Read again: `llm-sandbox secrets` may have changed it meanwhile.
    auto secrets = NetworkSecretsFile::load();
    if (!secrets) {
        fail(secrets.error().message);
        return;
    }
    const QString name = binding.name;
    secrets->removeIf([&name](const NetworkSecret &each) { return each.name == name; });
    secrets->append(binding);
    if (auto written = NetworkSecretsFile::save(*secrets); !written) {
        fail(tr("The secrets file could not be written: %1").arg(written.error().message));
        return;
    }
    m_value->clear();
    emit saved(name);
    accept();
}

void NetworkSecretDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_waiting->setVisible(busy);
    for (QLineEdit *field : {m_name, m_hosts, m_header, m_value}) {
        field->setEnabled(!busy);
    }
    update();
}

void NetworkSecretDialog::fail(const QString &problem)
{
    m_failure = problem;
    update();
}

} // namespace sandbox::gui
