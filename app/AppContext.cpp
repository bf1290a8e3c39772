#include "AppContext.h"

#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"

#include <QLoggingCategory>
#include <QtConcurrent>

Q_LOGGING_CATEGORY(lcContext, "sandbox.app")

namespace sandbox {

/// An engine with what was attached to it; the cleanup finishes before the engine goes.
struct AppContext::EngineSlot
{
    std::unique_ptr<ExecutionEngine> engine;
    QFuture<void> cleanup;

    ~EngineSlot() { cleanup.waitForFinished(); }
};

Result<std::unique_ptr<AppContext>> AppContext::create(const Options &options)
{
    auto userSettings = std::make_unique<UserSettings>();
    SandboxSettings defaults;
    defaults.defaultTimeout = userSettings->defaultTimeout();
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
        m_defaultBackend = qEnvironmentVariable("BACKEND").trimmed().toLower();
    }
    if (m_defaultBackend.isEmpty()) {
        m_defaultBackend = m_userSettings->backend();
    }
    if (m_defaultBackend.isEmpty()) {
        m_defaultBackend = QStringLiteral("docker");
    }
}

AppContext::~AppContext()
{
    m_engines.clear();
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
    auto made = BackendFactory::create(chosen);
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

} // namespace sandbox
