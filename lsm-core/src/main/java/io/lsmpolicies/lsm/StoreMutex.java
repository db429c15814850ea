package io.lsmpolicies.lsm;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The store's structure lock and the one condition signalled whenever something it guards changes (an install, a
 * failure, a finished merge, a MemTable rotation). It guards the table set, the compacting set, the policy state,
 * the merge bookkeeping and the counters updated with them. A method whose Javadoc says "REQUIRES: the mutex"
 * begins with {@code assert mutex.held()}, so tests (which run with assertions on) catch a caller that forgot it.
 */
final class StoreMutex {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();

    void lock() {
        lock.lock();
    }

    void unlock() {
        lock.unlock();
    }

    /** Waits until the next {@link #signalAll}. REQUIRES: the mutex. */
    void await() {
        assert held();
        changed.awaitUninterruptibly();
    }

    /** Wakes every waiter. REQUIRES: the mutex. */
    void signalAll() {
        changed.signalAll();
    }

    /** Takes the mutex, wakes every waiter, and releases it. */
    void signalAllLocking() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * For {@code assert}: true if the calling thread holds the mutex.
     *
     * @throws AssertionError if it does not, naming the thread
     */
    boolean held() {
        if (!lock.isHeldByCurrentThread()) {
            throw new AssertionError("REQUIRES: the store's mutex, which thread " + Thread.currentThread().getName()
                    + " does not hold");
        }
        return true;
    }
}
