// The real QtKeychain store where no keychain can answer (no D-Bus session bus, as on CI machines and servers): it
// must fail quickly with an error that says so, never hang and never fall back to a plain-text file.
#include "secrets/KeychainSecretStore.h"

#include "WaitUntil.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QStandardPaths>
#include <gtest/gtest.h>

using namespace sandbox;

namespace {

template <typename T>
T waitFor(QFuture<T> future)
{
    // QtKeychain answers through the event loop; spinning it here is a test's privilege.
    const bool finished = test::waitUntil(
        [&] {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            return future.isFinished();
        },
        std::chrono::seconds(20));
    EXPECT_TRUE(finished) << "the keychain call did not finish";
    return future.result();
}

class KeychainSecretStoreTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_bus = qgetenv("DBUS_SESSION_BUS_ADDRESS");
        m_display = qgetenv("DISPLAY");
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        qunsetenv("DISPLAY"); // no X11 autolaunch of a bus either
    }
    void TearDown() override
    {
        if (!m_bus.isEmpty()) {
            qputenv("DBUS_SESSION_BUS_ADDRESS", m_bus);
        }
        if (!m_display.isEmpty()) {
            qputenv("DISPLAY", m_display);
        }
    }

    QByteArray m_bus;
    QByteArray m_display;
};

TEST_F(KeychainSecretStoreTest, withoutSessionBusEveryCallIsAClearError)
{
    KeychainSecretStore store(QStringLiteral("llm-sandbox-test"), std::chrono::seconds(10));
    const Result<std::optional<QByteArray>> read = waitFor(store.get(QStringLiteral("http-token")));
    ASSERT_FALSE(read.ok());
    EXPECT_TRUE(read.error().message.contains(QStringLiteral("keychain"))) << read.error().message.toStdString();
    EXPECT_TRUE(read.error().message.contains(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")));

    const Result<void> written = waitFor(store.set(QStringLiteral("http-token"), "secret"));
    ASSERT_FALSE(written.ok());
    EXPECT_FALSE(waitFor(store.remove(QStringLiteral("http-token"))).ok());
}

TEST_F(KeychainSecretStoreTest, neverWritesTheSecretToASettingsFile)
{
    const QString config = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    KeychainSecretStore store(QStringLiteral("llm-sandbox-test"), std::chrono::seconds(10));
    EXPECT_FALSE(waitFor(store.set(QStringLiteral("http-token"), "do-not-store-me")).ok());
    for (QDirIterator files(config, QDir::Files, QDirIterator::Subdirectories); files.hasNext();) {
        QFile settings(files.next());
        ASSERT_TRUE(settings.open(QIODevice::ReadOnly));
        EXPECT_FALSE(settings.readAll().contains("do-not-store-me")) << settings.fileName().toStdString();
    }
}

} // namespace
