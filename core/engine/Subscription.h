#pragma once

#include <memory>

namespace sandbox {

namespace detail {
struct ObserverSlot;
struct ObserverSlots;
} // namespace detail

/// A RunObserver's subscription to an engine's runs (ExecutionEngine::subscribe). Move-only; destroying or
/// resetting it unsubscribes and returns only once no callback to the observer is running (unless the caller is
/// that callback itself: an observer may unsubscribe from inside one of its callbacks). After that the observer
/// is never called again, also by runs that started before.
class Subscription final
{
public:
    /// An empty subscription (subscribed to nothing).
    Subscription() = default;
    Subscription(std::weak_ptr<detail::ObserverSlots> list, std::shared_ptr<detail::ObserverSlot> slot);
    ~Subscription();
    Subscription(Subscription &&other) noexcept;
    Subscription &operator=(Subscription &&other) noexcept;
    Subscription(const Subscription &) = delete;
    Subscription &operator=(const Subscription &) = delete;

    /// Unsubscribes (see the class); nothing happens when it is empty.
    void reset();
    /// True until reset() (or until it was moved from).
    bool isActive() const { return m_slot != nullptr; }

private:
    std::weak_ptr<detail::ObserverSlots> m_slots;
    std::shared_ptr<detail::ObserverSlot> m_slot;
};

} // namespace sandbox
