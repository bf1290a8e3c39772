#pragma once

#include "backend/ContainerBackend.h"
#include "images/ImageInventory.h"

#include <QFutureWatcher>
#include <QSet>
#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace sandbox {
struct ImageBuildEvent;
} // namespace sandbox

namespace sandbox::gui {

class BackendPanel;
class ImageTableModel;

/// The Images tab of a backend: its images per language, built, copied from another engine or pruned with progress
/// and cancel (Kubernetes: pushed from Docker or Podman to the registry its pods pull from, with the login the
/// keychain keeps). Everything that talks to an engine runs off the GUI thread, which never waits for the keychain.
class ImagesTab final : public QWidget
{
    Q_OBJECT

public:
    explicit ImagesTab(BackendPanel &panel);
    ~ImagesTab() override;

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
    /// The registry field as typed (Kubernetes).
    QString registry() const;
    void updateButtons();

    ImageTableModel *imageModel() const { return m_imageModel; }
    QProgressBar *buildProgress() const { return m_buildProgress; }
    /// The last line of the build's progress, or its result.
    QString buildStatus() const;

signals:
    void imagesLoaded();
    void buildFinished(bool succeeded);
    void pruneFinished();

protected:
    /// Reads the images the first time the tab is shown.
    void showEvent(QShowEvent *event) override;

private:
    struct ImagesNow
    {
        Result<QList<LanguageImage>> images = Error{};
        Result<QList<ImageInfo>> superseded = Error{};
    };
    enum class BuildKind
    {
        Ensure,
        Rebuild,
        Push
    };
    struct ImageJob;

    /// The progress bar and status of a job that starts now over `steps` steps; 0: a busy indicator until the job
    /// knows how many.
    void startProgress(int steps, const QString &format, const QString &status);
    /// An ImageBuildEvent shown on the GUI thread.
    void showBuildEvent(const ImageBuildEvent &event);
    /// A line of a push's progress shown on the GUI thread: the layers the engine announces and finishes.
    void showPushLine(const QString &line);
    void startBuild(const QString &language, const QString &copyFrom, BuildKind kind);
    /// Kubernetes: the engine the images are pushed from (and the tab shows).
    Result<std::shared_ptr<ContainerBackend>> pushSource() const;
    void showImages(const ImagesNow &now);
    QString selectedLanguage() const;
    QStringList selectedLanguages() const;

    BackendPanel &m_panel;
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
    std::shared_ptr<ImageJob> m_imageJob;
};

} // namespace sandbox::gui
