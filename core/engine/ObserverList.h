#pragma once

#include "engine/RunObserver.h"
#include "engine/Subscription.h"

#include <functional>
#include <memory>

namespace sandbox {

namespace detail {
struct ObserverSlots;
} // namespace detail

/// The observers subscribed to an engine. Runs reach them through this list at every event, never through a
/// copy of it, so an observer that unsubscribes is not called again, not even by a run that started before.
/// Callbacks to one observer are serialized. Thread-safe.
class ObserverList final
{
public:
    ObserverList();
    ~ObserverList();
    ObserverList(const ObserverList &) = delete;
    ObserverList &operator=(const ObserverList &) = delete;

    /// Subscribes `observer` (not owned) until the returned Subscription is reset or destroyed.
    [[nodiscard]] Subscription subscribe(RunObserver *observer);
    /// Calls `call` with every subscribed observer, one after the other.
    void forEach(const std::function<void(RunObserver &)> &call) const;

private:
    std::shared_ptr<detail::ObserverSlots> m_slots;
};

} // namespace sandbox
