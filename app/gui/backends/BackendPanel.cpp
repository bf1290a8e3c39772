#include "gui/backends/BackendPanel.h"

#include "AppContext.h"
#include "DiagnosisText.h"
#include "ErrorText.h"
#include "backend/BackendFactory.h"
#include "engine/ContainerSpecFactory.h"
#include "engine/OrphanReaper.h"
#include "gui/RunText.h"
#include "gui/StateColors.h"
#include "gui/backends/ImageTableModel.h"
#include "gui/backends/SandboxTableModel.h"
#include "images/ImageBuilder.h"
#include "images/ImagePusher.h"
#include "journal/JournalReader.h"
#include "lang/LanguageRegistry.h"
#include "secrets/RegistryCredentialStore.h"
#include "secrets/SecretStore.h"
#include "settings/UserSettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTextDocument>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::gui {

namespace {

constexpr auto kSandboxRefresh = std::chrono::seconds(3);

QTableView *makeTable(QAbstractItemModel *model, const QString &objectName)
{
    auto *view = new QTableView;
    view->setObjectName(objectName);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

using StoredLogin = Result<std::optional<RegistryCredentials>>;

/// The login the keychain keeps for `registry` (`images login`), once `lookup` has it, waited for on the push's
/// thread. The lookup itself was started on the GUI thread, where QtKeychain wants its jobs (its job executor lives in
/// the thread that first used it: the GUI's, for the MCP server's token; a job from another thread crashes it there),
/// and it goes on asynchronously over D-Bus while this thread waits, so a keychain that waits for its unlock password
/// never holds the GUI thread. None when there is none or no keychain answers (a registry that wants no login takes
/// the push anyway; one that does refuses it, and says so); Cancelled once `cancelled` is set.
Result<RegistryCredentials> storedLogin(const QFuture<StoredLogin> &lookup, const QString &registry,
                                        const std::atomic_bool &cancelled, const ProgressCallback &report)
{
    // The keychain cannot be cancelled; the wait can.
    while (!lookup.isFinished() && !cancelled) {
        QThread::msleep(50);
    }
    if (cancelled) {
        return Error{QStringLiteral("The push to %1 was cancelled.").arg(registry), ErrorCode::Cancelled};
    }
    if (lookup.resultCount() == 0) {
        report(BackendPanel::tr("The system keychain gave no answer; pushing without a login."));
        return RegistryCredentials{};
    }
    const StoredLogin stored = lookup.result();
    if (!stored) {
        report(BackendPanel::tr("No login from the system keychain (%1); pushing without one.")
                   .arg(stored.error().message));
        return RegistryCredentials{};
    }
    if (!stored->has_value()) {
        report(BackendPanel::tr("No login kept for %1; pushing without one.").arg(registry));
        return RegistryCredentials{};
    }
    report(BackendPanel::tr("Using the login of %1 for %2 from the system keychain.")
               .arg((*stored)->username, (*stored)->serverAddress));
    return **stored;
}

} // namespace

/// One job of the Images tab — a build, copy or push: the catalog it works from, the builder or pusher (which Cancel
/// reaches from the GUI thread) and the engines it uses, alive until the job's thread is done with them. `target`
/// and `copySource` (when given) have an image store: the caller checks.
struct BackendPanel::ImageJob
{
    ImageJob(AppContext &app, std::shared_ptr<ContainerBackend> target, std::shared_ptr<ContainerBackend> copySource,
             BuildKind what)
        : catalog(app.catalog()), backend(std::move(target)), source(std::move(copySource)), kind(what),
          builder(*backend, catalog), pusher(*backend->imageStore(), catalog)
    {
        builder.setCopySource(source ? source->imageStore() : nullptr);
    }

    void cancel()
    {
        cancelled = true;
        builder.cancel();
        pusher.cancel();
    }

