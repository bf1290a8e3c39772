#include "settings/UserSettings.h"

#include <algorithm>

namespace sandbox {

namespace {

const QString kBackend = QStringLiteral("engine/backend");
const QString kRuntimeKey = QStringLiteral("engine/runtime");
const QString kDefaultTimeoutKey = QStringLiteral("engine/defaultTimeoutSeconds");
const QString kJournalMaxAge = QStringLiteral("journal/maxAgeDays");
const QString kJournalMaxSize = QStringLiteral("journal/maxSizeMiB");

/// A stored integer within [low, high]; anything else (hand-edited files) is the default.
int boundedInt(const QSettings &settings, const QString &key, int fallback, int low, int high)
{
    bool ok = false;
    const int value = settings.value(key, fallback).toInt(&ok);
    return ok && value >= low && value <= high ? value : fallback;
}

} // namespace

UserSettings::UserSettings(QObject *parent)
    : QObject(parent), m_settings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("llm-sandbox"),
                                  QStringLiteral("llm-sandbox"))
{}

QString UserSettings::backend() const
{
    m_settings.sync();
    return m_settings.value(kBackend).toString().trimmed().toLower();
}

void UserSettings::setBackend(const QString &backend)
{
    write(kBackend, backend.trimmed().toLower());
}

QString UserSettings::runtime() const
{
    m_settings.sync();
    return m_settings.value(kRuntimeKey).toString().trimmed();
}

void UserSettings::setRuntime(const QString &runtime)
{
    write(kRuntimeKey, runtime.trimmed());
}

std::chrono::seconds UserSettings::defaultTimeout() const
{
    m_settings.sync();
    return std::chrono::seconds(boundedInt(m_settings, kDefaultTimeoutKey, int(kDefaultTimeout.count()), 1, 86400));
}

void UserSettings::setDefaultTimeout(std::chrono::seconds timeout)
{
    write(kDefaultTimeoutKey, qlonglong(std::clamp<qint64>(timeout.count(), 1, 86400)));
}

int UserSettings::journalMaxAgeDays() const
{
    m_settings.sync();
    return boundedInt(m_settings, kJournalMaxAge, kDefaultJournalMaxAgeDays, 1, 36500);
}

void UserSettings::setJournalMaxAgeDays(int days)
{
    write(kJournalMaxAge, std::clamp(days, 1, 36500));
}

int UserSettings::journalMaxSizeMiB() const
{
    m_settings.sync();
    return boundedInt(m_settings, kJournalMaxSize, kDefaultJournalMaxSizeMiB, 16, 1024 * 1024);
}

void UserSettings::setJournalMaxSizeMiB(int mebibytes)
{
    write(kJournalMaxSize, std::clamp(mebibytes, 16, 1024 * 1024));
}

void UserSettings::write(const QString &key, const QVariant &value)
{
    if (m_settings.value(key) == value) {
        return;
    }
    m_settings.setValue(key, value);
    m_settings.sync(); // another process (an MCP server starting) reads the file, not our memory
    emit changed();
}

} // namespace sandbox
