#include "gui/backends/BackendsPage.h"

#include "AppContext.h"
#include "BackendTestSupport.h"
#include "DiagnosisText.h"
#include "GuiTestSupport.h"
#include "ScopedEnvironment.h"
#include "backend/BackendFactory.h"
#include "gui/DesktopApp.h"
#include "gui/EngineController.h"
#include "gui/MainWindow.h"
#include "gui/backends/BackendPanel.h"
#include "gui/backends/ConnectionTab.h"
#include "gui/backends/ImageTableModel.h"
#include "gui/backends/ImagesTab.h"
#include "gui/backends/SandboxTableModel.h"
#include "gui/backends/SandboxesTab.h"
#include "images/ImageBuilder.h"
#include "images/ImagePusher.h"
#include "lang/LanguageRegistry.h"
#include "mcp/McpHost.h"
#include "mcp/McpTestSupport.h"
#include "secrets/KeychainSecretStore.h"
#include "secrets/MemorySecretStore.h"
#include "secrets/RegistryCredentialStore.h"
#include "settings/UserSettings.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QVersionNumber>
#include <gtest/gtest.h>
#include <iostream>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::McpServerProcess;
using sandbox::gui::guitest::waitUntil;
using sandbox::test::containersOwnedBy;
using namespace std::chrono_literals;

namespace {

/// What the window's controller reported of each run (ticket -> outcome).
class RunOutcomes final
{
public:
    struct Outcome
    {
        QByteArray output;
        std::optional<RunResult> result;
        std::optional<Error> error;
        bool ended() const { return result || error; }
        /// What went wrong, for a failed expectation.
        std::string why() const
        {
            return error ? error->message.toStdString() : result ? std::string("it ran") : std::string("no end yet");
        }
    };

    explicit RunOutcomes(EngineController &controller) : m_controller(controller)
    {
        QObject::connect(
            &controller, &EngineController::runOutput,
            [this](quint64 ticket, OutputStream, const QByteArray &chunk) { m_runs[ticket].output += chunk; });
        QObject::connect(&controller, &EngineController::runFinished,
                         [this](quint64 ticket, const RunResult &result) { m_runs[ticket].result = result; });
        QObject::connect(&controller, &EngineController::runFailed,
                         [this](quint64 ticket, const Error &error) { m_runs[ticket].error = error; });
    }

    /// Starts `code` (python) on the default backend.
    quint64 start(const QString &code)
    {
        RunRequest request;
        request.code = code;
        request.timeout = std::chrono::seconds(120);
        return m_controller.start(request);
    }
    const Outcome &operator[](quint64 ticket) { return m_runs[ticket]; }
    /// Waits for the end of run `ticket`.
    const Outcome &waitFor(quint64 ticket)
    {
        EXPECT_TRUE(waitUntil([&] { return m_runs[ticket].ended(); }, 180s));
        return m_runs[ticket];
    }

private:
    EngineController &m_controller;
    std::map<quint64, Outcome> m_runs;
};

/// An MCP client of the window's server, made as the server makes one for a new session.
std::unique_ptr<mcp::McpDispatcher> mcpSession(MainWindow &window)
{
    auto session = window.server().dispatcherFactory(RunSource::Http)([](const QJsonObject &, const QJsonValue &) {});
    mcp::test::initializeSession(*session);
    return session;
}

/// execute_code's result on `session`.
QJsonObject executeCode(mcp::McpDispatcher &session, int id, const QString &code)
{
    return mcp::test::replyTo(session,
                              mcp::test::toolCall(id, QStringLiteral("execute_code"), {{QStringLiteral("code"), code}}))
        .object()
        .value(QStringLiteral("result"))
        .toObject();
}

/// A new MCP session of `window` refuses execute_code, naming `socket` (the engine address it went to).
void expectNewMcpSessionRefusedAt(MainWindow &window, const QString &socket)
{
    auto session = mcpSession(window);
    const QJsonObject refused = executeCode(*session, 2, QStringLiteral("print(1)"));
    EXPECT_TRUE(refused.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(QJsonDocument(refused).toJson().contains(socket.toUtf8()))
        << QJsonDocument(refused).toJson().toStdString();
}

/// A page over its own settings folder (what it saves, `doctor` reads) and no journal.
class BackendsPageTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_folder.isValid());
        // The page writes the user settings: into this test's folder (where `doctor` below, with XDG_CONFIG_HOME
        // pointing there, reads them), not the one the other tests share.
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_folder.path());
        const QString settingsFile = QSettings(QSettings::IniFormat, QSettings::UserScope,
                                               QStringLiteral("llm-sandbox"), QStringLiteral("llm-sandbox"))
                                         .fileName();
        ASSERT_TRUE(settingsFile.startsWith(m_folder.path())) << settingsFile.toStdString();
        auto made = AppContext::create({.source = RunSource::Gui});
        ASSERT_TRUE(made.ok()) << qPrintable(made.error().message);
        m_context = std::move(*made);
    }

    void TearDown() override
    {
        m_page.reset();
        m_context.reset();
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation));
    }

    /// The page, shown on `backend`'s panel at `tab` (0 connection, 1 images, 2 sandboxes).
    BackendPanel *open(int tab, const QString &backend = QStringLiteral("docker"))
    {
        m_page = std::make_unique<BackendsPage>(*m_context, *m_keychain);
        m_page->resize(1100, 700);
        m_page->show();
        m_page->showBackend(backend);
        BackendPanel *panel = m_page->panel(backend);
        panel->findChild<QTabWidget *>(QStringLiteral("backendTabs"))->setCurrentIndex(tab);
        return panel;
    }

    static QString dockerCli(const QStringList &arguments) { return engineCli(QStringLiteral("docker"), arguments); }

    static QString engineCli(const QString &engine, const QStringList &arguments)
    {
        QProcess process;
        process.start(engine, arguments);
        process.waitForFinished(60000);
        return QString::fromUtf8(process.readAllStandardOutput()).trimmed();
    }

    /// The id of the image `engine` names `reference`; empty when it has none.
    static QString imageId(const QString &engine, const QString &reference)
    {
        return engineCli(engine, {QStringLiteral("image"), QStringLiteral("inspect"), QStringLiteral("--format"),
                                  QStringLiteral("{{.Id}}"), reference});
    }

    /// Selects `language`'s row of the Images tab once the images are read.
    static void selectLanguage(BackendPanel *panel, const QString &language)
    {
        ASSERT_TRUE(waitUntil([&] { return panel->imagesTab()->imageModel()->rowCount() > 0; }, 60s));
        auto *view = panel->findChild<QTableView *>(QStringLiteral("imagesView"));
        for (int row = 0; row < panel->imagesTab()->imageModel()->rowCount(); ++row) {
            if (panel->imagesTab()->imageModel()->images().at(row).language == language) {
                view->selectRow(row);
            }
        }
    }

    /// A runner that differs by one byte, used from now on: python's run image (and what is built on it) gets new
    /// tags, so a build is real and small, and touches no image the other tests use.
    void useChangedRunner()
    {
        QFile runner(qEnvironmentVariable("LLM_SANDBOX_RUNNER"));
        ASSERT_TRUE(runner.open(QIODevice::ReadOnly));
        QByteArray bytes = runner.readAll();
        bytes.append(QByteArray("\n# backends page test ") + QByteArray::number(QDateTime::currentMSecsSinceEpoch()));
        QFile copy(m_folder.filePath(QStringLiteral("llm-sandbox-runner")));
        ASSERT_TRUE(copy.open(QIODevice::WriteOnly));
        copy.write(bytes);
        copy.close();
        copy.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        m_runnerCopy.emplace(std::initializer_list<std::pair<const char *, QByteArray>>{
            {"LLM_SANDBOX_RUNNER", copy.fileName().toUtf8()}});
    }

    QTemporaryDir m_folder;
    sandbox::test::ScopedEnvironment m_environment{{"XDG_CONFIG_HOME", m_folder.path().toUtf8()},
                                                   {"LLM_SANDBOX_JOURNAL", QByteArray("off")},
                                                   {"DOCKER_HOST", QByteArray()},
                                                   {"BACKEND", QByteArray()}};
    std::optional<sandbox::test::ScopedEnvironment> m_runnerCopy;
    std::unique_ptr<AppContext> m_context;
    MemorySecretStore m_secrets;
    SecretStore *m_keychain = &m_secrets; ///< what the page is given
    std::unique_ptr<BackendsPage> m_page;
};

} // namespace

