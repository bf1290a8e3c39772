#pragma once

#include "backend/ContainerBackend.h"
#include "engine/BackendDiagnosis.h"
#include "images/ImageInventory.h"
#include "inventory/SandboxInventory.h"
#include "journal/JournalRun.h"
#include "settings/BackendConnection.h"

#include <QFutureWatcher>
#include <QHash>
#include <QSet>
#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTabWidget;
class QTimer;

namespace sandbox {
class AppContext;
class ImageBuilder;
class SecretStore;
struct ImageBuildEvent;
} // namespace sandbox

namespace sandbox::gui {

class ImageTableModel;
class SandboxTableModel;

/// One backend on the Backends page: where it is reached (saved in the user settings every face reads) and a test
/// of it (BackendDiagnosis, as `doctor`); its images per language, built, copied from another engine or pruned with
/// progress and cancel (Kubernetes: pushed from Docker or Podman to the registry its pods pull from); the sandboxes
/// every llm-sandbox process runs on it, live, and the leftovers of ended ones. Everything that talks to the engine
/// runs off the GUI thread, and the GUI thread never waits for the keychain.
class BackendPanel final : public QWidget
{
    Q_OBJECT

public:
    /// `secrets`: the keychain with the registry logins (`images login`), asked on the GUI thread (where QtKeychain
    /// runs its jobs) and waited for on the push's thread.
    BackendPanel(AppContext &app, SecretStore &secrets, QString name, QWidget *parent = nullptr);
    ~BackendPanel() override;

    const QString &name() const { return m_name; }
    /// The connection fields as they are typed (not yet saved).
    BackendConnection connection() const;

    /// Saves the fields into the user settings and applies them: the app's next runs and MCP sessions on this backend
    /// use them (AppContext::reconnect), and so does this panel; connectionApplied() follows.
    void save();
    /// Starts Test connection (off the GUI thread); testFinished() tells the result.
    void testConnection();
    const std::optional<BackendDiagnosis> &diagnosis() const { return m_diagnosis; }
    /// What the window's status bar found when it asked this backend (EngineController::backendProbed): shown until
    /// Test Connection says more, instead of "not tested".
    void showReachable(const BackendInfo &info, const QString &error);
    /// What the test shows (plain text).
    QString testResultText() const;

    /// Reads the images again; imagesLoaded() when done.
    void refreshImages();
    /// Builds what `language` needs (copying from the engine `copyFrom` first when named); buildFinished() when done.
    void build(const QString &language, const QString &copyFrom = {});
    /// Builds `language`'s own images again without the cache (ImageBuilder::rebuild); buildFinished() when done.
    void rebuild(const QString &language);
    /// Kubernetes: pushes the run images of `languages` from the engine chosen under "from" (Docker or Podman) to the
    /// registry of the registry field, which is saved first (the pods pull from it), with the login the keychain
    /// keeps for that registry; buildFinished() when done. The registry gets a tag only from a complete push, and a
    /// failed or cancelled one leaves no registry tag in the engine (ImagePusher).
    void push(const QStringList &languages);
    /// Stops the build, copy or push.
    void cancelBuild();
    bool building() const;
    /// Removes the superseded images (ImageInventory::prune); pruneFinished() when done.
    void pruneImages();

    /// Reads the sandboxes now (the panel also does every few seconds while it is shown); sandboxesLoaded() when done.
    void refreshSandboxes();
    /// Removes the sandbox container `id`.
    void stopSandbox(const QString &id);
    /// Removes the containers of llm-sandbox processes that ended (OrphanReaper).
    void removeLeftovers();

    ImageTableModel *imageModel() const { return m_imageModel; }
    SandboxTableModel *sandboxModel() const { return m_sandboxModel; }
    QProgressBar *buildProgress() const { return m_buildProgress; }
    /// The last line of the build's progress, or its result.
    QString buildStatus() const;
    /// Whether the sandboxes refresh by themselves (while shown).
    void setLive(bool live);

signals:
    /// A connection of backend `name` was saved and applied (save(), or a push that saved its registry).
    void connectionApplied(const QString &name);
    void testFinished();
    void imagesLoaded();
    void buildFinished(bool succeeded);
    void pruneFinished();
    void sandboxesLoaded();
    /// Show Run (or a double-click) on a sandbox that runs run `runId` now.
    void showRunRequested(const QString &runId);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct SandboxesNow
    {
        Result<QList<SandboxEntry>> sandboxes = Error{};
        int leftovers = 0;
        QHash<QString, JournalRun> runs; ///< the runs in progress by container (JournalReader::runningByContainer)
    };
    struct ImagesNow
    {
        Result<QList<LanguageImage>> images = Error{};
        Result<QList<ImageInfo>> superseded = Error{};
    };

