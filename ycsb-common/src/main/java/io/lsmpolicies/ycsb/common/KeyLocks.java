package io.lsmpolicies.ycsb.common;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Striped locks over YCSB keys, shared by the DB instances (client threads) writing one store or one dataset, so
 * that an update's read-modify-write of a record is atomic against every other write of that key from this
 * process. A key maps to one of {@link #STRIPES} locks by its string hash; a thread holds at most one at a time.
 * Thread-safe. Public so that a peer system's binding ({@code ycsb-rocksdb}) serialises its writes the same way.
 */
public final class KeyLocks {
    /** Locks in a set: enough that a few dozen client threads rarely share one by accident. */
    public static final int STRIPES = 1024;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    /** {@link #STRIPES} unlocked locks. */
    public KeyLocks() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    /**
     * {@return the lock of {@code key}; lock it, write, unlock it in a {@code finally}}
     *
     * @param key a YCSB key
     */
    public ReentrantLock of(String key) {
        int h = key.hashCode();
        return locks[(h ^ (h >>> 16)) & (STRIPES - 1)];
    }
}