TEST_F(BackendsPageTest, testConnectionShowsTheDockerEnginesVersion)
{
    BackendPanel *panel = open(0);
    QSignalSpy finished(panel->connectionTab(), &ConnectionTab::testFinished);
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("testConnection")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 180s));

    const QString version =
        dockerCli({QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.Version}}")});
    const QString api =
        dockerCli({QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.APIVersion}}")});
    ASSERT_FALSE(version.isEmpty()) << "the docker command did not answer";
    ASSERT_TRUE(panel->connectionTab()->diagnosis().has_value());
    EXPECT_EQ(panel->connectionTab()->diagnosis()->state, BackendDiagnosis::State::Reachable)
        << diagnosisSummary(*panel->connectionTab()->diagnosis()).toStdString();
    EXPECT_EQ(panel->connectionTab()->diagnosis()->info.version, version);
    const QString shown = panel->connectionTab()->testResultText();
    EXPECT_TRUE(shown.contains(QStringLiteral("Version") + u'\t' + version) || shown.contains(version))
        << shown.toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("rootful")) || shown.contains(QStringLiteral("rootless")));
    EXPECT_TRUE(shown.contains(QStringLiteral("runc"))) << "the engine's runtimes: " << shown.toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("cgroup version")));
    // The API version in use is one the engine speaks (at most its own).
    EXPECT_FALSE(panel->connectionTab()->diagnosis()->info.apiVersion.isEmpty());
    EXPECT_LE(QVersionNumber::fromString(panel->connectionTab()->diagnosis()->info.apiVersion),
              QVersionNumber::fromString(api));
}

TEST_F(BackendsPageTest, wrongSocketGivesTheDiagnosisDoctorGives)
{
    BackendPanel *panel = open(0);
    const QString socket = m_folder.filePath(QStringLiteral("no-engine-here.sock"));
    auto *host = panel->findChild<QLineEdit *>(QStringLiteral("dockerHost"));
    host->setText(QStringLiteral("unix://") + socket);
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("saveConnection")), Qt::LeftButton);
    EXPECT_EQ(m_context->userSettings().connection().dockerHost, QStringLiteral("unix://") + socket);

    QSignalSpy finished(panel->connectionTab(), &ConnectionTab::testFinished);
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("testConnection")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60s));
    ASSERT_TRUE(panel->connectionTab()->diagnosis().has_value());
    EXPECT_EQ(panel->connectionTab()->diagnosis()->state, BackendDiagnosis::State::Unreachable);
    const QString diagnosis = diagnosisSummary(*panel->connectionTab()->diagnosis());
    EXPECT_TRUE(diagnosis.contains(socket)) << diagnosis.toStdString();
    // Its commands set as code, without the backticks that mark them in doctor's plain text.
    EXPECT_TRUE(panel->connectionTab()->testResultText().contains(QString(diagnosis).remove(QLatin1Char('`'))))
        << panel->connectionTab()->testResultText().toStdString();

    // `doctor` reads the same saved setting (no DOCKER_HOST in its environment) and says the same.
    QProcess doctor;
    doctor.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    doctor.start(qEnvironmentVariable("LLM_SANDBOX_BIN"),
                 {QStringLiteral("doctor"), QStringLiteral("--backend"), QStringLiteral("docker")});
    ASSERT_TRUE(doctor.waitForFinished(120000));
    const QString report = QString::fromUtf8(doctor.readAllStandardOutput());
    EXPECT_NE(doctor.exitCode(), 0);
    EXPECT_TRUE(report.contains(QStringLiteral(" * docker ") + diagnosis)) << report.toStdString();
}

TEST_F(BackendsPageTest, cancellingABuildShowsProgressAndLeavesNoNewImage)
{
    useChangedRunner();
    auto backend = BackendFactory::create(QStringLiteral("docker"));
    ASSERT_TRUE(backend.ok());
    const ImageCatalog catalog = m_context->catalog();
    const auto images = catalog.imagesFor(*LanguageRegistry::instance().find(QStringLiteral("python")));
    ASSERT_TRUE(images.ok()) << images.error().message.toStdString();
    QStringList fresh;
    for (const ImageDefinition &image : *images) {
        if (!*(*backend)->imageStore()->hasImage(image.reference)) {
            fresh << image.reference;
        }
    }
    ASSERT_FALSE(fresh.isEmpty());
    ASSERT_TRUE(fresh.contains(*catalog.runImage(*LanguageRegistry::instance().find(QStringLiteral("python")))));

    BackendPanel *panel = open(1);
    QAbstractItemModelTester tester(panel->imagesTab()->imageModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    selectLanguage(panel, QStringLiteral("python"));
    const LanguageImage *python = panel->imagesTab()->imageModel()->find(QStringLiteral("python"));
    ASSERT_NE(python, nullptr);
    EXPECT_FALSE(python->present) << "the changed runner's image cannot be there yet";

    QSignalSpy finished(panel->imagesTab(), &ImagesTab::buildFinished);
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("buildImage")), Qt::LeftButton);
    ASSERT_TRUE(panel->imagesTab()->building());
    QProgressBar *progress = panel->imagesTab()->buildProgress();
    EXPECT_EQ(progress->maximum(), images->size());
    // Progress shows: the images already there count, then the first new one is being built (its output streams in).
    const int present = int(images->size() - fresh.size());
    ASSERT_TRUE(waitUntil(
        [&] {
            return progress->value() == present &&
                   !panel->imagesTab()->buildStatus().endsWith(QStringLiteral("up to date")) &&
                   !panel->imagesTab()->buildStatus().startsWith(QStringLiteral("Checking"));
        },
        300s))
        << panel->imagesTab()->buildStatus().toStdString();
    EXPECT_GT(progress->value(), 0);
    QTest::qWait(3000);
    ASSERT_TRUE(panel->imagesTab()->building())
        << "the build ended before it could be cancelled: " << panel->imagesTab()->buildStatus().toStdString();
    const QString buildingWhat = panel->imagesTab()->buildStatus();
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("cancelBuild")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60s));
    // The engine's build was stopped, not waited out (apt-get in a builder image takes minutes here).
    EXPECT_LT(sinceCancel.elapsed(), 15000);
    std::cout << "cancelled during \"" << buildingWhat.toStdString() << "\" after " << sinceCancel.elapsed() << " ms\n";
    EXPECT_FALSE(finished.first().first().toBool());
    EXPECT_TRUE(panel->imagesTab()->buildStatus().contains(QStringLiteral("cancelled")))
        << panel->imagesTab()->buildStatus().toStdString();

    // No new name remains, now or once the engine would have finished an abandoned build.
    for (int check = 0; check < 2; ++check) {
        for (const QString &reference : fresh) {
            EXPECT_FALSE(*(*backend)->imageStore()->hasImage(reference)) << reference.toStdString();
        }
        QTest::qWait(10000);
    }
    const QString tags =
        dockerCli({QStringLiteral("images"), QStringLiteral("--format"), QStringLiteral("{{.Repository}}:{{.Tag}}")});
    for (const QString &reference : fresh) {
        EXPECT_FALSE(tags.contains(reference)) << reference.toStdString();
        (void)(*backend)->imageStore()->removeImage(reference); // in case
    }
}

