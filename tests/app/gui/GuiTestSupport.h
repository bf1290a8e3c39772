#pragma once

#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "settings/SandboxSettings.h"

#include <QTest>
#include <chrono>
#include <functional>
#include <memory>

namespace sandbox::gui::guitest {

/// Processes events until `condition` holds or `timeout` passes; returns whether it held (QTest::qWaitFor with
/// the std::chrono timeouts the tests use).
inline bool waitUntil(const std::function<bool()> &condition, std::chrono::milliseconds timeout)
{
    return QTest::qWaitFor(condition, int(timeout.count()));
}

/// The real Docker engine of this machine (the GUI tests use it where the fake backend cannot stand in).
inline std::unique_ptr<ExecutionEngine> dockerEngine()
{
    auto settings = SandboxSettings::fromEnvironment();
    auto backend = BackendFactory::create(QStringLiteral("docker"));
    if (!settings || !backend) {
        return nullptr;
    }
    return std::make_unique<ExecutionEngine>(*backend, *settings);
}

} // namespace sandbox::gui::guitest
