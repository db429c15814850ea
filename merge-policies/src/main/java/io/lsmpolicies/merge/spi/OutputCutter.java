package io.lsmpolicies.merge.spi;

import java.util.Arrays;

/**
 * Decides where a merge cuts its output into files, as its job's {@link OutputCut} says. Asked before each new
 * key (never between two versions of one key, never before the first key of a file):
 * <ul>
 *   <li>{@code SingleFile}: never.</li>
 *   <li>{@code ByTargetSize}: once the file has reached the target.</li>
 *   <li>{@code AtGrandparentBoundaries}: by target size, and when the file's key range has come to overlap
 *       more than the allowed bytes of the grandparent level (the level below the output level), counted in
 *       whole grandparent files passed since the file began: LevelDB's {@code ShouldStopBefore}, RocksDB's
 *       rule 4a (our notes, production-policies.md 1.6). A later merge of the output into the grandparent
 *       level then rewrites at most that many bytes.</li>
 *   <li>{@code AtCursor}: by target size, and once at the first key at or after the cursor, so that the
 *       next round-robin pass starts on a file boundary (RocksDB's kRoundRobin output split).</li>
 * </ul>
 * Keys are compared as unsigned bytes. The engine (lsm-core) and the leveled model (sim.leveled) both cut
 * with this class, so a schedule in the model is the engine's. One instance per merge; not thread-safe.
 */
public final class OutputCutter {
    private final long targetBytes;
    private final long maxGrandparentOverlap;
    /** Grandparent tables' largest keys and sizes, ascending by key. */
    private final byte[][] grandparentMaxKeys;
    private final long[] grandparentBytes;
    private final byte[] cursor;
    private int grandparent;
    private long overlapped;
    private boolean seenKey;
    private boolean cursorPassed;

    private OutputCutter(long targetBytes, long maxGrandparentOverlap, byte[][] grandparentMaxKeys,
            long[] grandparentBytes, byte[] cursor) {
        this.targetBytes = targetBytes;
        this.maxGrandparentOverlap = maxGrandparentOverlap;
        this.grandparentMaxKeys = grandparentMaxKeys;
        this.grandparentBytes = grandparentBytes;
        this.cursor = cursor;
    }

    /**
     * The cutter for {@code cut}.
     *
     * @param grandparentMaxKeys the largest keys of the files of the level below the output level, ascending
     *                           (used only by {@code AtGrandparentBoundaries}; not copied)
     * @param grandparentBytes   those files' sizes, in the same order
     */
    public static OutputCutter of(OutputCut cut, byte[][] grandparentMaxKeys, long[] grandparentBytes) {
        if (grandparentMaxKeys.length != grandparentBytes.length) {
            throw new IllegalArgumentException(grandparentMaxKeys.length + " grandparent keys but "
                    + grandparentBytes.length + " sizes");
        }
        byte[][] none = new byte[0][];
        if (cut instanceof OutputCut.SingleFile) {
            return new OutputCutter(Long.MAX_VALUE, Long.MAX_VALUE, none, new long[0], null);
        } else if (cut instanceof OutputCut.ByTargetSize b) {
            return new OutputCutter(b.targetBytes(), Long.MAX_VALUE, none, new long[0], null);
        } else if (cut instanceof OutputCut.AtGrandparentBoundaries g) {
            return new OutputCutter(g.targetBytes(), g.maxGrandparentOverlapBytes(), grandparentMaxKeys,
                    grandparentBytes, null);
        } else if (cut instanceof OutputCut.AtCursor c) {
            return new OutputCutter(c.targetBytes(), Long.MAX_VALUE, none, new long[0], c.cursor().toByteArray());
        }
        throw new IllegalArgumentException("unknown output cut " + cut);
    }

    /** A cutter for {@code cut} with no grandparent level. */
    public static OutputCutter of(OutputCut cut) {
        return of(cut, new byte[0][], new long[0]);
    }

    /**
     * Whether to start a new file before {@code key}, the current file holding {@code fileBytes} bytes
     * ({@code fileBytes == 0}: no file is open, so never). Call once per distinct key, in key order.
     */
    public boolean cutBefore(byte[] key, long fileBytes) {
        boolean cut = fileBytes > 0 && fileBytes >= targetBytes;
        while (grandparent < grandparentMaxKeys.length
                && Arrays.compareUnsigned(key, grandparentMaxKeys[grandparent]) > 0) {
            if (seenKey) {
                overlapped += grandparentBytes[grandparent];
            }
            grandparent++;
        }
        seenKey = true;
        if (fileBytes > 0 && overlapped > maxGrandparentOverlap) {
            cut = true;
        }
        if (cursor != null && !cursorPassed && Arrays.compareUnsigned(key, cursor) >= 0) {
            cursorPassed = true;
            cut |= fileBytes > 0;
        }
        if (cut) {
            overlapped = 0;
        }
        return cut;
    }
}