TEST_F(BackendsPageTest, sandboxOfASeparateMcpServerShowsWithItsOwner)
{
    // The page over the server's journal, where it reads which sandbox runs which run.
    const QString journal = m_folder.filePath(QStringLiteral("journal.sqlite"));
    {
        const test::ScopedEnvironment withJournal{{"LLM_SANDBOX_JOURNAL", journal.toUtf8()}};
        auto made = AppContext::create({.source = RunSource::Gui});
        ASSERT_TRUE(made.ok()) << qPrintable(made.error().message);
        m_context = std::move(*made);
    }
    BackendPanel *panel = open(2);
    QAbstractItemModelTester tester(panel->sandboxesTab()->sandboxModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);

    McpServerProcess server(journal, m_folder.path());
    ASSERT_TRUE(server.process().waitForStarted(10000)) << qPrintable(server.process().errorString());
    server.sendInitialize(QStringLiteral("backends-page-test"), QStringLiteral("1.0"));
    ASSERT_TRUE(waitUntil([&] { return server.replyTo(1).has_value(); }, 30s))
        << server.process().readAllStandardError().toStdString();
    server.sendInitialized();
    server.sendExecuteCode(2, QJsonObject{{QStringLiteral("code"), QStringLiteral("print(1)")}});
    ASSERT_TRUE(waitUntil([&] { return server.replyTo(2).has_value(); }, 120s))
        << server.process().readAllStandardError().toStdString();

    // The server keeps a warm python sandbox: the page finds it by itself (its refresh timer), with the owner pid.
    const qint64 pid = server.process().processId();
    const auto ownedByServer = [&]() -> const SandboxEntry * {
        for (const SandboxEntry &entry : panel->sandboxesTab()->sandboxModel()->sandboxes()) {
            if (entry.ownerPid == pid) {
                return &entry;
            }
        }
        return nullptr;
    };
    ASSERT_TRUE(waitUntil([&] { return ownedByServer() != nullptr; }, 60s));
    const SandboxEntry *entry = ownedByServer();
    EXPECT_EQ(entry->language, QStringLiteral("python"));
    EXPECT_FALSE(entry->orphaned);
    for (int row = 0; row < panel->sandboxesTab()->sandboxModel()->rowCount(); ++row) {
        if (panel->sandboxesTab()->sandboxModel()->index(row, 0).data(SandboxTableModel::OwnerPidRole).toLongLong() ==
            pid) {
            // The owner by name (issue 37, item 7), and the warm sandbox as warm.
            EXPECT_EQ(
                panel->sandboxesTab()->sandboxModel()->index(row, SandboxTableModel::OwnerColumn).data().toString(),
                QStringLiteral("llm-sandbox --mcp (pid %1)").arg(pid));
            EXPECT_EQ(
                panel->sandboxesTab()->sandboxModel()->index(row, SandboxTableModel::StateColumn).data().toString(),
                QStringLiteral("Warm, idle"));
        }
    }

    // Stop on another process's sandbox asks first (issue 46, item 3); Cancel leaves it running.
    const QString id = entry->container.id;
    auto *view = panel->findChild<QTableView *>(QStringLiteral("sandboxesView"));
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        if (view->model()->index(row, 0).data(Qt::UserRole).toString() == id) {
            view->selectRow(row);
        }
    }
    QString asked;
    QTimer::singleShot(0, [&asked] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (box) {
            asked = box->text();
            box->button(QMessageBox::Cancel)->click();
        }
    });
    panel->findChild<QPushButton *>(QStringLiteral("stopSandbox"))->click();
    EXPECT_TRUE(asked.startsWith(QStringLiteral("llm-sandbox --mcp (pid %1) owns this sandbox").arg(pid)))
        << asked.toStdString();
    QSignalSpy loaded(panel->sandboxesTab(), &SandboxesTab::sandboxesLoaded);
    panel->sandboxesTab()->refreshSandboxes();
    ASSERT_TRUE(loaded.wait(30000));
    EXPECT_NE(ownedByServer(), nullptr) << "cancelled, the sandbox stays";

    // Item 2: a sandbox running an assistant's run, stopped here, stops the run through the process that runs it: the
    // journal and the assistant read "stopped by you", not "the sandbox stopped unexpectedly".
    server.sendExecuteCode(3, QJsonObject{{QStringLiteral("code"),
                                           QStringLiteral("import time\nprint('busy', flush=True)\ntime.sleep(120)")}});
    QString busy;
    ASSERT_TRUE(waitUntil(
        [&] {
            QSignalSpy refreshed(panel->sandboxesTab(), &SandboxesTab::sandboxesLoaded);
            panel->sandboxesTab()->refreshSandboxes();
            refreshed.wait(30000);
            for (int row = 0; row < view->model()->rowCount(); ++row) {
                if (!view->model()->index(row, 0).data(SandboxTableModel::RunIdRole).toString().isEmpty()) {
                    busy = view->model()->index(row, 0).data(Qt::UserRole).toString();
                    view->selectRow(row);
                    return true;
                }
            }
            return false;
        },
        60s));
    QTimer::singleShot(0, [&asked] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            asked = box->text();
            for (QAbstractButton *button : box->buttons()) {
                if (button->text() == QStringLiteral("Stop Sandbox")) {
                    button->click();
                }
            }
        }
    });
    panel->findChild<QPushButton *>(QStringLiteral("stopSandbox"))->click();
    EXPECT_TRUE(asked.contains(QStringLiteral("a run is in it now"))) << asked.toStdString();
    ASSERT_TRUE(waitUntil([&] { return server.replyTo(3).has_value(); }, 60s));
    const QJsonObject stoppedRun = QJsonDocument::fromJson(server.replyTo(3)
                                                               ->value(QStringLiteral("result"))
                                                               .toObject()
                                                               .value(QStringLiteral("content"))
                                                               .toArray()
                                                               .at(0)
                                                               .toObject()
                                                               .value(QStringLiteral("text"))
                                                               .toString()
                                                               .toUtf8())
                                       .object();
    EXPECT_EQ(stoppedRun.value(QStringLiteral("stop_reason")).toString(), QStringLiteral("stopped_by_user"))
        << QJsonDocument(*server.replyTo(3)).toJson().toStdString();
    EXPECT_TRUE(
        stoppedRun.value(QStringLiteral("stderr")).toString().contains(QStringLiteral("the user stopped this run")));
    ASSERT_TRUE(waitUntil(
        [&] {
            return std::none_of(panel->sandboxesTab()->sandboxModel()->sandboxes().cbegin(),
                                panel->sandboxesTab()->sandboxModel()->sandboxes().cend(),
                                [&](const SandboxEntry &sandbox) { return sandbox.container.id == busy; });
        },
        60s))
        << "the sandbox itself is gone too";

    // When the server ends, its sandbox leaves the list.
    server.process().closeWriteChannel();
    ASSERT_TRUE(server.process().waitForFinished(30000));
    ASSERT_TRUE(waitUntil(
        [&] {
            return std::none_of(panel->sandboxesTab()->sandboxModel()->sandboxes().cbegin(),
                                panel->sandboxesTab()->sandboxModel()->sandboxes().cend(),
                                [&](const SandboxEntry &sandbox) { return sandbox.container.id == id; });
        },
        60s));
}