    const ImageCatalog catalog;
    const std::shared_ptr<ContainerBackend> backend; ///< built into, or pushed from
    const std::shared_ptr<ContainerBackend> source;  ///< copied from
    const BuildKind kind;
    ImageBuilder builder;
    ImagePusher pusher;
    std::atomic_bool cancelled = false; ///< also stops the wait for the keychain
    QString registry;                   ///< pushed to
    QStringList languages;              ///< pushed
    QStringList pushed;                 ///< the references pushed, once the job's thread is done
};

BackendPanel::BackendPanel(AppContext &app, SecretStore &secrets, QString name, QWidget *parent)
    : QWidget(parent), m_app(app), m_secrets(secrets), m_name(std::move(name))
{
    setObjectName(m_name + QStringLiteral("Panel"));
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("backendTabs"));
    m_tabs->addTab(makeConnectionTab(), tr("Connection"));
    m_tabs->addTab(makeImagesTab(), tr("Images"));
    m_tabs->addTab(makeSandboxesTab(), tr("Sandboxes now"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(&m_testing, &QFutureWatcherBase::finished, this, [this] {
        m_diagnosis = m_testing.result();
        showDiagnosis();
        updateButtons();
        emit testFinished();
    });
    connect(&m_imagesReading, &QFutureWatcherBase::finished, this, [this] {
        showImages(m_imagesReading.result());
        emit imagesLoaded();
    });
    connect(&m_building, &QFutureWatcherBase::finished, this, [this] {
        const Result<void> built = m_building.result();
        const std::shared_ptr<ImageJob> job = std::exchange(m_imageJob, nullptr);
        if (built) {
            m_buildProgress->setRange(0, std::max(m_buildProgress->maximum(), 1));
            m_buildProgress->setValue(m_buildProgress->maximum());
        } else if (m_buildProgress->maximum() == 0) {
            m_buildProgress->setRange(0, 1); // no busy indicator once nothing is busy
        }
        QString status;
        if (!built) {
            // The engine's "has no image" says the sandbox image could not be built, which a push never tries.
            status = job->kind == BuildKind::Push && built.error().code == ErrorCode::ImageMissing
                         ? tr("Not pushed: the image is not there.") + u'\n' + built.error().message
                         : errorText(built.error());
        } else if (job->kind == BuildKind::Push) {
            const QDateTime now = QDateTime::currentDateTimeUtc();
            for (qsizetype index = 0; index < job->pushed.size() && index < job->languages.size(); ++index) {
                m_imageModel->setPushed(job->languages.at(index), job->pushed.at(index), now);
            }
            status = tr("Done: pushed %n image(s) to %1; Kubernetes pods pull them from there.", nullptr,
                        int(job->pushed.size()))
                         .arg(job->registry);
        } else {
            status = job->kind == BuildKind::Rebuild ? tr("Done: the images are built again.")
                                                     : tr("Done: every image is there.");
        }
        m_buildStatus->setText(status);
        updateButtons();
        refreshImages();
        emit buildFinished(bool(built));
    });
    connect(&m_pruning, &QFutureWatcherBase::finished, this, [this] {
        const auto pruned = m_pruning.result();
        if (!pruned) {
            m_buildStatus->setText(errorText(pruned.error()));
        } else {
            QString text = tr("Removed %n old image(s), %1.", nullptr, int(pruned->removed.size()))
                               .arg(ImageTableModel::sizeText(pruned->bytes));
            if (!pruned->kept.isEmpty()) {
                text += u' ' + tr("Kept %n that containers still use.", nullptr, int(pruned->kept.size()));
            }
            m_buildStatus->setText(text);
        }
        updateButtons();
        refreshImages();
        emit pruneFinished();
    });
    connect(&m_sandboxesReading, &QFutureWatcherBase::finished, this, [this] {
        showSandboxes(m_sandboxesReading.result());
        emit sandboxesLoaded();
    });
    connect(&m_removing, &QFutureWatcherBase::finished, this, [this] {
        m_sandboxesSummary->setText(m_removing.result());
        updateButtons();
        refreshSandboxes();
    });
    m_sandboxTimer = new QTimer(this);
    m_sandboxTimer->setInterval(kSandboxRefresh);
    connect(m_sandboxTimer, &QTimer::timeout, this, [this] {
        if (m_tabs->currentIndex() == 2) {
            refreshSandboxes();
        }
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (index == 1 && m_imageModel->rowCount() == 0) {
            refreshImages();
        } else if (index == 2) {
            refreshSandboxes();
        }
    });
    connect(&m_app.userSettings(), &UserSettings::changed, this, &BackendPanel::updateDefault);
    updateDefault();
    makeBackend();
    updateButtons();
}

BackendPanel::~BackendPanel()
{
    if (m_imageJob) {
        m_imageJob->cancel();
    }
    for (QFutureWatcherBase *watcher : std::initializer_list<QFutureWatcherBase *>{
             &m_testing, &m_imagesReading, &m_building, &m_pruning, &m_sandboxesReading, &m_removing}) {
        watcher->disconnect(this);
        watcher->waitForFinished();
    }
}

QWidget *BackendPanel::makeConnectionTab()
{
    auto *tab = new QWidget;
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
    const BackendConnection saved = m_app.userSettings().connection();
    QStringList variables;
    if (m_name == QLatin1String("docker")) {
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
    } else if (m_name == QLatin1String("podman")) {
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
            m_app.userSettings().setBackend(m_name);
        } else if (m_app.userSettings().backend() == m_name) {
            m_app.userSettings().setBackend({});
        }
    });

