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
 * <p>Encoding (version 1): the byte {@code 1}; {@code reads}, {@code lastReads} and {@code freshFlush} as big-endian
 * 64-bit integers;
 * the entry count as a 32-bit integer; then each entry's SSTable id and read mark as 64-bit integers, ids ascending.
 *
 * @param reads      reads reported since the store's first flush, {@code >= 0}
 * @param lastReads  the reads reported with the latest flush (those since the flush before it), {@code >= 0}
 * @param freshFlush the id of the SSTable the latest flush installed, or {@code -1} before the first flush
 * @param ids        SSTable ids, strictly ascending
 * @param marks      {@code marks[i]}: the value of {@code reads} when SSTable {@code ids[i]} appeared, in
 *                   [0, {@code reads}]
 */
public record ReadLedger(long reads, long lastReads, long freshFlush, long[] ids, long[] marks) implements PolicyState {
    static final byte VERSION = 1;
    private static final int HEADER = 1 + 8 + 8 + 8 + 4;

    /** No flush and no read yet. */
    static final ReadLedger EMPTY = new ReadLedger(0, 0, -1, new long[0], new long[0]);

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
            if (i > 0 && ids[i] <= ids[i - 1]) {
                throw new IllegalArgumentException("SSTable ids must be strictly ascending, " + ids[i] + " follows "
                        + ids[i - 1]);
            }
            if (marks[i] < 0 || marks[i] > reads) {
                throw new IllegalArgumentException("SSTable " + ids[i] + ": read mark " + marks[i] + " outside [0, "
                        + reads + "]");
            }
        }
    }

    @Override
    public long[] ids() {
        return ids.clone();
    }

    @Override
    public long[] marks() {
        return marks.clone();
    }

    /** Reads the SSTable with {@code id} has met since it appeared; 0 for one not in the ledger. */
    long readsSince(long id) {
        int i = Arrays.binarySearch(ids, id);
        return i < 0 ? 0 : reads - marks[i];
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
     * The ledger of exactly the SSTables of {@code stack}: entries of SSTables gone are dropped, SSTables not yet in
     * it (a flush, a merge output) appear now, with the current read count as their mark. Returns {@code this} if
     * nothing changed. O(s log s) for s SSTables.
     */
    ReadLedger reconcile(List<SortedRun> stack) {
        long[] present = new long[stack.size()];
        int n = 0;
        for (SortedRun run : stack) {
            for (SSTableInfo t : run.tables()) {
                if (n == present.length) {
                    present = Arrays.copyOf(present, n * 2 + 1);
                }
                present[n++] = t.id();
            }
        }
        present = Arrays.copyOf(present, n);
        Arrays.sort(present);
        if (Arrays.equals(present, ids)) {
            return this;
        }
        long[] newMarks = new long[n];
        for (int i = 0; i < n; i++) {
            int at = Arrays.binarySearch(ids, present[i]);
            newMarks[i] = at < 0 ? reads : marks[at];
        }
        return new ReadLedger(reads, lastReads, freshFlush, present, newMarks);
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