TEST_F(BackendsPageTest, rebuildBuildsAPresentImageAgainAndCancellingKeepsTheImagesAsTheyWere)
{
    // Ruby has the smallest images; its own are its runtime, its run image and its builder.
    const Language ruby = *LanguageRegistry::instance().find(QStringLiteral("ruby"));
    const ImageCatalog catalog = m_context->catalog();
    const auto images = catalog.imagesFor(ruby);
    ASSERT_TRUE(images.ok()) << images.error().message.toStdString();
    QHash<QString, QString> before; // reference -> id
    for (const ImageDefinition &image : *images) {
        before.insert(image.reference, imageId(QStringLiteral("docker"), image.reference));
        ASSERT_FALSE(before.value(image.reference).isEmpty())
            << image.reference.toStdString() << " is missing: run llm-sandbox images build ruby";
    }

    BackendPanel *panel = open(1);
    selectLanguage(panel, QStringLiteral("ruby"));
    ASSERT_TRUE(panel->imagesTab()->imageModel()->find(QStringLiteral("ruby"))->present);
    auto *rebuild = panel->findChild<QPushButton *>(QStringLiteral("rebuildImage"));
    ASSERT_TRUE(rebuild->isEnabled());
    QSignalSpy finished(panel->imagesTab(), &ImagesTab::buildFinished);
    QTest::mouseClick(rebuild, Qt::LeftButton);
    ASSERT_TRUE(panel->imagesTab()->building());
    EXPECT_FALSE(rebuild->isEnabled());
    QProgressBar *progress = panel->imagesTab()->buildProgress();
    EXPECT_EQ(progress->maximum(), images->size());
    // The shared images count as there; then the runtime, present, is built again (its output streams in).
    ASSERT_TRUE(waitUntil(
        [&] {
            return progress->value() == images->size() - 3 &&
                   panel->imagesTab()->buildStatus().startsWith(QStringLiteral("ruby-runtime: ")) &&
                   !panel->imagesTab()->buildStatus().endsWith(QStringLiteral("up to date"));
        },
        120s))
        << panel->imagesTab()->buildStatus().toStdString();
    QTest::qWait(3000);
    ASSERT_TRUE(panel->imagesTab()->building())
        << "the rebuild ended before it could be cancelled: " << panel->imagesTab()->buildStatus().toStdString();
    std::cout << "cancelled the rebuild during \"" << panel->imagesTab()->buildStatus().toStdString() << "\"\n";
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("cancelBuild")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60s));
    EXPECT_LT(sinceCancel.elapsed(), 15000);
    EXPECT_FALSE(finished.first().first().toBool());
    EXPECT_TRUE(panel->imagesTab()->buildStatus().contains(QStringLiteral("cancelled")))
        << panel->imagesTab()->buildStatus().toStdString();
    // Every name still names the image it named before, now and once an abandoned build would have finished.
    for (int check = 0; check < 2; ++check) {
        for (auto it = before.cbegin(); it != before.cend(); ++it) {
            EXPECT_EQ(imageId(QStringLiteral("docker"), it.key()), it.value()) << it.key().toStdString();
        }
        QTest::qWait(10000);
    }
    EXPECT_TRUE(rebuild->isEnabled());
}

TEST_F(BackendsPageTest, cancellingACopyFromPodmanMidTransferLeavesNothingOfIt)
{
    // Python's run image of a changed runner, made in Podman only (on the runtime Podman has): the copy into
    // Docker streams about a gigabyte, and the test cancels it at the first progress report.
    useChangedRunner();
    const Language python = *LanguageRegistry::instance().find(QStringLiteral("python"));
    const ImageCatalog catalog = m_context->catalog();
    const QString runImage = *catalog.runImage(python);
    auto podman = BackendFactory::create(QStringLiteral("podman"));
    ASSERT_TRUE(podman.ok()) << podman.error().message.toStdString();
    {
        ImageBuilder builder(**podman, catalog);
        const auto built = builder.ensure(
            python, [](const QString &) {}, runImage);
        ASSERT_TRUE(built.ok()) << built.error().message.toStdString();
    }
    const QString copiedId = imageId(QStringLiteral("podman"), runImage);
    ASSERT_FALSE(copiedId.isEmpty());
    ASSERT_TRUE(imageId(QStringLiteral("docker"), runImage).isEmpty());

    BackendPanel *panel = open(1);
    selectLanguage(panel, QStringLiteral("python"));
    auto *copyFrom = panel->findChild<QComboBox *>(QStringLiteral("copyFrom"));
    copyFrom->setCurrentIndex(copyFrom->findData(QStringLiteral("podman")));
    ASSERT_GE(copyFrom->currentIndex(), 0);
    QSignalSpy finished(panel->imagesTab(), &ImagesTab::buildFinished);
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("copyImage")), Qt::LeftButton);
    ASSERT_TRUE(panel->imagesTab()->building());
    ASSERT_TRUE(waitUntil([&] { return panel->imagesTab()->buildStatus().contains(QStringLiteral("copied ")); }, 300s))
        << panel->imagesTab()->buildStatus().toStdString();
    std::cout << "cancelled the copy at \"" << panel->imagesTab()->buildStatus().toStdString() << "\"\n";
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("cancelBuild")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 120s));
    std::cout << "the copy ended " << sinceCancel.elapsed() << " ms after the cancel\n";
    EXPECT_FALSE(finished.first().first().toBool());
    EXPECT_TRUE(panel->imagesTab()->buildStatus().contains(QStringLiteral("cancelled")))
        << panel->imagesTab()->buildStatus().toStdString();

    // Docker has neither the name nor the image (by its id: a copy keeps it), nor Podman's qualified name.
    const QString leftId = imageId(QStringLiteral("docker"), copiedId);
    const QString leftName = imageId(QStringLiteral("docker"), runImage);
    const QString leftQualified = imageId(QStringLiteral("docker"), QStringLiteral("localhost/") + runImage);
    (void)(*podman)->imageStore()->removeImage(runImage);
    EXPECT_TRUE(leftId.isEmpty()) << "the cancelled copy left the image " << copiedId.toStdString();
    EXPECT_TRUE(leftName.isEmpty());
    EXPECT_TRUE(leftQualified.isEmpty());
    for (const QString &name : {runImage, QString(QStringLiteral("localhost/") + runImage)}) {
        (void)engineCli(QStringLiteral("docker"), {QStringLiteral("rmi"), name}); // in case
    }
}

