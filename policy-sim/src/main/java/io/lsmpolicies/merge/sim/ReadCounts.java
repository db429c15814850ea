package io.lsmpolicies.merge.sim;

/**
 * A sequence of read counts r_1, r_2, ...: r_t {@code >= 0} reads happen after step t's flush and merges, each
 * probing every SSTable then present (the cost model of {@code docs/policies.md}, "Reads and the offline
 * optimum").
 */
public interface ReadCounts {
    /**
     * The read count of the next step.
     *
     * @return the count
     * @throws java.util.NoSuchElementException if a finite source (phases or a trace) is exhausted
     */
    long next();

    /** {@return how many counts remain, or {@code Long.MAX_VALUE} for an endless source} */
    long remaining();

    /** {@return the source in its text form, e.g. {@code constant:10}} */
    String describe();
}
