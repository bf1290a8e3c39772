#include "gui/backends/BackendsPage.h"

#include "AppContext.h"
#include "DiagnosisText.h"
#include "GuiTestSupport.h"
#include "ScopedEnvironment.h"
#include "backend/BackendFactory.h"
#include "gui/backends/BackendPanel.h"
#include "gui/backends/ImageTableModel.h"
#include "gui/backends/SandboxTableModel.h"
#include "lang/LanguageRegistry.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QVersionNumber>
#include <gtest/gtest.h>
#include <iostream>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::McpServerProcess;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

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
        auto made = AppContext::create({.source = QStringLiteral("gui")});
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
    BackendPanel *open(int tab)
    {
        m_page = std::make_unique<BackendsPage>(*m_context);
        m_page->resize(1100, 700);
        m_page->show();
        BackendPanel *panel = m_page->panel(QStringLiteral("docker"));
        panel->findChild<QTabWidget *>(QStringLiteral("backendTabs"))->setCurrentIndex(tab);
        return panel;
    }

    static QString dockerCli(const QStringList &arguments)
    {
        QProcess docker;
        docker.start(QStringLiteral("docker"), arguments);
        docker.waitForFinished(60000);
        return QString::fromUtf8(docker.readAllStandardOutput()).trimmed();
    }

    QTemporaryDir m_folder;
    sandbox::test::ScopedEnvironment m_environment{{"XDG_CONFIG_HOME", m_folder.path().toUtf8()},
                                                   {"LLM_SANDBOX_JOURNAL", QByteArray("off")},
                                                   {"DOCKER_HOST", QByteArray()},
                                                   {"BACKEND", QByteArray()}};
    std::unique_ptr<AppContext> m_context;
    std::unique_ptr<BackendsPage> m_page;
};

} // namespace

TEST_F(BackendsPageTest, testConnectionShowsTheDockerEnginesVersion)
{
    BackendPanel *panel = open(0);
    QSignalSpy finished(panel, &BackendPanel::testFinished);
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("testConnection")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 180s));

    const QString version =
        dockerCli({QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.Version}}")});
    const QString api =
        dockerCli({QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.APIVersion}}")});
    ASSERT_FALSE(version.isEmpty()) << "the docker command did not answer";
    ASSERT_TRUE(panel->diagnosis().has_value());
    EXPECT_EQ(panel->diagnosis()->state, BackendDiagnosis::State::Reachable)
        << diagnosisSummary(*panel->diagnosis()).toStdString();
    EXPECT_EQ(panel->diagnosis()->info.version, version);
    const QString shown = panel->testResultText();
    EXPECT_TRUE(shown.contains(QStringLiteral("Version") + u'\t' + version) || shown.contains(version))
        << shown.toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("rootful")) || shown.contains(QStringLiteral("rootless")));
    EXPECT_TRUE(shown.contains(QStringLiteral("runc"))) << "the engine's runtimes: " << shown.toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("cgroup version")));
    // The API version in use is one the engine speaks (at most its own).
    EXPECT_FALSE(panel->diagnosis()->info.apiVersion.isEmpty());
    EXPECT_LE(QVersionNumber::fromString(panel->diagnosis()->info.apiVersion), QVersionNumber::fromString(api));
}