    m_save = new QPushButton(tr("Save"));
    m_save->setObjectName(QStringLiteral("saveConnection"));
    m_save->setToolTip(tr("Keep these settings in llm-sandbox.ini and use them for this window's next runs; the MCP "
                          "servers assistants start read them when they start."));
    connect(m_save, &QPushButton::clicked, this, &BackendPanel::save);
    m_test = new QPushButton(tr("Test connection"));
    m_test->setObjectName(QStringLiteral("testConnection"));
    m_test->setToolTip(tr("Reach the engine with the fields as typed, and start a sandbox to see which limits are in "
                          "force (as llm-sandbox doctor)."));
    connect(m_test, &QPushButton::clicked, this, &BackendPanel::testConnection);
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

    auto *layout = new QVBoxLayout(tab);
    layout->addLayout(form);
    layout->addWidget(m_environmentNote);
    layout->addWidget(m_default);
    layout->addLayout(buttons);
    layout->addWidget(m_testResult, 1);
    return tab;
}

QWidget *BackendPanel::makeImagesTab()
{
    auto *tab = new QWidget;
    m_imageModel = new ImageTableModel(this);
    m_imagesView = makeTable(m_imageModel, QStringLiteral("imagesView"));
    m_imagesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_imagesView->horizontalHeader()->setStretchLastSection(true);
    connect(m_imagesView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &BackendPanel::updateButtons);

    m_build = new QPushButton(tr("Build"));
    m_build->setObjectName(QStringLiteral("buildImage"));
    m_build->setToolTip(tr("Build the images the selected language needs that this engine lacks."));
    connect(m_build, &QPushButton::clicked, this, [this] { build(selectedLanguage()); });
    m_rebuild = new QPushButton(tr("Rebuild"));
    m_rebuild->setObjectName(QStringLiteral("rebuildImage"));
    m_rebuild->setToolTip(tr("Build the selected language's own images again without the engine's cache (fresh "
                             "packages), even when they are there. Each name moves to its new image once that is "
                             "complete; Cancel gives the names back."));
    connect(m_rebuild, &QPushButton::clicked, this, [this] { rebuild(selectedLanguage()); });
    m_copyFrom = new QComboBox;
    m_copyFrom->setObjectName(QStringLiteral("copyFrom"));
    for (const QString &other : BackendFactory::names()) {
        if (other != m_name && other != QLatin1String("kubernetes")) {
            m_copyFrom->addItem(other, other);
        }
    }
    m_copy = new QPushButton(tr("Copy from"));
    m_copy->setObjectName(QStringLiteral("copyImage"));
    m_copy->setToolTip(tr("Copy the selected language's images from the other engine (faster than building); what "
                          "it lacks is built."));
    connect(m_copy, &QPushButton::clicked, this,
            [this] { build(selectedLanguage(), m_copyFrom->currentData().toString()); });
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("cancelBuild"));
    connect(m_cancel, &QPushButton::clicked, this, &BackendPanel::cancelBuild);
    m_prune = new QPushButton(tr("Remove old images"));
    m_prune->setObjectName(QStringLiteral("pruneImages"));
    m_prune->setToolTip(tr("Remove the images of older definitions (llm-sandbox images prune); images a container "
                           "uses stay."));
    connect(m_prune, &QPushButton::clicked, this, &BackendPanel::pruneImages);
    auto *refresh = new QPushButton(tr("Refresh"));
    connect(refresh, &QPushButton::clicked, this, &BackendPanel::refreshImages);

    // Kubernetes: the images come from Docker or Podman through a registry.
    m_registry = new QLineEdit;
    m_registry->setObjectName(QStringLiteral("registry"));
    m_registry->setPlaceholderText(QStringLiteral("registry.example:5000"));
    m_registry->setToolTip(tr("The registry the cluster's nodes pull the sandbox images from (LLM_SANDBOX_REGISTRY, "
                              "which wins when set). Saved when you push; pods then ask for "
                              "REGISTRY/llm-sandbox/NAME:TAG. A login kept with “llm-sandbox images login” is used."));
    m_registry->setClearButtonEnabled(true);
    const QString savedRegistry = m_app.userSettings().connection().registry;
    m_registry->setText(savedRegistry.isEmpty() ? ImagePusher::registryFrom({}) : savedRegistry);
    connect(m_registry, &QLineEdit::textChanged, this, &BackendPanel::updateButtons);
    m_pushFrom = new QComboBox;
    m_pushFrom->setObjectName(QStringLiteral("pushFrom"));
    m_pushFrom->addItem(QStringLiteral("Docker"), QStringLiteral("docker"));
    m_pushFrom->addItem(QStringLiteral("Podman"), QStringLiteral("podman"));
    m_pushFrom->setToolTip(tr("The engine whose images are pushed (and listed above)."));
    connect(m_pushFrom, &QComboBox::currentIndexChanged, this, &BackendPanel::refreshImages);
    m_push = new QPushButton(tr("Push"));
    m_push->setObjectName(QStringLiteral("pushImage"));
    m_push->setToolTip(tr("Push the selected languages' images to the registry, layer by layer. The registry gets "
                          "a tag only once an image is complete there; Cancel leaves no registry name behind."));
    connect(m_push, &QPushButton::clicked, this, [this] { push(selectedLanguages()); });

    auto *buttons = new QHBoxLayout;
    if (isKubernetes()) {
        buttons->addWidget(new QLabel(tr("Registry:")));
        buttons->addWidget(m_registry, 1);
        buttons->addWidget(new QLabel(tr("from")));
        buttons->addWidget(m_pushFrom);
        buttons->addWidget(m_push);
        buttons->addWidget(m_cancel);
        buttons->addWidget(refresh);
        for (QWidget *unused : std::initializer_list<QWidget *>{m_build, m_rebuild, m_copy, m_copyFrom, m_prune}) {
            unused->hide();
        }
        // Several languages go in one push.
        m_imagesView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    } else {
        buttons->addWidget(m_build);
        buttons->addWidget(m_rebuild);
        buttons->addWidget(m_copy);
        buttons->addWidget(m_copyFrom);
        buttons->addWidget(m_cancel);
        buttons->addStretch();
        buttons->addWidget(m_prune);
        buttons->addWidget(refresh);
        for (QWidget *unused : std::initializer_list<QWidget *>{m_registry, m_pushFrom, m_push}) {
            unused->hide();
        }
        m_imagesView->setColumnHidden(ImageTableModel::RegistryColumn, true);
    }

    m_buildProgress = new QProgressBar;
    m_buildProgress->setObjectName(QStringLiteral("buildProgress"));
    m_buildProgress->setRange(0, 1);
    m_buildProgress->setValue(0);
    m_buildProgress->setTextVisible(false); // "0%" while nothing is built says nothing
    m_buildStatus = new QLabel;
    m_buildStatus->setObjectName(QStringLiteral("buildStatus"));
    m_buildStatus->setWordWrap(true);
    m_buildStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_imagesSummary = new QLabel;
    m_imagesSummary->setObjectName(QStringLiteral("imagesSummary"));
    m_imagesSummary->setWordWrap(true);

    auto *layout = new QVBoxLayout(tab);
    layout->addWidget(m_imagesView, 1);
    layout->addWidget(m_imagesSummary);
    layout->addLayout(buttons);
    layout->addWidget(m_buildProgress);
    layout->addWidget(m_buildStatus);
    return tab;
}

