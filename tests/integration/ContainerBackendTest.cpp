// The backends against the real engines: what they report, their errors, image import and the
// copy of images from one engine into the other.
#include "BackendTestSupport.h"
#include "backend/BackendFactory.h"
#include "backend/ImageTransfer.h"
#include "backend/TarArchive.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QUuid>
#include <algorithm>
#include <atomic>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace sandbox;

namespace {

class ContainerBackendTest : public ::testing::TestWithParam<std::string>
{
protected:
    /// The backend as the product makes it when its address variable says `address`.
    std::shared_ptr<ContainerBackend> backendAt(const QString &address) const
    {
        const QByteArray variable = test::hostVariable(GetParam()).toUtf8();
        const QByteArray saved = qgetenv(variable.constData());
        const bool wasSet = qEnvironmentVariableIsSet(variable.constData());
        qputenv(variable.constData(), address.toUtf8());
        auto backend = BackendFactory::create(QString::fromStdString(GetParam()));
        if (wasSet) {
            qputenv(variable.constData(), saved);
        } else {
            qunsetenv(variable.constData());
        }
        EXPECT_TRUE(backend.ok());
        return backend.ok() ? *backend : nullptr;
    }

    /// What the error must tell to start the engine.
    QString startAdvice(const QString &address) const
    {
        return GetParam() == "podman" ? QStringLiteral("podman system service --time=0 %1 &").arg(address)
                                      : QStringLiteral("dockerd");
    }
};

/// Removes an image the test made, under every name an engine may have given it; the engines'
/// CLIs are fine in tests (never in the product).
void removeImage(const std::string &backend, const QString &reference)
{
    for (const QString &name : {reference, QString(QStringLiteral("localhost/") + reference)}) {
        QProcess rmi;
        rmi.start(QString::fromStdString(backend), {QStringLiteral("rmi"), QStringLiteral("-f"), name});
        rmi.waitForFinished(60000);
    }
}

} // namespace

TEST_P(ContainerBackendTest, probeReportsTheEngineVersionAndMode)
{
    auto backend = test::backendFor(GetParam());
    ASSERT_TRUE(backend);
    auto info = backend->probe();
    ASSERT_TRUE(info.ok()) << info.error().message.toStdString();
    EXPECT_EQ(info->name.toStdString(), GetParam());
    EXPECT_FALSE(info->version.isEmpty());
    EXPECT_TRUE(info->apiVersion.startsWith("1."));
    EXPECT_FALSE(info->os.isEmpty());
    if (GetParam() == "podman") {
        // The default socket is root's service when run as root, the user's (rootless) otherwise.
        EXPECT_EQ(info->rootless, ::geteuid() != 0);
    }
}

TEST_P(ContainerBackendTest, missingSocketIsOneClearSentenceSayingHowToStartTheEngine)
{
    auto backend = backendAt("unix:///nonexistent/engine.sock");
    ASSERT_TRUE(backend);
    auto info = backend->probe();
    ASSERT_FALSE(info.ok());
    const QString message = info.error().message;
    EXPECT_TRUE(message.contains("/nonexistent/engine.sock")) << message.toStdString();
    EXPECT_TRUE(message.contains("no socket")) << message.toStdString();
    EXPECT_TRUE(message.contains(startAdvice("unix:///nonexistent/engine.sock"))) << message.toStdString();
    EXPECT_TRUE(message.contains(test::hostVariable(GetParam()))) << message.toStdString();
    EXPECT_FALSE(message.contains('\n'));
}

TEST_P(ContainerBackendTest, socketWithoutAServiceSaysItIsNotRunning)
{
    // A unix socket file nobody listens on: what a stopped service leaves behind.
    QTemporaryDir dir;
    const QString path = dir.filePath("dead.sock");
    QProcess python;
    python.start("python3", {"-c", QString("import socket; s=socket.socket(socket.AF_UNIX); s.bind('%1')").arg(path)});
    ASSERT_TRUE(python.waitForFinished(10000));
    auto backend = backendAt("unix://" + path);
    ASSERT_TRUE(backend);
    auto info = backend->probe();
    ASSERT_FALSE(info.ok());
    const QString message = info.error().message;
    EXPECT_TRUE(message.contains("refused")) << message.toStdString();
    EXPECT_TRUE(message.contains(path)) << message.toStdString();
    EXPECT_TRUE(message.contains(startAdvice("unix://" + path))) << message.toStdString();
    if (GetParam() == "podman") {
        EXPECT_TRUE(message.contains("systemctl start podman.socket")) << message.toStdString();
    }
}

TEST_P(ContainerBackendTest, missingImageIsAClearError)
{
    auto backend = test::backendFor(GetParam());
    ASSERT_TRUE(backend);
    ContainerSpec spec;
    spec.image = "llm-sandbox/does-not-exist:0";
    spec.command = {"true"};
    auto created = backend->createContainer(spec);
    ASSERT_FALSE(created.ok());
    EXPECT_TRUE(created.error().message.contains("llm-sandbox/does-not-exist:0"))
        << created.error().message.toStdString();
    EXPECT_TRUE(created.error().message.contains("images build")) << created.error().message.toStdString();
}

TEST_P(ContainerBackendTest, removingAnAbsentContainerIsFine)
{
    auto backend = test::backendFor(GetParam());
    ASSERT_TRUE(backend);
    EXPECT_TRUE(backend->removeContainer("0123456789abcdef-not-there").ok());
}

