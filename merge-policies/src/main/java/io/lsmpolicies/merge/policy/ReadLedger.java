package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The state of {@link AdaptivePolicy}: the reads reported so far and, for every SSTable of the stack, the read count
 * when it appeared, so that the reads each SSTable has met since it appeared are known. It holds one entry per
 * SSTable present (never more than the stack), whatever the number of flushes.
 *
 * <p>Entries are kept in stack order (newest first), so that an unchanged stack is recognised, and a changed one
 * (a flush pushed, a run replaced by its merge output) brought up to date, in one pass.
 *
 * <p>Encoding (version 1): the byte {@code 1}; {@code reads}, {@code lastReads} and {@code freshFlush} as big-endian
 * 64-bit integers; the entry count as a 32-bit integer; then each entry's SSTable id and read mark as 64-bit
 * integers, newest first.
 *
 * @param reads      reads reported since the store's first flush, {@code >= 0}
 * @param lastReads  the reads reported with the latest flush (those since the flush before it), {@code >= 0}
 * @param freshFlush the id of the SSTable the latest flush installed, or {@code -1} before the first flush
 * @param ids        SSTable ids in stack order, newest first, pairwise distinct
 * @param marks      {@code marks[i]}: the value of {@code reads} when SSTable {@code ids[i]} appeared, in
 *                   [0, {@code reads}]
 */
public record ReadLedger(long reads, long lastReads, long freshFlush, long[] ids, long[] marks) implements PolicyState {
    static final byte VERSION = 1;
    private static final int HEADER = 1 + 8 + 8 + 8 + 4;

    /** No flush and no read yet. */
    static final ReadLedger EMPTY = new ReadLedger(0, 0, -1, new long[0], new long[0]);

    /**
     * Copies the arrays and checks them against the counts.
     *
     * @param reads      reads reported since the store's first flush
     * @param lastReads  the reads reported with the latest flush
     * @param freshFlush the id of the SSTable the latest flush installed, or {@code -1}
     * @param ids        SSTable ids in stack order, newest first
     * @param marks      the value of {@code reads} when each SSTable appeared
     * @throws IllegalArgumentException naming the value at fault, if the counts or marks are out of range or the
     *                                  arrays' lengths differ
     */
    public ReadLedger {
        ids = ids.clone();
        marks = marks.clone();
        if (reads < 0 || lastReads < 0 || lastReads > reads) {
            throw new IllegalArgumentException("need 0 <= lastReads <= reads, was lastReads=" + lastReads + ", reads="
                    + reads);
        }
        if (ids.length != marks.length) {
            throw new IllegalArgumentException(ids.length + " SSTable ids but " + marks.length + " read marks");
        }
        for (int i = 0; i < ids.length; i++) {
            if (marks[i] < 0 || marks[i] > reads) {
                throw new IllegalArgumentException("SSTable " + ids[i] + ": read mark " + marks[i] + " outside [0, "
                        + reads + "]");
            }
        }
    }

    /** {@return a copy of the SSTable ids, in stack order, newest first} */
    @Override
    public long[] ids() {
        return ids.clone();
    }

    /** {@return a copy of the read marks, one per SSTable id} */
    @Override
    public long[] marks() {
        return marks.clone();
    }

    /**
     * Reads the SSTable at stack position {@code position} (newest first) has met since it appeared. REQUIRES: this
     * ledger is {@link #reconcile reconciled} with the stack.
     */
    long readsSince(int position) {
        return reads - marks[position];
    }

    /** This ledger after {@code more} reads. */
    ReadLedger withReads(long more) {
        return new ReadLedger(Math.addExact(reads, more), more, freshFlush, ids, marks);
    }

    /** This ledger with {@code id} as the latest flush's SSTable. */
    ReadLedger withFreshFlush(long id) {
        return new ReadLedger(reads, lastReads, id, ids, marks);
    }