TEST_F(BackendsPageTest, savedConnectionAppliesToTheWindowsNextRunsAndMcpSessionsWhileRunsInProgressFinish)
{
    DesktopApp desktop(*m_context);
    MainWindow window(desktop);
    EngineController *controller = &desktop.controller();
    ASSERT_NE(controller, nullptr);
    ASSERT_EQ(controller->defaultBackend(), QStringLiteral("docker"));
    BackendPanel *panel = window.findChild<BackendsPage *>()->panel(QStringLiteral("docker"));
    auto *host = panel->findChild<QLineEdit *>(QStringLiteral("dockerHost"));
    RunOutcomes runs(*controller);
    auto docker = BackendFactory::create(QStringLiteral("docker"));
    ASSERT_TRUE(docker.ok());
    const qint64 pid = QCoreApplication::applicationPid();

    // On the engine the window made at start: a run in progress, a warm container, an MCP session.
    const quint64 inProgress = runs.start(QStringLiteral(
        "import time\nprint('started', flush=True)\ntime.sleep(8)\nprint('finished on the old connection')"));
    ASSERT_TRUE(
        waitUntil([&] { return runs[inProgress].output.contains("started") || runs[inProgress].ended(); }, 180s));
    ASSERT_FALSE(runs[inProgress].ended());
    const RunOutcomes::Outcome &warming = runs.waitFor(runs.start(QStringLiteral("print(0)")));
    ASSERT_TRUE(warming.result.has_value()) << warming.why();
    EXPECT_EQ(containersOwnedBy(**docker, pid).size(), 2) << "the run in progress's and the warm one";
    auto openSession = mcpSession(window);

    // A connection to no engine, saved: the next run and the next MCP session go there, without a restart.
    const QString socket = m_folder.filePath(QStringLiteral("no-engine-here.sock"));
    host->setText(QStringLiteral("unix://") + socket);
    panel->findChild<QPushButton *>(QStringLiteral("saveConnection"))->click();
    EXPECT_TRUE(panel->connectionTab()->testResultText().contains(QStringLiteral("applied")))
        << panel->connectionTab()->testResultText().toStdString();
    const RunOutcomes::Outcome &unreachable = runs.waitFor(runs.start(QStringLiteral("print(1)")));
    ASSERT_TRUE(unreachable.error.has_value()) << "ran on the previous connection";
    EXPECT_TRUE(unreachable.error->message.contains(socket)) << unreachable.why();
    expectNewMcpSessionRefusedAt(window, socket);

    // What began on the old connection ends there: the run in progress, and the session opened before.
    const QJsonObject answered = executeCode(*openSession, 2, QStringLiteral("print('old session')"));
    EXPECT_FALSE(answered.value(QStringLiteral("isError")).toBool()) << QJsonDocument(answered).toJson().toStdString();
    EXPECT_TRUE(QJsonDocument(answered).toJson().contains("old session"));
    const RunOutcomes::Outcome &finished = runs.waitFor(inProgress);
    ASSERT_TRUE(finished.result.has_value()) << finished.why();
    EXPECT_EQ(finished.result->exitCode, 0);
    EXPECT_TRUE(finished.output.contains("finished on the old connection"));
    // No container of the retired engine lingers: the warm one was removed, the others as their runs ended.
    EXPECT_TRUE(waitUntil([&] { return containersOwnedBy(**docker, pid).isEmpty(); }, 60s))
        << containersOwnedBy(**docker, pid).join(u' ').toStdString();

    // The engine's own address again: runs work again.
    host->clear();
    panel->findChild<QPushButton *>(QStringLiteral("saveConnection"))->click();
    const RunOutcomes::Outcome &back = runs.waitFor(runs.start(QStringLiteral("print(2)")));
    ASSERT_TRUE(back.result.has_value()) << back.why();
    EXPECT_EQ(back.result->exitCode, 0);
    EXPECT_TRUE(back.output.contains("2"));
    auto lastSession = mcpSession(window);
    const QJsonObject ran = executeCode(*lastSession, 2, QStringLiteral("print(3)"));
    EXPECT_FALSE(ran.value(QStringLiteral("isError")).toBool()) << QJsonDocument(ran).toJson().toStdString();
}

TEST_F(BackendsPageTest, changedDefaultBackendAppliesToTheWindowsNextRunsAndMcpSessions)
{
    // Podman reached at an address of this test only, so a run that goes there says so (it needs no image).
    const sandbox::test::ScopedEnvironment noPodmanHost{{"CONTAINER_HOST", QByteArray()}};
    DesktopApp desktop(*m_context);
    MainWindow window(desktop);
    EngineController *controller = &desktop.controller();
    ASSERT_NE(controller, nullptr);
    ASSERT_EQ(m_context->defaultBackend(), QStringLiteral("docker"));
    RunOutcomes runs(*controller);
    BackendPanel *podman = window.findChild<BackendsPage *>()->panel(QStringLiteral("podman"));
    const QString socket = m_folder.filePath(QStringLiteral("no-podman-here.sock"));
    podman->findChild<QLineEdit *>(QStringLiteral("containerHost"))->setText(QStringLiteral("unix://") + socket);
    podman->findChild<QPushButton *>(QStringLiteral("saveConnection"))->click();
    const RunOutcomes::Outcome &onDocker = runs.waitFor(runs.start(QStringLiteral("print(1)")));
    ASSERT_TRUE(onDocker.result.has_value()) << onDocker.why();

    // Podman's Default box: saved, and in force in this window at once, for runs and new MCP sessions.
    auto *isDefault = podman->findChild<QCheckBox *>(QStringLiteral("defaultBackend"));
    isDefault->setChecked(true);
    EXPECT_EQ(m_context->userSettings().backend(), QStringLiteral("podman"));
    EXPECT_EQ(m_context->defaultBackend(), QStringLiteral("podman"));
    EXPECT_EQ(controller->defaultBackend(), QStringLiteral("podman"));
    const RunOutcomes::Outcome &onPodman = runs.waitFor(runs.start(QStringLiteral("print(2)")));
    ASSERT_TRUE(onPodman.error.has_value()) << "did not go to Podman";
    EXPECT_TRUE(onPodman.error->message.contains(socket)) << onPodman.why();
    expectNewMcpSessionRefusedAt(window, socket);

    // Unchecked: Docker again.
    isDefault->setChecked(false);
    EXPECT_EQ(m_context->defaultBackend(), QStringLiteral("docker"));
    EXPECT_EQ(controller->defaultBackend(), QStringLiteral("docker"));
    const RunOutcomes::Outcome &back = runs.waitFor(runs.start(QStringLiteral("print(4)")));
    ASSERT_TRUE(back.result.has_value()) << back.why();
    EXPECT_EQ(back.result->exitCode, 0);
    auto dockerSession = mcpSession(window);
    const QJsonObject ran = executeCode(*dockerSession, 2, QStringLiteral("print(5)"));
    EXPECT_FALSE(ran.value(QStringLiteral("isError")).toBool()) << QJsonDocument(ran).toJson().toStdString();
}

