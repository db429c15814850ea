package io.lsmpolicies.merge.sim;

import java.util.Arrays;

/**
 * The input of {@link Advisor}: one workload in the cost model's terms (docs/policies.md, section 6.1), whatever
 * it was read from (a store, a trace file, a YCSB workload file). Immutable: the arrays are copied in and out.
 *
 * @param lengths       l(1..n), the bytes of each flush, {@code >= 0}; at least one flush
 * @param reads         r(1..n), the reads after each flush and its merges, {@code >= 0}; as many as lengths
 * @param readCostBytes the bytes one read's probe of one SSTable costs, {@code >= 0}
 * @param source        where the workload came from, for the report (e.g. {@code trace /tmp/t.csv})
 * @param notes         what was estimated rather than read, for the report; empty if nothing
 */
public record AdvisorWorkload(long[] lengths, long[] reads, long readCostBytes, String source, String notes) {

    /**
     * Copies the arrays and checks them.
     *
     * @param lengths       l(1..n), the bytes of each flush, {@code >= 0}; at least one flush
     * @param reads         r(1..n), the reads after each flush and its merges, {@code >= 0}; as many as lengths
     * @param readCostBytes the bytes one read's probe of one SSTable costs, {@code >= 0}
     * @param source        where the workload came from, for the report (e.g. {@code trace /tmp/t.csv})
     * @param notes         what was estimated rather than read, for the report; empty if nothing
     * @throws IllegalArgumentException naming the field and the value if a field is out of range
     */
    public AdvisorWorkload {
        lengths = lengths.clone();
        reads = reads.clone();
        if (lengths.length == 0) {
            throw new IllegalArgumentException(source + ": no flush to advise on");
        }
        if (reads.length != lengths.length) {
            throw new IllegalArgumentException(source + ": " + lengths.length + " flush lengths but " + reads.length
                    + " read counts");
        }
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] < 0 || reads[i] < 0) {
                throw new IllegalArgumentException(source + ": flush " + (i + 1) + " has length " + lengths[i]
                        + " and reads " + reads[i] + "; both must be >= 0");
            }
        }
        if (readCostBytes < 0) {
            throw new IllegalArgumentException("read cost must be >= 0 bytes, was " + readCostBytes);
        }
        if (notes == null) {
            notes = "";
        }
    }

    /** {@return a copy of the flush lengths} */
    @Override
    public long[] lengths() {
        return lengths.clone();
    }

    /** {@return a copy of the read counts} */
    @Override
    public long[] reads() {
        return reads.clone();
    }

    /** {@return the number of flushes} */
    public int flushes() {
        return lengths.length;
    }

    /** {@return the sum of the read counts} */
    public long totalReads() {
        long sum = 0;
        for (long r : reads) {
            sum = Math.addExact(sum, r);
        }
        return sum;
    }

    /** {@return the sum of the flush lengths} */
    public long flushedBytes() {
        long sum = 0;
        for (long l : lengths) {
            sum = Math.addExact(sum, l);
        }
        return sum;
    }

    /**
     * {@return this workload with every read count replaced by {@code replacement} (the same number of flushes)}
     *
     * @param replacement the read counts, one per flush
     * @param note        what the replacement is, added to the notes
     */
    public AdvisorWorkload withReads(long[] replacement, String note) {
        return new AdvisorWorkload(lengths, replacement, readCostBytes, source, note);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AdvisorWorkload w && Arrays.equals(lengths, w.lengths) && Arrays.equals(reads, w.reads)
                && readCostBytes == w.readCostBytes && source.equals(w.source) && notes.equals(w.notes);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(lengths) + Arrays.hashCode(reads);
    }

    @Override
    public String toString() {
        return "AdvisorWorkload[" + source + ", " + lengths.length + " flushes, " + totalReads() + " reads]";
    }
}
