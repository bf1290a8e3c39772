#include "AppContext.h"

#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "journal/JournalRecorder.h"
#include "journal/RunJournal.h"
#include "lang/LanguageRegistry.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QtConcurrent>

Q_LOGGING_CATEGORY(lcContext, "sandbox.app")

namespace sandbox {

/// An engine with what was attached to it; the cleanup finishes before the engine goes.
struct AppContext::EngineSlot
{
    // The recorder outlives the engine: runs still finishing are recorded to the end.
    std::unique_ptr<JournalRecorder> recorder;
    std::unique_ptr<ExecutionEngine> engine;
    Subscription journalSubscription;
    QFuture<void> cleanup;

    ~EngineSlot()
    {
        cleanup.waitForFinished();
        journalSubscription.reset();
        engine.reset();
    }
};

Result<std::unique_ptr<AppContext>> AppContext::create(const Options &options)
{
    auto userSettings = std::make_unique<UserSettings>();
    SandboxSettings defaults;
    defaults.defaultTimeout = userSettings->defaultTimeout();
    defaults.runtime = userSettings->runtime();
    auto settings = SandboxSettings::fromEnvironment(defaults);
    if (!settings) {
        return settings.error().withCode(ErrorCode::BadRequest);
    }
    if (!options.policy.isEmpty()) {
        settings->policy = options.policy;
    }
    return std::unique_ptr<AppContext>(new AppContext(options, std::move(*settings), std::move(userSettings)));
}

AppContext::AppContext(Options options, SandboxSettings settings, std::unique_ptr<UserSettings> userSettings)
    : m_options(std::move(options)), m_settings(std::move(settings)), m_userSettings(std::move(userSettings))
{
    m_defaultBackend = m_options.backendName.trimmed().toLower();
    if (m_defaultBackend.isEmpty()) {
        m_defaultBackend = m_userSettings->effectiveBackend();
    }
    openJournal();
}

void AppContext::openJournal()
{
    const std::optional<QString> path = RunJournal::configuredPath();
    if (!path) {
        return; // LLM_SANDBOX_JOURNAL=off
    }
    auto journal = RunJournal::open(*path);
    if (!journal) {
        // Runs must not fail because the journal cannot be written: they go unrecorded, and the user is told.
        qCWarning(lcContext).noquote()
            << QCoreApplication::translate("AppContext", "the run journal is off: %1").arg(journal.error().message);
        return;
    }
    m_journal = std::move(*journal);
    m_journalPath = *path;
    if (m_options.applyRetention) {
        const RunJournal::Retention retention{.maxAge = std::chrono::days(m_userSettings->journalMaxAgeDays()),
                                              .maxTotalBytes =
                                                  qint64(m_userSettings->journalMaxSizeMiB()) * 1024 * 1024};
        RunJournal *journalPointer = m_journal.get();
        m_retention = QtConcurrent::run([journalPointer, retention] {
            if (auto removed = journalPointer->applyRetention(retention); !removed) {
                qCWarning(lcContext).noquote()
                    << QCoreApplication::translate("AppContext", "journal retention: %1").arg(removed.error().message);
            }
        });
    }
}

AppContext::~AppContext()
{
    m_engines.clear();
    m_retention.waitForFinished();
}

ImageCatalog AppContext::catalog() const
{
    return ImageCatalog(ImageCatalog::defaultRunnerPath(), m_settings.imageOverrides, m_settings.baseImage);
}

Result<std::shared_ptr<ContainerBackend>> AppContext::backend(const QString &name)
{
    const QString chosen = name.isEmpty() ? m_defaultBackend : name.trimmed().toLower();
    std::lock_guard lock(m_mutex);
    if (auto found = m_backends.find(chosen); found != m_backends.end()) {
        return found->second;
    }
    auto made = BackendFactory::create(chosen, m_userSettings->connection());
    if (!made) {
        return made.error();
    }
    m_backends.emplace(chosen, *made);
    return *made;
}

Result<ExecutionEngine *> AppContext::engine(const QString &name)
{
    const QString chosen = name.isEmpty() ? m_defaultBackend : name.trimmed().toLower();
    auto madeBackend = backend(chosen);
    if (!madeBackend) {
        return madeBackend.error();
    }
    std::lock_guard lock(m_mutex);
    if (auto found = m_engines.find(chosen); found != m_engines.end()) {
        return found->second->engine.get();
    }
    auto slot = std::make_unique<EngineSlot>();
    slot->engine = std::make_unique<ExecutionEngine>(*madeBackend, m_settings);
    ExecutionEngine *engine = slot->engine.get();
    if (m_journal) {
        slot->recorder = std::make_unique<JournalRecorder>(
            m_journalPath,
            JournalRecorder::Context{.source = m_options.source,
                                     .backend = chosen,
                                     .endpoint = (*madeBackend)->endpoint(),
                                     .settings = JournalRecorder::settingsJson(m_settings),
                                     // Asked in runStarted, on a run's thread: the engine exists.
                                     .imageForLanguage = [engine](const QString &languageName) -> QString {
                                         auto language = LanguageRegistry::instance().find(languageName);
                                         auto image = language ? engine->catalog().runImage(*language)
                                                               : Result<QString>(QString());
                                         return image ? *image : QString();
                                     }});
        slot->journalSubscription = engine->subscribe(slot->recorder.get());
    }
    if (m_options.removeOrphans) {
        // Off the caller's thread: the desktop app's window and the MCP server's first answer do not wait for it.
        slot->cleanup = QtConcurrent::run([engine] { engine->removeOrphanedContainers(); });
    }
    for (const QString &language : std::as_const(m_options.prewarm)) {
        engine->prewarm(language);
    }
    qCDebug(lcContext).noquote() << "engine for" << chosen << "ready (" << m_options.source << ")";
    m_engines.emplace(chosen, std::move(slot));
    return engine;
}

JournalRecorder *AppContext::recorder(const QString &name)
{
    const QString chosen = name.isEmpty() ? m_defaultBackend : name.trimmed().toLower();
    std::lock_guard lock(m_mutex);
    auto found = m_engines.find(chosen);
    return found != m_engines.end() ? found->second->recorder.get() : nullptr;
}

} // namespace sandbox
