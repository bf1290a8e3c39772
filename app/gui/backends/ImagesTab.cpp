#include "gui/backends/ImagesTab.h"

#include "AppContext.h"
#include "ErrorText.h"
#include "backend/BackendFactory.h"
#include "gui/RunText.h"
#include "gui/backends/BackendPanel.h"
#include "gui/backends/ImageTableModel.h"
#include "images/ImageBuilder.h"
#include "images/ImagePusher.h"
#include "lang/LanguageRegistry.h"
#include "secrets/RegistryCredentialStore.h"
#include "secrets/SecretStore.h"
#include "settings/UserSettings.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::gui {

namespace {

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
        report(ImagesTab::tr("The system keychain gave no answer; pushing without a login."));
        return RegistryCredentials{};
    }
    const StoredLogin stored = lookup.result();
    if (!stored) {
        report(
            ImagesTab::tr("No login from the system keychain (%1); pushing without one.").arg(stored.error().message));
        return RegistryCredentials{};
    }
    if (!stored->has_value()) {
        report(ImagesTab::tr("No login kept for %1; pushing without one.").arg(registry));
        return RegistryCredentials{};
    }
    report(ImagesTab::tr("Using the login of %1 for %2 from the system keychain.")
               .arg((*stored)->username, (*stored)->serverAddress));
    return **stored;
}

} // namespace

/// One job of the Images tab — a build, copy or push: the catalog it works from, the builder or pusher (which Cancel
/// reaches from the GUI thread) and the engines it uses, alive until the job's thread is done with them. `target`
/// and `copySource` (when given) have an image store: the caller checks.
struct ImagesTab::ImageJob
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

