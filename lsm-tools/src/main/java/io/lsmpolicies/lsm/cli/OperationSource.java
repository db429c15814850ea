package io.lsmpolicies.lsm.cli;

import java.util.SplittableRandom;

/**
 * The operations of one {@code load}, handed out in order to any number of worker threads: operation {@code i}
 * (counted from 0) either inserts the next new record or, with probability {@code updateFraction}, overwrites a
 * record chosen uniformly among those already loaded. The sequence depends only on the seed and the settings,
 * never on thread timing. Thread-safe.
 *
 * <p>Records numbered below {@code start} count as already loaded (a load that continues an earlier one starts
 * where it stopped); inserts take the numbers {@code start, start + 1, ...} in order.
 */
final class OperationSource {
    /**
     * One operation.
     *
     * @param index   its position in the load, from 0
     * @param record  the record it writes
     * @param version 0 for an insert; {@code 1 + start + index} for an overwrite (see {@link RecordValues})
     */
    record Operation(long index, long record, long version) {
        boolean isUpdate() {
            return version > 0;
        }
    }

    private final SplittableRandom random;
    private final long start;
    private final long total;
    private final double updateFraction;
    private long inserted;
    private volatile long issued;

    /**
     * @param seed           seeds the choice of operations (values are seeded separately, by record)
     * @param start          the first record number to insert; records below it count as loaded
     * @param total          operations in the load
     * @param updateFraction probability that an operation overwrites, in [0, 1]
     */
    OperationSource(long seed, long start, long total, double updateFraction) {
        this.random = new SplittableRandom(RecordValues.mix(seed ^ 0x6F70657261746F72L));
        this.start = start;
        this.total = total;
        this.updateFraction = updateFraction;
    }

    /** The next operation, or null when all {@code total} have been handed out. */
    synchronized Operation next() {
        long index = issued;
        if (index >= total) {
            return null;
        }
        long loaded = start + inserted;
        Operation op;
        if (updateFraction > 0 && loaded > 0 && random.nextDouble() < updateFraction) {
            op = new Operation(index, random.nextLong(loaded), 1 + start + index);
        } else {
            op = new Operation(index, loaded, 0);
            inserted++;
        }
        issued = index + 1;
        return op;
    }

    /** Operations handed out so far. */
    long issued() {
        return issued;
    }

    /** Inserts handed out so far. */
    synchronized long inserted() {
        return inserted;
    }
}