QWidget *BackendPanel::makeSandboxesTab()
{
    auto *tab = new QWidget;
    m_sandboxModel = new SandboxTableModel(this);
    m_sandboxesView = makeTable(m_sandboxModel, QStringLiteral("sandboxesView"));
    m_sandboxesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The numbers stay next to each other; the free width is left over at the right.
    m_sandboxesView->horizontalHeader()->setStretchLastSection(false);
    connect(m_sandboxesView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &BackendPanel::updateButtons);
    m_sandboxesSummary = new QLabel;
    m_sandboxesSummary->setObjectName(QStringLiteral("sandboxesSummary"));
    m_sandboxesSummary->setWordWrap(true);
    m_warmPool = new QLabel;
    m_warmPool->setObjectName(QStringLiteral("warmPool"));
    m_warmPool->setWordWrap(true);
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setObjectName(QStringLiteral("stopSandbox"));
    m_stop->setToolTip(tr("Remove the selected sandbox container (a run in it ends as stopped)."));
    connect(m_stop, &QPushButton::clicked, this, [this] { stopSandbox(selectedSandbox()); });
    m_showRun = new QPushButton(tr("Show &Run"));
    m_showRun->setObjectName(QStringLiteral("showSandboxRun"));
    m_showRun->setToolTip(tr("Open the run the selected sandbox runs now in the live log."));
    const auto showRun = [this] {
        if (const JournalRun *run = m_sandboxModel->runIn(selectedSandbox())) {
            emit showRunRequested(run->id);
        }
    };
    connect(m_showRun, &QPushButton::clicked, this, showRun);
    connect(m_sandboxesView, &QAbstractItemView::doubleClicked, this, showRun);
    m_removeLeftovers = new QPushButton(tr("Remove leftovers"));
    m_removeLeftovers->setObjectName(QStringLiteral("removeLeftovers"));
    m_removeLeftovers->setToolTip(tr("Remove the containers of llm-sandbox processes of this computer that ended "
                                     "without removing them (crashed or killed)."));
    connect(m_removeLeftovers, &QPushButton::clicked, this, &BackendPanel::removeLeftovers);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_stop);
    buttons->addWidget(m_showRun);
    buttons->addStretch();
    buttons->addWidget(m_removeLeftovers);
    auto *layout = new QVBoxLayout(tab);
    layout->addWidget(m_sandboxesView, 1);
    layout->addWidget(m_warmPool);
    layout->addWidget(m_sandboxesSummary);
    layout->addLayout(buttons);
    return tab;
}

