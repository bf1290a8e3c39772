#pragma once

#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "settings/SandboxSettings.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTest>
#include <chrono>
#include <functional>
#include <gtest/gtest.h>
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

/// A loopback port nobody listens on right now.
inline quint16 freePort()
{
    QTcpServer probe;
    EXPECT_TRUE(probe.listen(QHostAddress::LocalHost, 0));
    return probe.serverPort();
}

} // namespace sandbox::gui::guitest
