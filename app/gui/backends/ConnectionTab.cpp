#include "gui/backends/ConnectionTab.h"

#include "AppContext.h"
#include "DiagnosisText.h"
#include "backend/BackendFactory.h"
#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/backends/BackendPanel.h"
#include "settings/UserSettings.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::gui {

namespace {

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

} // namespace

ConnectionTab::ConnectionTab(BackendPanel &panel) : m_panel(panel)
{
    setObjectName(QStringLiteral("connectionTab"));
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    const auto field = [&](QLineEdit *&edit, const QString &objectName, const QString &label,
                           const QString &placeholder, const QString &tip) {
        edit = new QLineEdit;
        edit->setObjectName(objectName);
        edit->setPlaceholderText(placeholder);
        edit->setToolTip(tip);
        edit->setClearButtonEnabled(true);
        form->addRow(label, edit);
    };
    const BackendConnection saved = m_panel.app().userSettings().connection();
    QStringList variables;
    if (m_panel.name() == QLatin1String("docker")) {
        field(m_dockerHost, QStringLiteral("dockerHost"), tr("Engine (DOCKER_HOST):"),
              QStringLiteral("unix:///var/run/docker.sock"),
              tr("unix:///path/to/docker.sock or tcp://host:2376, as the docker command reads DOCKER_HOST."));
        m_dockerHost->setText(saved.dockerHost);
        m_dockerTlsPath = new QLineEdit(saved.dockerTlsPath);
        m_dockerTlsPath->setObjectName(QStringLiteral("dockerTlsPath"));
        m_dockerTlsPath->setPlaceholderText(tr("none: no TLS"));
        m_dockerTlsPath->setToolTip(tr("The folder with ca.pem, cert.pem and key.pem (DOCKER_CERT_PATH); set, the "
                                       "engine's certificate is verified."));
        auto *browse = new QToolButton;
        browse->setText(QStringLiteral("…"));
        browse->setToolTip(tr("Choose the folder"));
        connect(browse, &QToolButton::clicked, this, [this] {
            const QString folder = QFileDialog::getExistingDirectory(this, tr("TLS folder"), m_dockerTlsPath->text());
            if (!folder.isEmpty()) {
                m_dockerTlsPath->setText(folder);
            }
        });
        auto *row = new QHBoxLayout;
        row->addWidget(m_dockerTlsPath, 1);
        row->addWidget(browse);
        form->addRow(tr("TLS folder (DOCKER_CERT_PATH):"), row);
        variables = {QStringLiteral("DOCKER_HOST"), QStringLiteral("DOCKER_CERT_PATH"),
                     QStringLiteral("DOCKER_TLS_VERIFY")};
    } else if (m_panel.name() == QLatin1String("podman")) {
        field(m_containerHost, QStringLiteral("containerHost"), tr("Service (CONTAINER_HOST):"),
              QStringLiteral("unix:///run/podman/podman.sock"),
              tr("The socket of Podman's API service (podman system service), as podman-remote reads "
                 "CONTAINER_HOST."));
        m_containerHost->setText(saved.containerHost);
        variables = {QStringLiteral("CONTAINER_HOST")};
    } else {
        field(m_kubeconfig, QStringLiteral("kubeconfig"), tr("Kubeconfig (KUBECONFIG):"),
              QStringLiteral("~/.kube/config"), tr("The kubeconfig file, as kubectl reads KUBECONFIG."));
        m_kubeconfig->setText(saved.kubeconfig);
        field(m_kubeContext, QStringLiteral("kubeContext"), tr("Context:"), tr("the file's current-context"),
              tr("A context of the kubeconfig (LLM_SANDBOX_KUBE_CONTEXT)."));
        m_kubeContext->setText(saved.kubeContext);
        field(m_kubeNamespace, QStringLiteral("kubeNamespace"), tr("Namespace (NAMESPACE):"),
              tr("the context's, else default"), tr("Where sandbox pods run."));
        m_kubeNamespace->setText(saved.kubeNamespace);
        variables = {QStringLiteral("KUBECONFIG"), QStringLiteral("LLM_SANDBOX_KUBE_CONTEXT"),
                     QStringLiteral("NAMESPACE"), QStringLiteral("LLM_SANDBOX_REGISTRY")};
    }
    QStringList set;
    for (const QString &variable : variables) {
        if (!qEnvironmentVariableIsEmpty(variable.toLatin1().constData())) {
            set << QStringLiteral("%1=%2").arg(variable, qEnvironmentVariable(variable.toLatin1().constData()));
        }
    }
    m_environmentNote = new QLabel(
        set.isEmpty()
            ? QString()
            : tr("Set in the environment, and used instead of the fields: %1").arg(set.join(QStringLiteral(", "))));
    m_environmentNote->setObjectName(QStringLiteral("environmentNote"));
    m_environmentNote->setWordWrap(true);
    m_environmentNote->setVisible(!set.isEmpty());

    m_default = new QCheckBox(tr("Default backend (runs that name none use it: the app, and the MCP servers "
                                 "assistants start)"));
    m_default->setObjectName(QStringLiteral("defaultBackend"));
    connect(m_default, &QCheckBox::toggled, this, [this](bool checked) {
        if (checked) {
            m_panel.app().userSettings().setBackend(m_panel.name());
        } else if (m_panel.app().userSettings().backend() == m_panel.name()) {
            m_panel.app().userSettings().setBackend({});
        }
    });

    m_save = new QPushButton(tr("Save"));
    m_save->setObjectName(QStringLiteral("saveConnection"));
    m_save->setToolTip(tr("Keep these settings in llm-sandbox.ini and use them for this window's next runs; the MCP "
                          "servers assistants start read them when they start."));
    connect(m_save, &QPushButton::clicked, this, &ConnectionTab::save);
    m_test = new QPushButton(tr("Test connection"));
    m_test->setObjectName(QStringLiteral("testConnection"));
    m_test->setToolTip(tr("Reach the engine with the fields as typed, and start a sandbox to see which limits are in "
                          "force (as llm-sandbox doctor)."));
    connect(m_test, &QPushButton::clicked, this, &ConnectionTab::testConnection);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_save);
    buttons->addWidget(m_test);
    buttons->addStretch();

    m_testResult = new QLabel;
    m_testResult->setObjectName(QStringLiteral("testResult"));
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_testResult->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_testResult->setText(tr("Not tested yet."));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_environmentNote);
    layout->addWidget(m_default);
    layout->addLayout(buttons);
    layout->addWidget(m_testResult, 1);

    connect(&m_testing, &QFutureWatcherBase::finished, this, [this] {
        m_diagnosis = m_testing.result();
        showDiagnosis();
        m_test->setEnabled(true);
        emit testFinished();
    });
    connect(&m_panel.app().userSettings(), &UserSettings::changed, this, &ConnectionTab::updateDefault);
    updateDefault();
}