TEST_F(BackendsPageTest, wrongSocketGivesTheDiagnosisDoctorGives)
{
    BackendPanel *panel = open(0);
    const QString socket = m_folder.filePath(QStringLiteral("no-engine-here.sock"));
    auto *host = panel->findChild<QLineEdit *>(QStringLiteral("dockerHost"));
    host->setText(QStringLiteral("unix://") + socket);
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("saveConnection")), Qt::LeftButton);
    EXPECT_EQ(m_context->userSettings().connection().dockerHost, QStringLiteral("unix://") + socket);

    QSignalSpy finished(panel, &BackendPanel::testFinished);
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("testConnection")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60s));
    ASSERT_TRUE(panel->diagnosis().has_value());
    EXPECT_EQ(panel->diagnosis()->state, BackendDiagnosis::State::Unreachable);
    const QString diagnosis = diagnosisSummary(*panel->diagnosis());
    EXPECT_TRUE(diagnosis.contains(socket)) << diagnosis.toStdString();
    EXPECT_TRUE(panel->testResultText().contains(diagnosis)) << panel->testResultText().toStdString();

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
    // A runner that differs by one byte: python's run image (and what is built on it) gets new tags, so the build
    // is real and small, and touches no image the other tests use.
    QFile runner(qEnvironmentVariable("LLM_SANDBOX_RUNNER"));
    ASSERT_TRUE(runner.open(QIODevice::ReadOnly));
    QByteArray bytes = runner.readAll();
    bytes.append(QByteArray("\n# backends page test ") + QByteArray::number(QDateTime::currentMSecsSinceEpoch()));
    QFile copy(m_folder.filePath(QStringLiteral("llm-sandbox-runner")));
    ASSERT_TRUE(copy.open(QIODevice::WriteOnly));
    copy.write(bytes);
    copy.close();
    copy.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    sandbox::test::ScopedEnvironment runnerCopy{{"LLM_SANDBOX_RUNNER", copy.fileName().toUtf8()}};

    auto backend = BackendFactory::create(QStringLiteral("docker"));
    ASSERT_TRUE(backend.ok());
    const ImageCatalog catalog = m_context->catalog();
    const auto images = catalog.imagesFor(*LanguageRegistry::instance().find(QStringLiteral("python")));
    ASSERT_TRUE(images.ok()) << images.error().message.toStdString();
    QStringList fresh;
    for (const ImageDefinition &image : *images) {
        if (!*(*backend)->hasImage(image.reference)) {
            fresh << image.reference;
        }
    }
    ASSERT_FALSE(fresh.isEmpty());
    ASSERT_TRUE(fresh.contains(*catalog.runImage(*LanguageRegistry::instance().find(QStringLiteral("python")))));

    BackendPanel *panel = open(1);
    QAbstractItemModelTester tester(panel->imageModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(waitUntil([&] { return panel->imageModel()->rowCount() > 0; }, 60s));
    const LanguageImage *python = panel->imageModel()->find(QStringLiteral("python"));
    ASSERT_NE(python, nullptr);
    EXPECT_FALSE(python->present) << "the changed runner's image cannot be there yet";
    auto *view = panel->findChild<QTableView *>(QStringLiteral("imagesView"));
    for (int row = 0; row < panel->imageModel()->rowCount(); ++row) {
        if (panel->imageModel()->images().at(row).language == QLatin1String("python")) {
            view->selectRow(row);
        }
    }

    QSignalSpy finished(panel, &BackendPanel::buildFinished);
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("buildImage")), Qt::LeftButton);
    ASSERT_TRUE(panel->building());
    QProgressBar *progress = panel->buildProgress();
    EXPECT_EQ(progress->maximum(), images->size());
    // Progress shows: the images already there count, then the first new one is being built (its output streams in).
    const int present = int(images->size() - fresh.size());
    ASSERT_TRUE(waitUntil(
        [&] {
            return progress->value() == present && !panel->buildStatus().endsWith(QStringLiteral("up to date")) &&
                   !panel->buildStatus().startsWith(QStringLiteral("Checking"));
        },
        300s))
        << panel->buildStatus().toStdString();
    EXPECT_GT(progress->value(), 0);
    QTest::qWait(3000);
    ASSERT_TRUE(panel->building()) << "the build ended before it could be cancelled: "
                                   << panel->buildStatus().toStdString();
    const QString buildingWhat = panel->buildStatus();
    QElapsedTimer sinceCancel;
    sinceCancel.start();
    QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("cancelBuild")), Qt::LeftButton);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60s));
    // The engine's build was stopped, not waited out (apt-get in a builder image takes minutes here).
    EXPECT_LT(sinceCancel.elapsed(), 15000);
    std::cout << "cancelled during \"" << buildingWhat.toStdString() << "\" after " << sinceCancel.elapsed() << " ms\n";
    EXPECT_FALSE(finished.first().first().toBool());
    EXPECT_TRUE(panel->buildStatus().contains(QStringLiteral("cancelled"))) << panel->buildStatus().toStdString();

    // No new name remains, now or once the engine would have finished an abandoned build.
    for (int check = 0; check < 2; ++check) {
        for (const QString &reference : fresh) {
            EXPECT_FALSE(*(*backend)->hasImage(reference)) << reference.toStdString();
        }
        QTest::qWait(10000);
    }
    const QString tags =
        dockerCli({QStringLiteral("images"), QStringLiteral("--format"), QStringLiteral("{{.Repository}}:{{.Tag}}")});
    for (const QString &reference : fresh) {
        EXPECT_FALSE(tags.contains(reference)) << reference.toStdString();
        (void)(*backend)->removeImage(reference); // in case
    }
}

TEST_F(BackendsPageTest, sandboxOfASeparateMcpServerShowsWithItsOwner)
{
    BackendPanel *panel = open(2);
    QAbstractItemModelTester tester(panel->sandboxModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);

    McpServerProcess server(m_folder.filePath(QStringLiteral("journal.sqlite")), m_folder.path());
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
        for (const SandboxEntry &entry : panel->sandboxModel()->sandboxes()) {
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
    for (int row = 0; row < panel->sandboxModel()->rowCount(); ++row) {
        if (panel->sandboxModel()->index(row, 0).data(SandboxTableModel::OwnerPidRole).toLongLong() == pid) {
            EXPECT_EQ(panel->sandboxModel()->index(row, SandboxTableModel::OwnerColumn).data().toString(),
                      QStringLiteral("pid %1").arg(pid));
        }
    }

    // When the server ends, its sandbox leaves the list.
    const QString id = entry->container.id;
    server.process().closeWriteChannel();
    ASSERT_TRUE(server.process().waitForFinished(30000));
    ASSERT_TRUE(waitUntil(
        [&] {
            return std::none_of(panel->sandboxModel()->sandboxes().cbegin(), panel->sandboxModel()->sandboxes().cend(),
                                [&](const SandboxEntry &sandbox) { return sandbox.container.id == id; });
        },
        60s));
}
