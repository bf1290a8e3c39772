#include "engine/ObserverList.h"

#include <QString>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <gtest/gtest.h>
#include <mutex>
#include <thread>

using namespace sandbox;

namespace {

/// Counts the runs it sees started.
struct Counter final : RunObserver
{
    std::atomic<int> started{0};
    void runStarted(const QString &, const RunRequest &) override { ++started; }
};

void start(const ObserverList &list)
{
    list.forEach([](RunObserver &observer) { observer.runStarted(QStringLiteral("run"), RunRequest{}); });
}

/// A one-shot signal between threads.
class Latch final
{
public:
    void open()
    {
        const std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    /// False when it was not opened within a generous deadline (the test then fails instead of hanging).
    bool wait()
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, std::chrono::seconds(30), [this] { return m_open; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = false;
};

} // namespace

TEST(SubscriptionTest, subscribedObserverIsCalledUntilReset)
{
    ObserverList list;
    Counter counter;
    Subscription subscription = list.subscribe(&counter);
    start(list);
    EXPECT_EQ(counter.started, 1);
    EXPECT_TRUE(subscription.isActive());

    subscription.reset();
    start(list);
    EXPECT_EQ(counter.started, 1);
    EXPECT_FALSE(subscription.isActive());
}

TEST(SubscriptionTest, destroyingTheSubscriptionUnsubscribes)
{
    ObserverList list;
    Counter counter;
    {
        const Subscription subscription = list.subscribe(&counter);
        start(list);
    }
    start(list);
    EXPECT_EQ(counter.started, 1);
}

TEST(SubscriptionTest, movedSubscriptionKeepsTheObserverSubscribed)
{
    ObserverList list;
    Counter counter;
    Subscription moved;
    {
        Subscription original = list.subscribe(&counter);
        moved = std::move(original);
    }
    start(list);
    EXPECT_EQ(counter.started, 1);
    moved.reset();
    start(list);
    EXPECT_EQ(counter.started, 1);
}

TEST(SubscriptionTest, resetWaitsForACallbackInProgressOnAnotherThread)
{
    struct Blocking final : RunObserver
    {
        Latch entered;
        Latch release;
        std::atomic<bool> finished{false};
        void runStarted(const QString &, const RunRequest &) override
        {
            entered.open();
            release.wait();
            finished = true;
        }
    } blocking;
    ObserverList list;
    Subscription subscription = list.subscribe(&blocking);
    std::thread run([&] { start(list); });
    ASSERT_TRUE(blocking.entered.wait());

    std::atomic<bool> finishedWhenResetReturned{false};
    std::thread unsubscriber([&] {
        subscription.reset();
        finishedWhenResetReturned = blocking.finished.load();
    });
    blocking.release.open();
    unsubscriber.join();
    run.join();
    EXPECT_TRUE(finishedWhenResetReturned);
}

TEST(SubscriptionTest, observerMayUnsubscribeFromInsideItsOwnCallback)
{
    struct SelfRemoving final : RunObserver
    {
        Subscription subscription;
        int calls = 0;
        void runStarted(const QString &, const RunRequest &) override
        {
            ++calls;
            subscription.reset();
        }
    } observer;
    ObserverList list;
    observer.subscription = list.subscribe(&observer);
    start(list);
    start(list);
    EXPECT_EQ(observer.calls, 1);
}

TEST(SubscriptionTest, aRunThatTookTheListBeforeRemovalDoesNotCallTheRemovedObserver)
{
    // The first observer's callback removes the second one while the same dispatch is under way.
    struct Remover final : RunObserver
    {
        Subscription *other = nullptr;
        void runStarted(const QString &, const RunRequest &) override { other->reset(); }
    } remover;
    Counter removed;
    ObserverList list;
    Subscription first = list.subscribe(&remover);
    Subscription second = list.subscribe(&removed);
    remover.other = &second;
    start(list);
    EXPECT_EQ(removed.started, 0);
}

TEST(SubscriptionTest, subscriptionMayOutliveTheList)
{
    Counter counter;
    Subscription subscription;
    {
        ObserverList list;
        subscription = list.subscribe(&counter);
    }
    subscription.reset();
    EXPECT_FALSE(subscription.isActive());
}