namespace {

/// A keychain that answers only when the test says so: a locked one, waiting for its unlock password.
class WaitingKeychain final : public SecretStore
{
public:
    using Reply = Result<std::optional<QByteArray>>;

    QFuture<Reply> get(const QString &) override
    {
        const std::lock_guard lock(m_mutex);
        m_pending = std::make_shared<QPromise<Reply>>();
        m_pending->start();
        ++m_asked;
        return m_pending->future();
    }
    QFuture<Result<void>> set(const QString &, const QByteArray &) override
    {
        return QtFuture::makeReadyFuture(Result<void>());
    }
    QFuture<Result<void>> remove(const QString &) override { return QtFuture::makeReadyFuture(Result<void>()); }

    int asked() const { return m_asked; }
    /// Answers the lookup waiting now: no login kept.
    void answerNone()
    {
        const std::lock_guard lock(m_mutex);
        if (m_pending) {
            m_pending->addResult(Reply(std::optional<QByteArray>()));
            m_pending->finish();
            m_pending.reset();
        }
    }

private:
    std::mutex m_mutex;
    std::shared_ptr<QPromise<Reply>> m_pending;
    std::atomic_int m_asked = 0;
};

/// The Kubernetes panel's push to the loopback registry with-registry started (LLM_SANDBOX_TEST_REGISTRY), of the
/// Python image Docker has: ctest runs these through tests/kubernetes/registry/with-registry (gui_backends_push).
class BackendsPagePushTest : public BackendsPageTest
{
protected:
    void SetUp() override
    {
        BackendsPageTest::SetUp();
        m_registry = qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY");
        ASSERT_FALSE(m_registry.isEmpty()) << "run through tests/kubernetes/registry/with-registry";
        m_runImage = *m_context->catalog().runImage(*LanguageRegistry::instance().find(m_language));
        ASSERT_FALSE(imageId(QStringLiteral("docker"), m_runImage).isEmpty())
            << m_runImage.toStdString() << " is missing: run llm-sandbox images build " << m_language.toStdString();
    }

    void TearDown() override
    {
        // A complete push leaves the registry's name on the image (the engine's record of where it went): gone
        // again, the image stays.
        for (const QString &tag : registryTags()) {
            (void)dockerCli({QStringLiteral("image"), QStringLiteral("rm"), tag});
        }
        BackendsPageTest::TearDown();
    }

    /// The Kubernetes panel's Images tab, pushing to `registry` from Docker, m_language selected.
    BackendPanel *openPush(const QString &registry)
    {
        BackendPanel *panel = open(1, QStringLiteral("kubernetes"));
        auto *from = panel->findChild<QComboBox *>(QStringLiteral("pushFrom"));
        from->setCurrentIndex(from->findData(QStringLiteral("docker")));
        auto *field = panel->findChild<QLineEdit *>(QStringLiteral("registry"));
        field->clear();
        QTest::keyClicks(field, registry);
        selectLanguage(panel, m_language);
        return panel;
    }

    QPushButton *pushButton(BackendPanel *panel) const
    {
        return panel->findChild<QPushButton *>(QStringLiteral("pushImage"));
    }

    /// The names Docker has under a registry of this test's (the loopback one, and 127.0.0.1:1).
    QStringList registryTags() const
    {
        QStringList tags;
        const QString all = dockerCli(
            {QStringLiteral("images"), QStringLiteral("--format"), QStringLiteral("{{.Repository}}:{{.Tag}}")});
        for (const QString &tag : all.split(u'\n', Qt::SkipEmptyParts)) {
            if ((!m_registry.isEmpty() && tag.startsWith(m_registry + u'/')) ||
                tag.startsWith(QLatin1String("127.0.0.1:1/"))) {
                tags << tag;
            }
        }
        return tags;
    }

    /// What the registry answers for the tags of m_language's image.
    QString registryTagList() const
    {
        QStringList arguments{QStringLiteral("-s"),
                              QStringLiteral("http://%1/v2/llm-sandbox/%2/tags/list").arg(m_registry, m_language)};
        if (!qEnvironmentVariableIsEmpty("LLM_SANDBOX_TEST_REGISTRY_USER")) {
            // with-registry --auth: its throwaway account.
            arguments << QStringLiteral("-u")
                      << qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY_USER") + u':' +
                             qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY_PASSWORD");
        }
        QProcess curl;
        curl.start(QStringLiteral("curl"), arguments);
        curl.waitForFinished(30000);
        return QString::fromUtf8(curl.readAllStandardOutput());
    }

    QString tag() const { return m_runImage.section(u':', -1); }

    /// The language whose run image is pushed: Python's, the largest (a push takes long enough to cancel).
    QString m_language = QStringLiteral("python");
    QString m_registry;
    QString m_runImage;
};

} // namespace

// First of the suite: the registry is still empty, so the layers take a while to go up.
TEST_F(BackendsPagePushTest, cancellingMidPushLeavesNoRegistryTagInDockerOrTheRegistry)
{
    BackendPanel *panel = openPush(m_registry);
    ASSERT_TRUE(pushButton(panel)->isEnabled());
    QSignalSpy finished(panel->imagesTab(), &ImagesTab::buildFinished);
    QTest::mouseClick(pushButton(panel), Qt::LeftButton);
    ASSERT_TRUE(panel->imagesTab()->building());
    // The engine announced the layers: the push is under way.
    ASSERT_TRUE(
        waitUntil([&] { return panel->imagesTab()->buildProgress()->maximum() > 0 || finished.count() > 0; }, 120s))
        << panel->imagesTab()->buildStatus().toStdString();
    // Bytes go up meanwhile (the engine reports a layer's start and end only): the cancel comes amid an upload.
    QTest::qWait(3000);
    ASSERT_EQ(finished.count(), 0) << "the push ended before it could be cancelled: "
                                   << panel->imagesTab()->buildStatus().toStdString();
    std::cout << "cancelled the push at \"" << panel->imagesTab()->buildStatus().toStdString() << "\" ("
              << panel->imagesTab()->buildProgress()->value() << " of "
              << panel->imagesTab()->buildProgress()->maximum() << " layers)\n";
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("cancelBuild")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60s));
    EXPECT_LT(sinceCancel.elapsed(), 15000);
    EXPECT_FALSE(finished.first().first().toBool());
    EXPECT_TRUE(panel->imagesTab()->buildStatus().contains(QStringLiteral("cancelled")))
        << panel->imagesTab()->buildStatus().toStdString();

    EXPECT_TRUE(registryTags().isEmpty()) << registryTags().join(u' ').toStdString();
    EXPECT_FALSE(registryTagList().contains(tag())) << registryTagList().toStdString();
    EXPECT_EQ(panel->imagesTab()->imageModel()->index(0, ImageTableModel::RegistryColumn).data().toString(),
              QStringLiteral("–"));
    EXPECT_TRUE(pushButton(panel)->isEnabled());
}

