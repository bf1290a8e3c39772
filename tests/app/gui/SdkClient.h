#pragma once

#include "GuiTestSupport.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <chrono>
#include <gtest/gtest.h>
#include <optional>

namespace sandbox::gui::guitest {

using namespace std::chrono_literals;

/// tests/mcp/sdk/embedded-client.mjs: the official SDK's Client over StreamableHTTPClientTransport, driven by one
/// JSON command per line.
class SdkClient final
{
public:
    SdkClient()
    {
        m_process.setWorkingDirectory(qEnvironmentVariable("LLM_SANDBOX_SOURCE_DIR") +
                                      QStringLiteral("/tests/mcp/sdk"));
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(QStandardPaths::findExecutable(QStringLiteral("node")),
                        {QStringLiteral("embedded-client.mjs")});
    }
    ~SdkClient()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    SdkClient(const SdkClient &) = delete;
    SdkClient &operator=(const SdkClient &) = delete;

    QProcess &process() { return m_process; }

    /// Sends the command; its id.
    int send(QJsonObject command)
    {
        const int id = ++m_lastId;
        command.insert(QStringLiteral("id"), id);
        m_process.write(QJsonDocument(command).toJson(QJsonDocument::Compact) + '\n');
        return id;
    }
    std::optional<QJsonObject> answer(int id)
    {
        m_buffer += m_process.readAllStandardOutput();
        qsizetype end = 0;
        while ((end = m_buffer.indexOf('\n')) >= 0) {
            const QJsonObject message = QJsonDocument::fromJson(m_buffer.left(end)).object();
            m_buffer.remove(0, end + 1);
            m_answers.insert(message.value(QStringLiteral("id")).toInt(), message);
        }
        if (const auto it = m_answers.constFind(id); it != m_answers.cend()) {
            return *it;
        }
        return std::nullopt;
    }
    /// The answer to `id`, waiting for it (events are processed meanwhile: the server runs on this thread).
    QJsonObject waitFor(int id, std::chrono::milliseconds timeout)
    {
        if (!waitUntil([&] { return answer(id).has_value(); }, timeout)) {
            ADD_FAILURE() << "no answer to command " << id << "; the client said:\n"
                          << m_process.readAllStandardError().toStdString();
            return {};
        }
        return *answer(id);
    }
    QJsonObject call(const QJsonObject &command, std::chrono::milliseconds timeout = 60s)
    {
        return waitFor(send(command), timeout);
    }

private:
    QProcess m_process;
    int m_lastId = 0;
    QByteArray m_buffer;
    QHash<int, QJsonObject> m_answers;
};

} // namespace sandbox::gui::guitest
