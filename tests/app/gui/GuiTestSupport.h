#pragma once

#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "settings/SandboxSettings.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <chrono>
#include <functional>
#include <memory>

namespace sandbox::gui::guitest {

/// Processes events until `condition` holds or `timeout` passes; returns whether it held.
inline bool waitUntil(const std::function<bool()> &condition, std::chrono::milliseconds timeout)
{
    QDeadlineTimer deadline(timeout);
    while (!condition()) {
        if (deadline.hasExpired()) {
            return false;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
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