BackendConnection BackendPanel::connection() const
{
    BackendConnection connection = m_app.userSettings().connection();
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
    if (isKubernetes()) {
        text(m_registry, connection.registry);
    }
    return connection;
}

void BackendPanel::makeBackend()
{
    m_backend = BackendFactory::create(m_name, connection());
}

void BackendPanel::save()
{
    applyConnection(connection());
    m_testResult->setText(tr("Saved and applied: new runs use it; runs in progress finish on the previous connection. "
                             "Assistants' MCP servers use it from their next start."));
    updateButtons();
}

void BackendPanel::applyConnection(const BackendConnection &connection)
{
    m_app.userSettings().setConnection(connection);
    // The app's engine of this backend is made again from the saved connection for the next run; the current one is
    // retired, so runs in progress and open sessions finish where they began.
    m_app.reconnect(m_name);
    makeBackend();
    emit connectionApplied(m_name);
}

void BackendPanel::testConnection()
{
    if (m_testing.isRunning()) {
        return;
    }
    m_testResult->setText(tr("Testing %1…").arg(backendText(m_name)));
    m_diagnosis.reset();
    auto backend = BackendFactory::create(m_name, connection());
    m_testing.setFuture(QtConcurrent::run([name = m_name, backend, app = &m_app] {
        return BackendDiagnosis::run(name, backend, app->settings(), app->catalog());
    }));
    updateButtons();
}

void BackendPanel::showReachable(const BackendInfo &info, const QString &error)
{
    if (m_diagnosis || m_testing.isRunning()) {
        return; // the test's answer says more
    }
    const QString title = backendText(m_name);
    m_testResult->setText(
        error.isEmpty()
            ? tr("%1 %2 answers at %3 (API %4). Test Connection also starts a sandbox and shows the limits in force.")
                  .arg(title, info.version, info.endpoint, info.apiVersion)
            : tr("%1 does not answer: %2").arg(title, error));
}