ConnectionTab::~ConnectionTab()
{
    m_testing.disconnect(this);
    m_testing.waitForFinished();
}

BackendConnection ConnectionTab::typed(BackendConnection connection) const
{
    const auto text = [](const QLineEdit *edit, QString &field) {
        if (edit) {
            field = edit->text().trimmed();
        }
    };
    text(m_dockerHost, connection.dockerHost);
    text(m_dockerTlsPath, connection.dockerTlsPath);
    text(m_containerHost, connection.containerHost);
    text(m_kubeconfig, connection.kubeconfig);
    text(m_kubeContext, connection.kubeContext);
    text(m_kubeNamespace, connection.kubeNamespace);
    return connection;
}

void ConnectionTab::save()
{
    m_panel.applyConnection(m_panel.connection());
    m_testResult->setText(tr("Saved and applied: new runs use it; runs in progress finish on the previous connection. "
                             "Assistants' MCP servers use it from their next start."));
}

void ConnectionTab::testConnection()
{
    if (m_testing.isRunning()) {
        return;
    }
    m_testResult->setText(tr("Testing %1…").arg(backendText(m_panel.name())));
    m_diagnosis.reset();
    auto backend = BackendFactory::create(m_panel.name(), m_panel.connection());
    m_testing.setFuture(QtConcurrent::run([name = m_panel.name(), backend, app = &m_panel.app()] {
        return BackendDiagnosis::run(name, backend, app->settings(), app->catalog());
    }));
    m_test->setEnabled(false);
}

void ConnectionTab::showReachable(const BackendInfo &info, const QString &error)
{
    if (m_diagnosis || m_testing.isRunning()) {
        return; // the test's answer says more
    }
    const QString title = backendText(m_panel.name());
    m_testResult->setText(
        error.isEmpty()
            ? tr("%1 %2 answers at %3 (API %4). Test Connection also starts a sandbox and shows the limits in force.")
                  .arg(title, info.version, info.endpoint, info.apiVersion)
            : QStringLiteral("<p>%1</p>") // rich text, whatever the error holds
                  .arg(tr("%1 does not answer: %2").arg(title.toHtmlEscaped(), htmlWithCode(error))));
}