TEST_F(BackendsPagePushTest, pushShowsLayerProgressAndTheRegistryThenHasTheTag)
{
    BackendPanel *panel = openPush(m_registry);
    QAbstractItemModelTester tester(panel->imagesTab()->imageModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_FALSE(
        panel->findChild<QTableView *>(QStringLiteral("imagesView"))->isColumnHidden(ImageTableModel::RegistryColumn));
    EXPECT_TRUE(m_page->panel(QStringLiteral("docker"))
                    ->findChild<QTableView *>(QStringLiteral("imagesView"))
                    ->isColumnHidden(ImageTableModel::RegistryColumn))
        << "Docker's own images are pushed from the Kubernetes panel";
    QSignalSpy finished(panel->imagesTab(), &ImagesTab::buildFinished);
    QTest::mouseClick(pushButton(panel), Qt::LeftButton);
    ASSERT_TRUE(panel->imagesTab()->building());
    EXPECT_FALSE(pushButton(panel)->isEnabled());
    EXPECT_TRUE(panel->findChild<QPushButton *>(QStringLiteral("cancelBuild"))->isEnabled());
    // Progress in layers, as the engine reports them.
    int layers = 0;
    QStringList statuses;
    ASSERT_TRUE(waitUntil(
        [&] {
            layers = std::max(layers, panel->imagesTab()->buildProgress()->maximum());
            if (statuses.isEmpty() || statuses.last() != panel->imagesTab()->buildStatus()) {
                statuses << panel->imagesTab()->buildStatus();
            }
            return finished.count() == 1;
        },
        300s));
    ASSERT_TRUE(finished.first().first().toBool()) << panel->imagesTab()->buildStatus().toStdString();
    EXPECT_GT(layers, 1);
    EXPECT_EQ(panel->imagesTab()->buildProgress()->value(), panel->imagesTab()->buildProgress()->maximum());
    EXPECT_EQ(panel->imagesTab()->buildProgress()->text(), QStringLiteral("%1 of %1 layers").arg(layers));
    EXPECT_TRUE(statuses.filter(QStringLiteral(": Pushed")).size() > 0 ||
                statuses.filter(QStringLiteral("Layer already exists")).size() > 0)
        << statuses.join(u'\n').toStdString();
    std::cout << "the push showed:\n" << statuses.join(u'\n').toStdString() << '\n';
    EXPECT_TRUE(panel->imagesTab()->buildStatus().contains(QStringLiteral("pushed 1 image(s) to ") + m_registry) ||
                panel->imagesTab()->buildStatus().contains(QStringLiteral("pushed 1 image to ") + m_registry))
        << panel->imagesTab()->buildStatus().toStdString();

    // The registry has the tag; the table says when it went; the registry is saved for the pods.
    EXPECT_TRUE(registryTagList().contains(u'"' + tag() + u'"')) << registryTagList().toStdString();
    int row = 0;
    while (panel->imagesTab()->imageModel()->images().at(row).language != QLatin1String("python")) {
        ++row;
    }
    const QModelIndex pushed = panel->imagesTab()->imageModel()->index(row, ImageTableModel::RegistryColumn);
    EXPECT_TRUE(pushed.data().toString().startsWith(QStringLiteral("pushed ")))
        << pushed.data().toString().toStdString();
    EXPECT_EQ(pushed.data(Qt::ToolTipRole).toString(), QStringLiteral("Pushed as %1/%2").arg(m_registry, m_runImage));
    EXPECT_EQ(m_context->userSettings().connection().registry, m_registry);
}

TEST_F(BackendsPagePushTest, thePanelIsBusyWhileTheKeychainIsAskedAndCancelStopsTheWait)
{
    WaitingKeychain keychain;
    m_keychain = &keychain;
    BackendPanel *panel = openPush(m_registry);
    QSignalSpy finished(panel->imagesTab(), &ImagesTab::buildFinished);
    auto *cancel = panel->findChild<QPushButton *>(QStringLiteral("cancelBuild"));

    // A keychain that does not answer: the GUI thread goes on, the panel shows it waits, Cancel ends the wait.
    QTest::mouseClick(pushButton(panel), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return keychain.asked() == 1; }, 10s));
    QTest::qWait(500);
    EXPECT_TRUE(panel->imagesTab()->building());
    EXPECT_FALSE(pushButton(panel)->isEnabled());
    EXPECT_TRUE(cancel->isEnabled());
    EXPECT_EQ(panel->imagesTab()->buildProgress()->maximum(), 0) << "a busy indicator";
    EXPECT_TRUE(panel->imagesTab()->buildStatus().contains(QStringLiteral("keychain")))
        << panel->imagesTab()->buildStatus().toStdString();
    QTest::mouseClick(cancel, Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 5s));
    EXPECT_FALSE(finished.first().first().toBool());
    EXPECT_TRUE(panel->imagesTab()->buildStatus().contains(QStringLiteral("cancelled")))
        << panel->imagesTab()->buildStatus().toStdString();
    EXPECT_TRUE(registryTags().isEmpty());

    // Once it answers (no login kept), the push goes on without one.
    QTest::mouseClick(pushButton(panel), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return keychain.asked() == 2; }, 10s));
    QTest::qWait(300);
    EXPECT_TRUE(panel->imagesTab()->building());
    keychain.answerNone();
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 2; }, 300s));
    EXPECT_TRUE(finished.last().first().toBool()) << panel->imagesTab()->buildStatus().toStdString();
    EXPECT_TRUE(registryTagList().contains(u'"' + tag() + u'"')) << registryTagList().toStdString();
}

TEST_F(BackendsPagePushTest, anUnreachableRegistryIsAClearErrorAndLeavesNoTag)
{
    BackendPanel *panel = openPush(QStringLiteral("127.0.0.1:1"));
    QSignalSpy finished(panel->imagesTab(), &ImagesTab::buildFinished);
    QTest::mouseClick(pushButton(panel), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 120s));
    EXPECT_FALSE(finished.first().first().toBool());
    EXPECT_TRUE(
        panel->imagesTab()->buildStatus().contains(QStringLiteral("The registry 127.0.0.1:1 could not be reached")))
        << panel->imagesTab()->buildStatus().toStdString();
    EXPECT_TRUE(registryTags().isEmpty()) << registryTags().join(u' ').toStdString();
    EXPECT_GT(panel->imagesTab()->buildProgress()->maximum(), 0) << "no busy indicator left";
}