    QWidget *makeConnectionTab();
    QWidget *makeImagesTab();
    QWidget *makeSandboxesTab();
    /// Saves `connection` and makes this window's next runs and MCP sessions use it (AppContext::reconnect).
    void applyConnection(const BackendConnection &connection);
    void makeBackend();
    /// The progress bar and status of a job of the Images tab that starts now over `steps` steps.
    /// `steps` 0: a busy indicator until setProgressSteps() knows how many.
    void startProgress(int steps, const QString &format, const QString &status);
    /// An ImageBuildEvent shown on the GUI thread.
    void showBuildEvent(const ImageBuildEvent &event);
    /// A line of a push's progress shown on the GUI thread: the layers the engine announces and finishes.
    void showPushLine(const QString &line);
    enum class BuildKind
    {
        Ensure,
        Rebuild,
        Push
    };
    void startBuild(const QString &language, const QString &copyFrom, BuildKind kind);
    /// Kubernetes: the engine the images are pushed from (and the Images tab shows).
    Result<std::shared_ptr<ContainerBackend>> pushSource() const;
    bool isKubernetes() const;
    void showDiagnosis();
    void showImages(const ImagesNow &now);
    void showSandboxes(const SandboxesNow &now);
    void updateDefault();
    void updateButtons();
    QString selectedLanguage() const;
    QStringList selectedLanguages() const;
    QString selectedSandbox() const;

    AppContext &m_app;
    SecretStore &m_secrets;
    const QString m_name;
    Result<std::shared_ptr<ContainerBackend>> m_backend = Error{};

    QTabWidget *m_tabs = nullptr;
    QLineEdit *m_dockerHost = nullptr;
    QLineEdit *m_dockerTlsPath = nullptr;
    QLineEdit *m_containerHost = nullptr;
    QLineEdit *m_kubeconfig = nullptr;
    QLineEdit *m_kubeContext = nullptr;
    QLineEdit *m_kubeNamespace = nullptr;
    QLabel *m_environmentNote = nullptr;
    QCheckBox *m_default = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_test = nullptr;
    QLabel *m_testResult = nullptr;
    std::optional<BackendDiagnosis> m_diagnosis;
    QFutureWatcher<BackendDiagnosis> m_testing;

    ImageTableModel *m_imageModel = nullptr;
    QTableView *m_imagesView = nullptr;
    QPushButton *m_build = nullptr;
    QPushButton *m_rebuild = nullptr;
    QComboBox *m_copyFrom = nullptr;
    QPushButton *m_copy = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_prune = nullptr;
    QLineEdit *m_registry = nullptr;
    QComboBox *m_pushFrom = nullptr;
    QPushButton *m_push = nullptr;
    QSet<QString> m_layers;     ///< of the push running: the layers the engine announced
    QSet<QString> m_layersDone; ///< ... and those the registry has now
    QProgressBar *m_buildProgress = nullptr;
    QLabel *m_buildStatus = nullptr;
    QLabel *m_imagesSummary = nullptr;
    QFutureWatcher<ImagesNow> m_imagesReading;
    QFutureWatcher<Result<void>> m_building;
    QFutureWatcher<Result<ImageInventory::PruneResult>> m_pruning;
    struct ImageJob;
    std::shared_ptr<ImageJob> m_imageJob;

    SandboxTableModel *m_sandboxModel = nullptr;
    QTableView *m_sandboxesView = nullptr;
    QLabel *m_sandboxesSummary = nullptr;
    QLabel *m_warmPool = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_showRun = nullptr;
    QPushButton *m_removeLeftovers = nullptr;
    QFutureWatcher<SandboxesNow> m_sandboxesReading;
    QFutureWatcher<QString> m_removing;
    QTimer *m_sandboxTimer = nullptr;
    bool m_live = true;
};

} // namespace sandbox::gui
