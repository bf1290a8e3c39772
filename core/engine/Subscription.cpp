#include "engine/Subscription.h"

#include "engine/ObserverSlot.h"

#include <algorithm>

namespace sandbox {

Subscription::Subscription(std::weak_ptr<detail::ObserverSlots> list, std::shared_ptr<detail::ObserverSlot> slot)
    : m_slots(std::move(list)), m_slot(std::move(slot))
{}

Subscription::~Subscription()
{
    reset();
}

Subscription::Subscription(Subscription &&other) noexcept
    : m_slots(std::move(other.m_slots)), m_slot(std::move(other.m_slot))
{}

Subscription &Subscription::operator=(Subscription &&other) noexcept
{
    if (this != &other) {
        reset();
        m_slots = std::move(other.m_slots);
        m_slot = std::move(other.m_slot);
    }
    return *this;
}

void Subscription::reset()
{
    if (!m_slot) {
        return;
    }
    // Marked first: a run that took the slot from the list before it is removed below skips it.
    m_slot->removed = true;
    if (const std::shared_ptr<detail::ObserverSlots> list = m_slots.lock()) {
        const std::lock_guard lock(list->mutex);
        std::erase(list->entries, m_slot);
    }
    {
        // Waits for a callback in progress on another thread; on the callback's own thread it passes at once.
        const std::lock_guard waitForCallback(m_slot->calling);
    }
    m_slot.reset();
    m_slots.reset();
}

} // namespace sandbox
