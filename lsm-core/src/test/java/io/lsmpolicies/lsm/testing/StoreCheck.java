package io.lsmpolicies.lsm.testing;

/**
 * The checks {@link StoreInvariants} runs on every store a test opened, once the test is over; a test that leaves a
 * store in another state on purpose names the ones to skip with {@link SkipStoreChecks}.
 */
public enum StoreCheck {
    /**
     * The store is closed and none of its files is open in this process any more: the directory lock, the
     * write-ahead log, the manifest and every SSTable reader were released. Seen through {@code /proc/self/fd}, so
     * only where the system has it (Linux); elsewhere this check does not run.
     */
    RELEASED,
    /**
     * The store verifier ({@code StoreVerifier}, as {@code bin/lsm verify} runs it) finds no problem; its warnings
     * (what a crash leaves and the next open cleans up) are allowed.
     */
    VERIFIER,
    /**
     * The levels are in order: level 0 newest first, and every level {@code >= 1} one sorted run of tables whose key
     * ranges do not overlap (the verifier's {@code levelOrder} problems, which {@link #VERIFIER} then leaves out).
     */
    LEVEL_ORDER
}
