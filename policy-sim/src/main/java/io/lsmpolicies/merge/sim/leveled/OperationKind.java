package io.lsmpolicies.merge.sim.leveled;

/** What one operation of a {@link Workload} does to its key. */
public enum OperationKind {
    /** Writes a key that has never been written before. */
    INSERT,
    /** Writes a new version of a key that is live (inserted and not deleted). */
    UPDATE,
    /** Writes a tombstone for a live key. */
    DELETE
}
