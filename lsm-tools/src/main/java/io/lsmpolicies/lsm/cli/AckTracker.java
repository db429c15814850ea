package io.lsmpolicies.lsm.cli;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts a load's acknowledged operations as a prefix: {@link #acked()} is a number N such that operations
 * 0 .. N-1 have all returned (so, under {@code --wal sync}, are durable). With one worker that is simply the
 * count of returned operations; with several, an operation that returns before an earlier one is counted once
 * the earlier one returns too. Thread-safe; no locks on the workers' path.
 *
 * <p>Each worker publishes in its slot a lower bound of the operation it is working on: before taking an
 * operation, the number handed out so far (which no later operation is below); while working, the operation's
 * index; when it has no more work, {@link Long#MAX_VALUE}. The minimum over the slots and the number handed out
 * is then a prefix of finished operations: an operation below it was handed out before the slots were read,
 * and its worker's slot had already moved past it.
 *
 * <p>An operation that throws has not returned: its worker stops and leaves its slot on it (it never calls
 * {@link #done}), so {@link #acked()} stays at most its index for good, whatever the other workers finish.
 */
final class AckTracker {
    private final OperationSource source;
    private final AtomicLongArray slots;

    AckTracker(OperationSource source, int workers) {
        this.source = source;
        this.slots = new AtomicLongArray(workers);
    }

    /** Worker {@code w} is about to take an operation. REQUIRES: called before {@link OperationSource#next()}. */
    void idle(int w) {
        slots.set(w, source.issued());
    }

    /** Worker {@code w} works on operation {@code index}, which it took after {@link #idle}. */
    void started(int w, long index) {
        slots.set(w, index);
    }

    /**
     * Worker {@code w} has no more operations, and every one it took returned. Not called by a worker whose
     * operation threw.
     */
    void done(int w) {
        slots.set(w, Long.MAX_VALUE);
    }

    /** Operations 0 .. N-1 have all returned. */
    long acked() {
        long n = source.issued();
        for (int w = 0; w < slots.length(); w++) {
            n = Math.min(n, slots.get(w));
        }
        return n;
    }
}