void ConnectionTab::showDiagnosis()
{
    const BackendDiagnosis &diagnosis = *m_diagnosis;
    const StateColors colors = StateColors::of(palette());
    if (diagnosis.state != BackendDiagnosis::State::Reachable) {
        m_testResult->setText(
            QStringLiteral("<p><b style='color:%1'>%2</b></p><p>%3</p>")
                .arg(colors.failed.name(),
                     diagnosis.state == BackendDiagnosis::State::Unavailable ? tr("Not usable") : tr("Not reachable"),
                     htmlWithCode(diagnosisSummary(diagnosis))));
        return;
    }
    const BackendInfo &info = diagnosis.info;
    QStringList rows;
    const auto row = [&rows](const QString &label, const QString &value) {
        rows << QStringLiteral("<tr><td style='padding-right:12px'>%1</td><td>%2</td></tr>").arg(label, value);
    };
    row(tr("Version"), escaped(info.version));
    row(tr("API version"), escaped(info.apiVersion));
    row(tr("Endpoint"), escaped(info.endpoint));
    row(tr("System"), escaped(info.os));
    row(tr("Mode"), info.rootless ? tr("rootless") : tr("rootful"));
    const QString cgroup = diagnosis.limits && diagnosis.limits->cgroupVersion > 0
                               ? QString::number(diagnosis.limits->cgroupVersion)
                               : info.cgroupVersion;
    row(tr("cgroup version"), cgroup.isEmpty() ? tr("unknown") : QStringLiteral("v") + escaped(cgroup));
    row(tr("Runtimes"), diagnosis.runtimeList().isEmpty() ? tr("not reported") : escaped(diagnosis.runtimeList()));
    row(tr("Sandboxes run under"), escaped(diagnosis.sandboxRuntimeText()));
    if (!diagnosis.kubernetesNamespace.isEmpty()) {
        row(tr("Namespace"),
            escaped(QStringLiteral("%1 (%2)").arg(diagnosis.kubernetesNamespace, diagnosis.kubernetesConfigSource)));
    }
    if (diagnosis.permissions) {
        QStringList denied;
        if (!*diagnosis.permissions) {
            denied << escaped(diagnosis.permissions->error().message);
        } else {
            for (const KubernetesBackend::Permission &permission : **diagnosis.permissions) {
                if (!permission.allowed) {
                    denied << escaped(permission.verb + u' ' + permission.resource);
                }
            }
        }
        row(tr("Permissions"),
            denied.isEmpty()
                ? tr("all granted")
                : tr("denied: %1 (installer/kubernetes/role.yaml grants them)").arg(denied.join(QStringLiteral(", "))));
    }
    QString limits;
    if (!diagnosis.limits) {
        limits = tr("not checked (%1)").arg(escaped(diagnosis.limitsNotChecked));
    } else if (diagnosis.unenforced.isEmpty()) {
        limits = diagnosis.runtimeNote.isEmpty() ? tr("every requested limit is in force")
                                                 : tr("every other requested limit is in force");
    } else {
        QStringList missing;
        for (const UnenforcedLimit &limit : diagnosis.unenforced) {
            missing << tr("%1 (asked for %2, found %3)")
                           .arg(escaped(limit.name), escaped(limit.requested), escaped(limit.found));
        }
        limits = QStringLiteral("<span style='color:%1'>%2</span><br>%3")
                     .arg(colors.timedOut.name(), tr("Cannot enforce: %1").arg(missing.join(QStringLiteral("; "))),
                          escaped(diagnosis.whyNotEnforced));
    }
    if (!diagnosis.runtimeNote.isEmpty()) {
        limits += QStringLiteral("<br>") + escaped(diagnosis.runtimeNote);
    }
    row(tr("Limits"), limits);
    m_testResult->setText(QStringLiteral("<p><b style='color:%1'>%2</b></p><table>%3</table>")
                              .arg(colors.succeeded.name(), tr("Reachable"), rows.join(QString())));
}

QString ConnectionTab::testResultText() const
{
    QTextDocument document;
    document.setHtml(m_testResult->text());
    return document.toPlainText();
}

void ConnectionTab::updateDefault()
{
    const QSignalBlocker blocker(m_default);
    m_default->setChecked(m_panel.app().userSettings().chosenBackend() == m_panel.name());
}

} // namespace sandbox::gui
