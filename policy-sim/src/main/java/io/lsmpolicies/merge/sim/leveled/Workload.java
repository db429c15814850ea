package io.lsmpolicies.merge.sim.leveled;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * A recorded sequence of operations over integer keys: operation {@code i} (0-based) writes key {@code key(i)}
 * with sequence number {@code i + 1}; a later sequence number is a newer version. Keys are {@code >= 0}.
 * Immutable.
 */
public final class Workload {
    private final String description;
    private final int[] keys;
    private final OperationKind[] kinds;

    /**
     * @param description what generated it, for reports (e.g. {@code 50% updates, zipfian(0.99), seed 3})
     * @param keys        the key of each operation, {@code >= 0}
     * @param kinds       the kind of each operation, same length as {@code keys}
     * @throws IllegalArgumentException if the lengths differ, a key is negative or there is no operation
     */
    public Workload(String description, int[] keys, OperationKind[] kinds) {
        if (keys.length != kinds.length) {
            throw new IllegalArgumentException("workload: " + keys.length + " keys but " + kinds.length + " kinds");
        }
        if (keys.length == 0) {
            throw new IllegalArgumentException("workload: at least one operation is required");
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] < 0) {
                throw new IllegalArgumentException("workload: operation " + i + " has negative key " + keys[i]);
            }
            if (kinds[i] == null) {
                throw new IllegalArgumentException("workload: operation " + i + " has no kind");
            }
        }
        this.description = description;
        this.keys = keys.clone();
        this.kinds = kinds.clone();
    }

    /**
     * {@return a workload of inserts and updates (no delete) of {@code keys}, in order; convenient in tests}
     *
     * @param description the workload's description
     * @param keys        the keys, one operation each
     */
    public static Workload ofWrites(String description, int... keys) {
        OperationKind[] kinds = new OperationKind[keys.length];
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < keys.length; i++) {
            kinds[i] = seen.add(keys[i]) ? OperationKind.INSERT : OperationKind.UPDATE;
        }
        return new Workload(description, keys, kinds);
    }

    /** {@return the workload's description} */
    public String description() {
        return description;
    }

    /** {@return number of operations} */
    public int size() {
        return keys.length;
    }

    /**
     * {@return the key of operation {@code i} (0-based)}
     *
     * @param i an operation's index
     */
    public int key(int i) {
        return keys[i];
    }

    /**
     * {@return the kind of operation {@code i} (0-based)}
     *
     * @param i an operation's index
     */
    public OperationKind kind(int i) {
        return kinds[i];
    }

    /**
     * {@return the sequence number of operation {@code i}: {@code i + 1}}
     *
     * @param i an operation's index
     */
    public static long sequence(int i) {
        return i + 1L;
    }

    /**
     * {@return how many operations are of {@code kind}}
     *
     * @param kind a kind of operation
     */
    public long count(OperationKind kind) {
        return Arrays.stream(kinds).filter(k -> k == kind).count();
    }

    @Override
    public String toString() {
        return description + " (" + keys.length + " operations)";
    }
}