ImagesTab::ImagesTab(BackendPanel &panel) : m_panel(panel)
{
    setObjectName(QStringLiteral("imagesTab"));
    m_imageModel = new ImageTableModel(this);
    m_imagesView = BackendPanel::makeTable(m_imageModel, QStringLiteral("imagesView"));
    m_imagesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_imagesView->horizontalHeader()->setStretchLastSection(true);
    connect(m_imagesView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ImagesTab::updateButtons);

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
        if (other != m_panel.name() && other != QLatin1String("kubernetes")) {
            m_copyFrom->addItem(backendText(other), other);
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
    connect(m_cancel, &QPushButton::clicked, this, &ImagesTab::cancelBuild);
    m_prune = new QPushButton(tr("Remove old images"));
    m_prune->setObjectName(QStringLiteral("pruneImages"));
    m_prune->setToolTip(tr("Remove the images of older definitions (llm-sandbox images prune); images a container "
                           "uses stay."));
    connect(m_prune, &QPushButton::clicked, this, &ImagesTab::pruneImages);
    auto *refresh = new QPushButton(tr("Refresh"));
    connect(refresh, &QPushButton::clicked, this, &ImagesTab::refreshImages);

    // Kubernetes: the images come from Docker or Podman through a registry.
    m_registry = new QLineEdit;
    m_registry->setObjectName(QStringLiteral("registry"));
    m_registry->setPlaceholderText(QStringLiteral("registry.example:5000"));
    m_registry->setToolTip(tr("The registry the cluster's nodes pull the sandbox images from (LLM_SANDBOX_REGISTRY, "
                              "which wins when set). Saved when you push; pods then ask for "
                              "REGISTRY/llm-sandbox/NAME:TAG. A login kept with “llm-sandbox images login” is used."));
    m_registry->setClearButtonEnabled(true);
    const QString savedRegistry = m_panel.app().userSettings().connection().registry;
    m_registry->setText(savedRegistry.isEmpty() ? ImagePusher::registryFrom({}) : savedRegistry);
    connect(m_registry, &QLineEdit::textChanged, this, &ImagesTab::updateButtons);
    m_pushFrom = new QComboBox;
    m_pushFrom->setObjectName(QStringLiteral("pushFrom"));
    m_pushFrom->addItem(QStringLiteral("Docker"), QStringLiteral("docker"));
    m_pushFrom->addItem(QStringLiteral("Podman"), QStringLiteral("podman"));
    m_pushFrom->setToolTip(tr("The engine whose images are pushed (and listed above)."));
    connect(m_pushFrom, &QComboBox::currentIndexChanged, this, &ImagesTab::refreshImages);
    m_push = new QPushButton(tr("Push"));
    m_push->setObjectName(QStringLiteral("pushImage"));
    m_push->setToolTip(tr("Push the selected languages' images to the registry, layer by layer. The registry gets "
                          "a tag only once an image is complete there; Cancel leaves no registry name behind."));
    connect(m_push, &QPushButton::clicked, this, [this] { push(selectedLanguages()); });

    auto *buttons = new QHBoxLayout;
    if (m_panel.isKubernetes()) {
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

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_imagesView, 1);
    layout->addWidget(m_imagesSummary);
    layout->addLayout(buttons);
    layout->addWidget(m_buildProgress);
    layout->addWidget(m_buildStatus);

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
    updateButtons();
}

ImagesTab::~ImagesTab()
{
    if (m_imageJob) {
        m_imageJob->cancel();
    }
    for (QFutureWatcherBase *watcher :
         std::initializer_list<QFutureWatcherBase *>{&m_imagesReading, &m_building, &m_pruning}) {
        watcher->disconnect(this);
        watcher->waitForFinished();
    }
}

void ImagesTab::refreshImages()
{
    if (m_imagesReading.isRunning()) {
        return;
    }
    // A cluster has no image store of its own: the tab shows the engine pushes come from.
    const auto backend = m_panel.isKubernetes() ? pushSource() : m_panel.backend();
    if (!backend) {
        m_imagesSummary->setText(errorText(backend.error()));
        return;
    }
    m_imagesReading.setFuture(QtConcurrent::run([backend = *backend, app = &m_panel.app()] {
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

void ImagesTab::showImages(const ImagesNow &now)
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
    QString summary = m_panel.isKubernetes()
                          ? tr("On %1, where pushes come from: %2 of %3 languages have their image.")
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

void ImagesTab::build(const QString &language, const QString &copyFrom)
{
    startBuild(language, copyFrom, BuildKind::Ensure);
}

void ImagesTab::rebuild(const QString &language)
{
    startBuild(language, {}, BuildKind::Rebuild);
}

void ImagesTab::startBuild(const QString &language, const QString &copyFrom, BuildKind kind)
{
    auto chosen = LanguageRegistry::instance().find(language);
    if (building() || !m_panel.backend() || !chosen) {
        return;
    }
    std::shared_ptr<ContainerBackend> source;
    if (!copyFrom.isEmpty()) {
        auto made = BackendFactory::create(copyFrom, m_panel.connection());
        if (!made) {
            m_buildStatus->setText(errorText(made.error()));
            return;
        }
        source = *made;
    }
    for (const std::shared_ptr<ContainerBackend> &engine : {*m_panel.backend(), source}) {
        if (engine && !engine->imageStore()) {
            m_buildStatus->setText(errorText(engine->noImageStore(tr("Building the %1 image").arg(language))));
            return;
        }
    }
    auto job = std::make_shared<ImageJob>(m_panel.app(), *m_panel.backend(), source, kind);
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

void ImagesTab::push(const QStringList &languages)
{
    const QString registry = ImagePusher::registryFrom(m_registry->text());
    if (building() || !m_panel.isKubernetes() || languages.isEmpty()) {
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
    BackendConnection saved = m_panel.app().userSettings().connection();
    if (saved.registry != registry) {
        saved.registry = registry;
        m_panel.applyConnection(saved);
    }
    auto job = std::make_shared<ImageJob>(m_panel.app(), *source, nullptr, BuildKind::Push);
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
    QFuture<StoredLogin> lookup = RegistryCredentialStore(m_panel.secrets()).load(registry);
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

void ImagesTab::startProgress(int steps, const QString &format, const QString &status)
{
    m_buildProgress->setRange(0, steps);
    m_buildProgress->setValue(0);
    m_buildProgress->setFormat(format);
    m_buildProgress->setTextVisible(steps > 0);
    m_buildStatus->setText(status);
}

void ImagesTab::showPushLine(const QString &line)
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

void ImagesTab::showBuildEvent(const ImageBuildEvent &event)
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

void ImagesTab::cancelBuild()
{
    if (m_imageJob) {
        m_imageJob->cancel();
        m_buildStatus->setText(tr("Cancelling…"));
        m_cancel->setEnabled(false);
    }
}

bool ImagesTab::building() const
{
    return m_building.isRunning() || m_pruning.isRunning();
}

QString ImagesTab::buildStatus() const
{
    return m_buildStatus->text();
}

void ImagesTab::pruneImages()
{
    if (building() || !m_panel.backend()) {
        return;
    }
    m_buildStatus->setText(tr("Removing old images…"));
    m_pruning.setFuture(QtConcurrent::run(
        [backend = *m_panel.backend(), app = &m_panel.app()]() -> Result<ImageInventory::PruneResult> {
            ImageStore *store = backend->imageStore();
            if (!store) {
                return backend->noImageStore(QStringLiteral("Removing old images"));
            }
            const ImageCatalog catalog = app->catalog();
            return ImageInventory(*store, catalog).prune();
        }));
    updateButtons();
}

Result<std::shared_ptr<ContainerBackend>> ImagesTab::pushSource() const
{
    return BackendFactory::create(m_pushFrom->currentData().toString(), m_panel.connection());
}

QString ImagesTab::selectedLanguage() const
{
    const QModelIndexList rows = m_imagesView->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(Qt::UserRole).toString();
}

QStringList ImagesTab::selectedLanguages() const
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

void ImagesTab::updateButtons()
{
    // A cluster has no image store: its nodes pull the images (Push puts them in a registry).
    const bool kubernetes = m_panel.isKubernetes();
    const bool hasImages = !kubernetes && bool(m_panel.backend());
    const bool busy = building();
    const bool chosen = !selectedLanguage().isEmpty();
    m_build->setEnabled(hasImages && !busy && chosen);
    m_rebuild->setEnabled(hasImages && !busy && chosen);
    m_copy->setEnabled(hasImages && !busy && chosen && m_copyFrom->count() > 0);
    m_copyFrom->setEnabled(hasImages && !busy);
    m_cancel->setEnabled(m_building.isRunning());
    m_prune->setEnabled(hasImages && !busy);
    m_push->setEnabled(kubernetes && !busy && chosen && !m_registry->text().trimmed().isEmpty());
    m_registry->setEnabled(!busy);
    m_pushFrom->setEnabled(!busy);
}

QString ImagesTab::registry() const
{
    return m_registry->text().trimmed();
}

void ImagesTab::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_imageModel->rowCount() == 0) {
        refreshImages();
    }
}

} // namespace sandbox::gui