    /**
     * The ledger of exactly the SSTables of {@code stack}, in its order: entries of SSTables gone are dropped, SSTables
     * not yet in it (a flush, a merge output) appear now, with the current read count as their mark. Returns
     * {@code this} if nothing changed. O(s) for s SSTables when, as in a stack, the SSTables that stay keep their
     * order and few are new.
     */
    ReadLedger reconcile(List<SortedRun> stack) {
        int n = stack.size();
        if (n == ids.length) {
            int i = 0;
            for (SortedRun run : stack) {
                if (run.first().id() != ids[i]) {
                    break;
                }
                i++;
            }
            if (i == n) {
                return this;
            }
        }
        long[] newIds = new long[n];
        long[] newMarks = new long[n];
        int j = 0; // the next entry not yet matched; entries before it are matched or gone
        int i = 0;
        for (SortedRun run : stack) {
            for (SSTableInfo t : run.tables()) {
                if (i == newIds.length) {
                    newIds = Arrays.copyOf(newIds, i * 2 + 1);
                    newMarks = Arrays.copyOf(newMarks, i * 2 + 1);
                }
                int k = j;
                while (k < ids.length && ids[k] != t.id()) {
                    k++;
                }
                newIds[i] = t.id();
                if (k < ids.length) {
                    newMarks[i] = marks[k];
                    j = k + 1;
                } else {
                    newMarks[i] = reads;
                }
                i++;
            }
        }
        return new ReadLedger(reads, lastReads, freshFlush, Arrays.copyOf(newIds, i), Arrays.copyOf(newMarks, i));
    }

    @Override
    public byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(HEADER + 16 * ids.length).put(VERSION).putLong(reads).putLong(lastReads).putLong(freshFlush)
                .putInt(ids.length);
        for (int i = 0; i < ids.length; i++) {
            out.putLong(ids[i]).putLong(marks[i]);
        }
        return out.array();
    }

    /** Reads {@link #encode()}'s output back; errors name {@code policy} and what is wrong. */
    static ReadLedger decode(String policy, byte[] encoded) {
        if (encoded.length < HEADER) {
            throw new IllegalArgumentException("policy '" + policy + "': read-ledger state needs at least " + HEADER
                    + " bytes, was " + encoded.length);
        }
        ByteBuffer in = ByteBuffer.wrap(encoded);
        byte version = in.get();
        if (version != VERSION) {
            throw new IllegalArgumentException("policy '" + policy + "': unknown read-ledger state version " + version);
        }
        long reads = in.getLong();
        long last = in.getLong();
        long fresh = in.getLong();
        int count = in.getInt();
        if (count < 0 || encoded.length != HEADER + 16L * count) {
            throw new IllegalArgumentException("policy '" + policy + "': read-ledger state of " + encoded.length
                    + " bytes cannot hold " + count + " entries (" + (HEADER + 16L * count) + " bytes)");
        }
        long[] ids = new long[count];
        long[] marks = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = in.getLong();
            marks[i] = in.getLong();
        }
        if (java.util.stream.LongStream.of(ids).distinct().count() != count) {
            throw new IllegalArgumentException("policy '" + policy + "': read-ledger state names an SSTable twice: "
                    + Arrays.toString(ids));
        }
        try {
            return new ReadLedger(reads, last, fresh, ids, marks);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("policy '" + policy + "': " + e.getMessage(), e);
        }
    }

    /** Casts a state handed back by the engine, naming {@code policy} if it is of another policy. */
    static ReadLedger of(String policy, PolicyState state) {
        if (state instanceof ReadLedger l) {
            return l;
        }
        throw new IllegalArgumentException("policy '" + policy + "' expects a read-ledger state, was " + state);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReadLedger l && reads == l.reads && lastReads == l.lastReads && freshFlush == l.freshFlush
                && Arrays.equals(ids, l.ids) && Arrays.equals(marks, l.marks);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(reads) + Long.hashCode(lastReads) + 7 * Long.hashCode(freshFlush)) + 31 * Arrays.hashCode(ids)
                + Arrays.hashCode(marks);
    }

    @Override
    public String toString() {
        return "ReadLedger[reads=" + reads + ", lastReads=" + lastReads + ", freshFlush=" + freshFlush + ", ids=" + Arrays.toString(ids)
                + ", marks=" + Arrays.toString(marks) + "]";
    }
}