void BackendPanel::showDiagnosis()
{
    const BackendDiagnosis &diagnosis = *m_diagnosis;
    const StateColors colors = StateColors::of(palette());
    if (diagnosis.state != BackendDiagnosis::State::Reachable) {
        m_testResult->setText(
            QStringLiteral("<p><b style='color:%1'>%2</b></p><p>%3</p>")
                .arg(colors.failed.name(),
                     diagnosis.state == BackendDiagnosis::State::Unavailable ? tr("Not usable") : tr("Not reachable"),
                     escaped(diagnosisSummary(diagnosis))));
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

QString BackendPanel::testResultText() const
{
    QTextDocument document;
    document.setHtml(m_testResult->text());
    return document.toPlainText();
}

void BackendPanel::refreshImages()
{
    if (m_imagesReading.isRunning()) {
        return;
    }
    // A cluster has no image store of its own: the tab shows the engine pushes come from.
    const auto backend = isKubernetes() ? pushSource() : m_backend;
    if (!backend) {
        m_imagesSummary->setText(errorText(backend.error()));
        return;
    }
    m_imagesReading.setFuture(QtConcurrent::run([backend = *backend, app = &m_app] {
        ImageStore *store = backend->imageStore();
        if (!store) {
            const Error none = backend->noImageStore(QStringLiteral("Listing images"));
            return ImagesNow{.images = none, .superseded = none};
        }
        const ImageCatalog catalog = app->catalog();
        const ImageInventory inventory(*store, catalog);
        return ImagesNow{.images = inventory.languages(), .superseded = inventory.superseded()};
    }));
}

void BackendPanel::showImages(const ImagesNow &now)
{
    if (!now.images) {
        m_imageModel->setImages({});
        m_imagesSummary->setText(errorText(now.images.error()));
        updateButtons();
        return;
    }
    const QString selected = selectedLanguage();
    m_imageModel->setImages(*now.images);
    if (!selected.isEmpty()) {
        for (int row = 0; row < m_imageModel->rowCount(); ++row) {
            if (m_imageModel->images().at(row).language == selected) {
                m_imagesView->selectRow(row);
            }
        }
    }
    const auto present = std::count_if(now.images->cbegin(), now.images->cend(),
                                       [](const LanguageImage &image) { return image.present; });
    QString summary = isKubernetes() ? tr("On %1, where pushes come from: %2 of %3 languages have their image.")
                                           .arg(m_pushFrom->currentText())
                                           .arg(present)
                                           .arg(now.images->size())
                                     : tr("%1 of %2 languages have their image.").arg(present).arg(now.images->size());
    if (now.superseded && !now.superseded->isEmpty()) {
        qint64 bytes = 0;
        for (const ImageInfo &image : *now.superseded) {
            bytes += image.sizeBytes;
        }
        summary +=
            u' ' + tr("%n image(s) of older definitions (%1) can be removed.", nullptr, int(now.superseded->size()))
                       .arg(ImageTableModel::sizeText(bytes));
    }
    m_imagesSummary->setText(summary);
    updateButtons();
}

void BackendPanel::build(const QString &language, const QString &copyFrom)
{
    startBuild(language, copyFrom, BuildKind::Ensure);
}

void BackendPanel::rebuild(const QString &language)
{
    startBuild(language, {}, BuildKind::Rebuild);
}

void BackendPanel::startBuild(const QString &language, const QString &copyFrom, BuildKind kind)
{
    auto chosen = LanguageRegistry::instance().find(language);
    if (building() || !m_backend || !chosen) {
        return;
    }
    std::shared_ptr<ContainerBackend> source;
    if (!copyFrom.isEmpty()) {
        auto made = BackendFactory::create(copyFrom, connection());
        if (!made) {
            m_buildStatus->setText(errorText(made.error()));
            return;
        }
        source = *made;
    }
    for (const std::shared_ptr<ContainerBackend> &engine : {*m_backend, source}) {
        if (engine && !engine->imageStore()) {
            m_buildStatus->setText(errorText(engine->noImageStore(tr("Building the %1 image").arg(language))));
            return;
        }
    }
    auto job = std::make_shared<ImageJob>(m_app, *m_backend, source, kind);
    auto images = job->catalog.imagesFor(*chosen);
    if (!images) {
        m_buildStatus->setText(errorText(images.error()));
        return;
    }
    m_imageJob = job;
    startProgress(int(images->size()), tr("%v of %m images"),
                  source                       ? tr("Copying from %1…").arg(copyFrom)
                  : kind == BuildKind::Rebuild ? tr("Rebuilding the %1 images…").arg(chosen->displayName)
                                               : tr("Checking the images…"));
    const auto event = [this](const ImageBuildEvent &event) {
        QMetaObject::invokeMethod(
            this, [this, event] { showBuildEvent(event); }, Qt::QueuedConnection);
    };
    m_building.setFuture(QtConcurrent::run([job, language = *chosen, event] {
        return job->kind == BuildKind::Rebuild ? job->builder.rebuild(language, event)
                                               : job->builder.ensureAll({language}, 1, event);
    }));
    updateButtons();
}

void BackendPanel::push(const QStringList &languages)
{
    const QString registry = ImagePusher::registryFrom(m_registry->text());
    if (building() || !isKubernetes() || languages.isEmpty()) {
        return;
    }
    if (registry.isEmpty()) {
        m_buildStatus->setText(tr("Name the registry to push to (host:port), the one the cluster pulls from."));
        return;
    }
    QList<Language> chosen;
    for (const QString &name : languages) {
        auto language = LanguageRegistry::instance().find(name);
        if (!language) {
            m_buildStatus->setText(errorText(language.error()));
            return;
        }
        chosen << *language;
    }
    auto source = pushSource();
    if (!source) {
        m_buildStatus->setText(errorText(source.error()));
        return;
    }
    // Saved first: the pods of this backend (and the MCP servers' from their next start) pull from it.
    BackendConnection saved = m_app.userSettings().connection();
    if (saved.registry != registry) {
        saved.registry = registry;
        applyConnection(saved);
    }
    auto job = std::make_shared<ImageJob>(m_app, *source, nullptr, BuildKind::Push);
    job->registry = registry;
    job->languages = languages;
    m_imageJob = job;
    m_layers.clear();
    m_layersDone.clear();
    // Busy from here: the keychain may take a while (it can wait for its unlock password) before any layer moves.
    startProgress(0, tr("%v of %m layers"), tr("Looking up the login for %1 in the system keychain…").arg(registry));
    const auto line = [this](const QString &text) {
        QMetaObject::invokeMethod(
            this, [this, text] { showPushLine(text); }, Qt::QueuedConnection);
    };
    QFuture<StoredLogin> lookup = RegistryCredentialStore(m_secrets).load(registry);
    m_building.setFuture(QtConcurrent::run([job, chosen, lookup, line]() -> Result<void> {
        auto credentials = storedLogin(lookup, job->registry, job->cancelled, line);
        if (!credentials) {
            return credentials.error();
        }
        auto pushed = job->pusher.push(chosen, job->registry, *credentials, line);
        if (!pushed) {
            return pushed.error();
        }
        job->pushed = *pushed;
        return {};
    }));
    updateButtons();
}

void BackendPanel::startProgress(int steps, const QString &format, const QString &status)
{
    m_buildProgress->setRange(0, steps);
    m_buildProgress->setValue(0);
    m_buildProgress->setFormat(format);
    m_buildProgress->setTextVisible(steps > 0);
    m_buildStatus->setText(status);
}

void BackendPanel::showPushLine(const QString &line)
{
    if (!m_imageJob || m_imageJob->kind != BuildKind::Push) {
        return; // a line that was on its way when the push ended
    }
    // The engine's layer lines: "ID: Preparing", "ID: Waiting", "ID: Pushed", "ID: Layer already exists", "ID: Mounted
    // from ..."; the byte counts in between are left out by the engine client (DockerJsonProgress).
    const QString text = line.trimmed();
    const qsizetype colon = text.indexOf(QLatin1String(": "));
    if (line.startsWith(QLatin1Char(' ')) && colon > 0) {
        const QString layer = text.left(colon);
        const QString status = text.mid(colon + 2);
        if (status == QLatin1String("Preparing") || status == QLatin1String("Waiting")) {
            m_layers.insert(layer);
        } else if (status == QLatin1String("Pushed") || status == QLatin1String("Layer already exists") ||
                   status.startsWith(QLatin1String("Mounted from"))) {
            m_layers.insert(layer);
            m_layersDone.insert(layer);
        }
        if (!m_layers.isEmpty()) {
            m_buildProgress->setRange(0, int(m_layers.size()));
            m_buildProgress->setValue(int(m_layersDone.size()));
            m_buildProgress->setTextVisible(true);
        }
    }
    m_buildStatus->setText(text);
}

void BackendPanel::showBuildEvent(const ImageBuildEvent &event)
{
    switch (event.kind) {
    case ImageBuildEvent::Kind::UpToDate:
    case ImageBuildEvent::Kind::Finished:
        m_buildProgress->setValue(std::min(m_buildProgress->value() + 1, m_buildProgress->maximum()));
        m_buildStatus->setText(event.kind == ImageBuildEvent::Kind::Finished
                                   ? tr("%1: built in %2 s").arg(event.name).arg(event.seconds, 0, 'f', 1)
                                   : tr("%1: up to date").arg(event.name));
        break;
    case ImageBuildEvent::Kind::Started:
        m_buildStatus->setText(tr("%1: building…").arg(event.name));
        break;
    case ImageBuildEvent::Kind::Output:
        m_buildStatus->setText(event.name.isEmpty() ? event.line
                                                    : QStringLiteral("%1: %2").arg(event.name, event.line));
        break;
    case ImageBuildEvent::Kind::Failed:
        break; // the result says it
    }
}

void BackendPanel::cancelBuild()
{
    if (m_imageJob) {
        m_imageJob->cancel();
        m_buildStatus->setText(tr("Cancelling…"));
        m_cancel->setEnabled(false);
    }
}

bool BackendPanel::building() const
{
    return m_building.isRunning() || m_pruning.isRunning();
}

QString BackendPanel::buildStatus() const
{
    return m_buildStatus->text();
}

void BackendPanel::pruneImages()
{
    if (building() || !m_backend) {
        return;
    }
    m_buildStatus->setText(tr("Removing old images…"));
    m_pruning.setFuture(
        QtConcurrent::run([backend = *m_backend, app = &m_app]() -> Result<ImageInventory::PruneResult> {
            ImageStore *store = backend->imageStore();
            if (!store) {
                return backend->noImageStore(QStringLiteral("Removing old images"));
            }
            const ImageCatalog catalog = app->catalog();
            return ImageInventory(*store, catalog).prune();
        }));
    updateButtons();
}

void BackendPanel::refreshSandboxes()
{
    if (m_sandboxesReading.isRunning()) {
        return;
    }
    if (!m_backend) {
        m_sandboxesSummary->setText(errorText(m_backend.error()));
        return;
    }
    m_sandboxesReading.setFuture(QtConcurrent::run([backend = *m_backend, app = &m_app] {
        const ImageCatalog catalog = app->catalog();
        const SandboxInventory inventory(*backend, catalog);
        SandboxesNow now{.sandboxes = inventory.list()};
        if (auto leftovers = inventory.leftovers()) {
            now.leftovers = int(leftovers->size());
        }
        // Which sandbox runs which run: the journal, where every process records the container of its runs.
        if (!app->journalPath().isEmpty()) {
            if (auto runs = JournalReader(app->journalPath()).runningByContainer()) {
                now.runs = *runs;
            }
        }
        return now;
    }));
}

void BackendPanel::showSandboxes(const SandboxesNow &now)
{
    if (!now.sandboxes) {
        m_sandboxModel->setSandboxes({});
        m_sandboxesSummary->setText(errorText(now.sandboxes.error()));
        m_warmPool->clear();
        updateButtons();
        return;
    }
    m_sandboxModel->setSandboxes(*now.sandboxes, now.runs);
    QMap<QString, int> warm;
    for (const SandboxEntry &sandbox : *now.sandboxes) {
        // A busy sandbox is not in the pool: only those waiting for a run are.
        if (sandbox.session.isEmpty() && !sandbox.language.isEmpty() && !now.runs.contains(sandbox.container.id)) {
            ++warm[sandbox.language];
        }
    }
    QStringList pool;
    for (auto it = warm.cbegin(); it != warm.cend(); ++it) {
        const auto language = LanguageRegistry::instance().find(it.key());
        pool << QStringLiteral("%1 %2").arg(language ? language->displayName : it.key()).arg(it.value());
    }
    m_warmPool->setText(
        pool.isEmpty() ? tr("Warm pool: empty")
                       : tr("Warm pool (idle sandboxes without a session): %1").arg(pool.join(QStringLiteral(" · "))));
    QString summary = tr("%n sandbox(es) running, of every llm-sandbox process.", nullptr, int(now.sandboxes->size()));
    summary += u' ' + (now.leftovers == 0 ? tr("No leftovers of ended processes.")
                                          : tr("%n leftover(s) of ended processes.", nullptr, now.leftovers));
    m_sandboxesSummary->setText(summary);
    m_removeLeftovers->setProperty("leftovers", now.leftovers);
    updateButtons();
}

void BackendPanel::stopSandbox(const QString &id)
{
    if (id.isEmpty() || !m_backend || m_removing.isRunning()) {
        return;
    }
    m_removing.setFuture(QtConcurrent::run([backend = *m_backend, id] {
        const auto removed = backend->removeContainer(id);
        return removed ? tr("Stopped %1.").arg(id.left(12)) : errorText(removed.error());
    }));
    updateButtons();
}

void BackendPanel::removeLeftovers()
{
    if (!m_backend || m_removing.isRunning()) {
        return;
    }
    m_removing.setFuture(QtConcurrent::run([backend = *m_backend] {
        const int removed = OrphanReaper(*backend, ContainerSpecFactory::ownerLabel()).removeOrphans();
        return tr("Removed %n leftover container(s).", nullptr, removed);
    }));
    updateButtons();
}

void BackendPanel::setLive(bool live)
{
    m_live = live;
    if (!live) {
        m_sandboxTimer->stop();
    } else if (isVisible()) {
        m_sandboxTimer->start();
    }
}

void BackendPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_live) {
        m_sandboxTimer->start();
    }
}