TEST_F(BackendsPagePushTest, aLanguageDockerHasNoImageOfIsAClearErrorAndNothingIsTagged)
{
    useChangedRunner(); // python's run image gets a tag Docker has none of
    const QString missing =
        *m_context->catalog().runImage(*LanguageRegistry::instance().find(QStringLiteral("python")));
    ASSERT_NE(missing, m_runImage);
    BackendPanel *panel = openPush(m_registry);
    ASSERT_FALSE(panel->imagesTab()->imageModel()->find(QStringLiteral("python"))->present);
    QSignalSpy finished(panel->imagesTab(), &ImagesTab::buildFinished);
    QTest::mouseClick(pushButton(panel), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60s));
    EXPECT_FALSE(finished.first().first().toBool());
    EXPECT_TRUE(panel->imagesTab()->buildStatus().startsWith(QStringLiteral("Not pushed: the image is not there.")))
        << panel->imagesTab()->buildStatus().toStdString();
    EXPECT_TRUE(panel->imagesTab()->buildStatus().contains(QStringLiteral("docker has no image ") + missing))
        << panel->imagesTab()->buildStatus().toStdString();
    EXPECT_TRUE(dockerCli({QStringLiteral("images"), QStringLiteral("-q"), m_registry + u'/' + missing}).isEmpty());
}

namespace {

/// The push to a registry that wants a login (with-registry --auth: gui_backends_push_auth), with the login the
/// keychain keeps for it (`images login` puts it there).
class BackendsPagePushAuthTest : public BackendsPagePushTest
{
protected:
    void SetUp() override
    {
        // A login is asked for whatever is pushed: Ruby's image, a fifth of Python's, goes up sooner.
        m_language = QStringLiteral("ruby");
        BackendsPagePushTest::SetUp();
        if (HasFatalFailure()) {
            return;
        }
        ASSERT_FALSE(qEnvironmentVariableIsEmpty("LLM_SANDBOX_TEST_REGISTRY_USER"))
            << "run through with-registry --auth";
    }

    /// Keeps a login for the registry in the keychain the page is given.
    void keepLogin(const QString &password)
    {
        RegistryCredentialStore logins(m_secrets);
        const auto saved = logins
                               .save({.username = qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY_USER"),
                                      .password = password,
                                      .serverAddress = m_registry})
                               .result();
        ASSERT_TRUE(saved.ok()) << saved.error().message.toStdString();
    }

    /// Pushes m_language's image and returns whether it succeeded; the statuses the panel showed go to `statuses`.
    bool push(QStringList &statuses)
    {
        BackendPanel *panel = openPush(m_registry);
        QSignalSpy finished(panel->imagesTab(), &ImagesTab::buildFinished);
        QTest::mouseClick(pushButton(panel), Qt::LeftButton);
        EXPECT_TRUE(waitUntil(
            [&] {
                if (statuses.isEmpty() || statuses.last() != panel->imagesTab()->buildStatus()) {
                    statuses << panel->imagesTab()->buildStatus();
                }
                return finished.count() == 1;
            },
            300s));
        return finished.count() == 1 && finished.first().first().toBool();
    }
};

} // namespace

TEST_F(BackendsPagePushAuthTest, withoutALoginTheRegistryRefusesAndThePanelSaysToLogIn)
{
    QStringList statuses;
    EXPECT_FALSE(push(statuses));
    EXPECT_TRUE(statuses.last().contains(QStringLiteral("refused the push: it needs a login")))
        << statuses.join(u'\n').toStdString();
    EXPECT_TRUE(registryTags().isEmpty()) << registryTags().join(u' ').toStdString();
}

TEST_F(BackendsPagePushAuthTest, aWrongPasswordIsRefusedAndNothingIsTagged)
{
    keepLogin(QStringLiteral("not-the-password"));
    QStringList statuses;
    EXPECT_FALSE(push(statuses));
    EXPECT_TRUE(statuses.last().contains(QStringLiteral("refused the push with the login stored for it")))
        << statuses.join(u'\n').toStdString();
    EXPECT_FALSE(statuses.join(u'\n').contains(QStringLiteral("not-the-password")));
    EXPECT_TRUE(registryTags().isEmpty()) << registryTags().join(u' ').toStdString();
}

TEST_F(BackendsPagePushAuthTest, theKeychainsLoginIsUsedAndTheRegistryHasTheTag)
{
    keepLogin(qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY_PASSWORD"));
    QStringList statuses;
    EXPECT_TRUE(push(statuses)) << statuses.join(u'\n').toStdString();
    EXPECT_FALSE(statuses
                     .filter(QStringLiteral("Using the login of %1 for %2 from the system keychain")
                                 .arg(qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY_USER"), m_registry))
                     .isEmpty())
        << statuses.join(u'\n').toStdString();
    EXPECT_FALSE(statuses.join(u'\n').contains(qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY_PASSWORD")));
    EXPECT_TRUE(registryTagList().contains(u'"' + tag() + u'"')) << registryTagList().toStdString();
}

namespace {

/// The push with the login in a real keychain (with-keychain: GNOME Keyring on a D-Bus of its own), to a registry
/// that wants it (with-registry --auth): gui_backends_push_keychain.
class BackendsPagePushKeychainTest : public BackendsPagePushAuthTest
{
};

} // namespace

// QtKeychain runs its jobs in the thread that first used it, and crashes when asked from another: the page starts the
// lookup on the GUI thread (as the server page does for its token) and only waits for it on the push's thread.
TEST_F(BackendsPagePushKeychainTest, theLoginIsReadFromTheSystemKeychainBesideTheServerPagesUse)
{
    ASSERT_FALSE(qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) << "run through with-keychain";
    KeychainSecretStore keychain;
    RegistryCredentialStore logins(keychain);
    auto saved = logins.save({.username = qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY_USER"),
                              .password = qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY_PASSWORD"),
                              .serverAddress = m_registry});
    ASSERT_TRUE(waitUntil([&] { return saved.isFinished(); }, 30s));
    ASSERT_TRUE(saved.result().ok()) << saved.result().error().message.toStdString();
    m_keychain = &keychain;

    QStringList statuses;
    EXPECT_TRUE(push(statuses)) << statuses.join(u'\n').toStdString();
    EXPECT_FALSE(statuses
                     .filter(QStringLiteral("Using the login of %1 for %2 from the system keychain")
                                 .arg(qEnvironmentVariable("LLM_SANDBOX_TEST_REGISTRY_USER"), m_registry))
                     .isEmpty())
        << statuses.join(u'\n').toStdString();
    EXPECT_TRUE(registryTagList().contains(u'"' + tag() + u'"')) << registryTagList().toStdString();
}