TEST_P(ContainerBackendTest, importedImageHasItsTagAndLabelsAndCopiesIntoTheOtherEngine)
{
    // Import into the other engine, copy into this one: both import and both directions of
    // the copy run once the suite has run for both backends.
    const std::string target = GetParam();
    const std::string source = target == "podman" ? "docker" : "podman";
    auto from = test::backendFor(source);
    auto to = test::backendFor(target);
    ASSERT_TRUE(from && to);

    const QString reference = "llm-sandbox-test/transfer:" + QUuid::createUuid().toString(QUuid::Id128).left(12);
    const QString labelKey = "io.llm-sandbox.test-transfer";
    QTemporaryDir dir;
    const QString tarPath = dir.filePath("rootfs.tar");
    auto tar = TarArchive::fromFiles({{"hello.txt", "hello\n", 0644}});
    ASSERT_TRUE(tar.ok());
    QFile file(tarPath);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(*tar);
    file.close();

    auto imported = from->imageStore()->importImage(tarPath, reference, {{labelKey, reference}}, {});
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    auto present = from->imageStore()->hasImage(reference);
    ASSERT_TRUE(present.ok());
    EXPECT_TRUE(*present) << "the import must keep the tag";

    auto copied = ImageTransfer::copy(*from->imageStore(), *to->imageStore(), {reference}, {});
    EXPECT_TRUE(copied.ok()) << copied.error().message.toStdString();
    auto images = to->imageStore()->listImages(labelKey);
    removeImage(source, reference);
    removeImage(target, reference);
    ASSERT_TRUE(images.ok()) << images.error().message.toStdString();
    // Listed under the name the product gave it, whatever prefix the engine stores it under.
    const auto listed = std::find_if(images->begin(), images->end(),
                                     [&](const ImageInfo &image) { return image.reference == reference; });
    ASSERT_NE(listed, images->end());
    EXPECT_EQ(listed->labels.value(labelKey), reference);
}

TEST_P(ContainerBackendTest, copyingAnImageTheSourceLacksFailsClearly)
{
    const std::string target = GetParam();
    auto from = test::backendFor(target == "podman" ? "docker" : "podman");
    auto to = test::backendFor(target);
    ASSERT_TRUE(from && to);
    auto copied = ImageTransfer::copy(*from->imageStore(), *to->imageStore(), {"llm-sandbox/does-not-exist:0"}, {});
    ASSERT_FALSE(copied.ok());
    EXPECT_TRUE(copied.error().message.contains("llm-sandbox/does-not-exist:0"))
        << copied.error().message.toStdString();
    EXPECT_FALSE(copied.error().message.contains('\n'));
}

TEST_P(ContainerBackendTest, cancellingACopyMidTransferLeavesNothingOfItInTheTarget)
{
    // A 600 MB image in the other engine, copied into this one and cancelled at the first progress report (256 MB
    // streamed): the export is cut, and the target has neither the name nor the image (looked up by its id, which
    // a copy keeps: it is the digest of the image's configuration).
    const std::string target = GetParam();
    const std::string source = target == "podman" ? "docker" : "podman";
    auto from = test::backendFor(source);
    auto to = test::backendFor(target);
    ASSERT_TRUE(from && to);

    const QString reference = "llm-sandbox-test/cancelled-copy:" + QUuid::createUuid().toString(QUuid::Id128).left(12);
    const QString labelKey = "io.llm-sandbox.test-transfer";
    QTemporaryDir dir;
    QFile big(dir.filePath("big"));
    ASSERT_TRUE(big.open(QIODevice::WriteOnly));
    ASSERT_TRUE(big.resize(qint64(600) * 1024 * 1024)); // sparse here; the tar and the engines hold its zeros
    big.close();
    QProcess tar;
    tar.start("tar", {"-C", dir.path(), "-cf", dir.filePath("rootfs.tar"), "big"});
    ASSERT_TRUE(tar.waitForFinished(120000) && tar.exitCode() == 0) << tar.readAllStandardError().toStdString();
    ASSERT_TRUE(QFile::remove(big.fileName()));
    auto imported = from->imageStore()->importImage(dir.filePath("rootfs.tar"), reference, {{labelKey, reference}}, {});
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    QFile::remove(dir.filePath("rootfs.tar"));
    const auto idIn = [&](ImageStore &backend) {
        const auto images = backend.listImages(labelKey);
        for (const ImageInfo &image : images.ok() ? *images : QList<ImageInfo>{}) {
            if (image.reference == reference) {
                return image.id;
            }
        }
        return QString();
    };
    const QString id = idIn(*from->imageStore());
    ASSERT_FALSE(id.isEmpty());

    std::atomic_bool cancelled = false;
    QStringList progress;
    auto copied = ImageTransfer::copy(
        *from->imageStore(), *to->imageStore(), {reference},
        [&](const QString &line) {
            progress << line;
            if (line.startsWith("copied ")) {
                cancelled = true; // as the Backends page's Cancel does, from another thread
            }
        },
        &cancelled);
    const bool sawProgress = !progress.isEmpty();
    const bool targetHasName = *to->imageStore()->hasImage(reference);
    QProcess inspect;
    inspect.start(QString::fromStdString(target), {"image", "inspect", "--format", "{{.Id}}", id});
    inspect.waitForFinished(60000);
    const bool targetHasImage = inspect.exitCode() == 0;
    removeImage(source, reference);
    removeImage(target, reference);

    ASSERT_TRUE(sawProgress) << "the copy ended before a progress report";
    ASSERT_FALSE(copied.ok());
    EXPECT_EQ(copied.error().code, ErrorCode::Cancelled) << copied.error().message.toStdString();
    EXPECT_TRUE(copied.error().message.contains("nothing of it was kept")) << copied.error().message.toStdString();
    EXPECT_FALSE(targetHasName);
    EXPECT_FALSE(targetHasImage) << "the cancelled copy left the image " << id.toStdString() << " in " << target;
}

INSTANTIATE_TEST_SUITE_P(Backends, ContainerBackendTest, ::testing::ValuesIn(test::backendNames()),
                         test::backendTestName);