void BackendPanel::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_sandboxTimer->stop();
}

bool BackendPanel::isKubernetes() const
{
    return m_name == QLatin1String("kubernetes");
}

Result<std::shared_ptr<ContainerBackend>> BackendPanel::pushSource() const
{
    return BackendFactory::create(m_pushFrom->currentData().toString(), connection());
}

void BackendPanel::updateDefault()
{
    const QSignalBlocker blocker(m_default);
    m_default->setChecked(m_app.userSettings().chosenBackend() == m_name);
}

QString BackendPanel::selectedLanguage() const
{
    const QModelIndexList rows = m_imagesView->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(Qt::UserRole).toString();
}

QStringList BackendPanel::selectedLanguages() const
{
    QStringList languages;
    // In the table's order, not the order of the clicks.
    for (int row = 0; row < m_imageModel->rowCount(); ++row) {
        if (m_imagesView->selectionModel()->isRowSelected(row)) {
            languages << m_imageModel->images().at(row).language;
        }
    }
    return languages;
}

QString BackendPanel::selectedSandbox() const
{
    const QModelIndexList rows = m_sandboxesView->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(Qt::UserRole).toString();
}

void BackendPanel::updateButtons()
{
    // A cluster has no image store: its nodes pull the images (Push puts them in a registry).
    const bool hasImages = !isKubernetes() && bool(m_backend);
    const bool busy = building();
    const bool chosen = !selectedLanguage().isEmpty();
    m_test->setEnabled(!m_testing.isRunning());
    m_build->setEnabled(hasImages && !busy && chosen);
    m_rebuild->setEnabled(hasImages && !busy && chosen);
    m_copy->setEnabled(hasImages && !busy && chosen && m_copyFrom->count() > 0);
    m_copyFrom->setEnabled(hasImages && !busy);
    m_cancel->setEnabled(m_building.isRunning());
    m_prune->setEnabled(hasImages && !busy);
    m_push->setEnabled(isKubernetes() && !busy && chosen && !m_registry->text().trimmed().isEmpty());
    m_registry->setEnabled(!busy);
    m_pushFrom->setEnabled(!busy);
    m_stop->setEnabled(!m_removing.isRunning() && !selectedSandbox().isEmpty());
    m_showRun->setEnabled(m_sandboxModel->runIn(selectedSandbox()) != nullptr);
    m_removeLeftovers->setEnabled(!m_removing.isRunning() && m_removeLeftovers->property("leftovers").toInt() > 0);
}

} // namespace sandbox::gui
