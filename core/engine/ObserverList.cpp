#include "engine/ObserverList.h"

#include "engine/ObserverSlot.h"

namespace sandbox {

ObserverList::ObserverList() : m_slots(std::make_shared<detail::ObserverSlots>()) {}

ObserverList::~ObserverList() = default;

Subscription ObserverList::subscribe(RunObserver *observer)
{
    auto slot = std::make_shared<detail::ObserverSlot>(observer);
    {
        const std::lock_guard lock(m_slots->mutex);
        m_slots->entries.push_back(slot);
    }
    return Subscription(m_slots, std::move(slot));
}

void ObserverList::forEach(const std::function<void(RunObserver &)> &call) const
{
    std::vector<std::shared_ptr<detail::ObserverSlot>> current;
    {
        const std::lock_guard lock(m_slots->mutex);
        current = m_slots->entries;
    }
    for (const std::shared_ptr<detail::ObserverSlot> &slot : current) {
        const std::lock_guard calling(slot->calling);
        // Checked under `calling`: once reset() has passed that lock, no call gets here any more.
        if (!slot->removed) {
            call(*slot->observer);
        }
    }
}

} // namespace sandbox
