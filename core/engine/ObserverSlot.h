#pragma once

#include "engine/RunObserver.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace sandbox::detail {

/// One subscribed observer (shared by ObserverList and the observer's Subscription).
struct ObserverSlot
{
    explicit ObserverSlot(RunObserver *subscriber) : observer(subscriber) {}

    RunObserver *const observer;
    /// Held while the observer is called: callbacks to one observer never overlap, and unsubscribing waits for the
    /// one in progress. Recursive so that an observer may unsubscribe from inside its own callback.
    std::recursive_mutex calling;
    std::atomic<bool> removed{false};
};

/// The slots of one ObserverList; Subscriptions hold it weakly, as they may outlive the list.
struct ObserverSlots
{
    std::mutex mutex;
    std::vector<std::shared_ptr<ObserverSlot>> entries;
};

} // namespace sandbox::detail
