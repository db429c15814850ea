package io.lsmpolicies.merge.spi;

import java.util.Arrays;

/**
 * Decides where a merge cuts its output into files, as its job's {@link OutputCut} says. Asked before each new
 * key (never between two versions of one key; never before the first key of a file):
 * <ul>
 *   <li>{@code SingleFile}: never.</li>
 *   <li>{@code ByTargetSize(t)}: once the file has reached t bytes.</li>
 *   <li>{@code AtCursor(t, c)}: by target size, and once at the first key at or after the cursor c, so that the
 *       next round-robin pass starts on a file boundary (RocksDB's kRoundRobin output split).</li>
 *   <li>{@code AtGrandparentBoundaries(t, m)}: RocksDB's rules for cutting a leveled compaction's output
 *       against the grandparent level (the level below the output level), as RocksDB's
 *       {@code CompactionOutputs::ShouldStopBefore} applies them:
 *       <ol>
 *         <li>a hard cap: cut once the file holds 2t bytes (t when there is no grandparent level);</li>
 *         <li>only when the key crosses at least one grandparent-file boundary (a file's first or last key):
 *           <ol type="a">
 *             <li>cut if the grandparent bytes the file overlaps, the file containing the key included, plus
 *                 the file's own size exceed m (the max compaction bytes: a later merge of this file into the
 *                 grandparent level stays within the bound);</li>
 *             <li>cut if the key jumps over a whole grandparent file (at least 2 boundaries from a gap between
 *                 files, 3 from inside one) and the grandparent bytes newly overlapped exceed t/8;</li>
 *             <li>cut if the file holds at least ceil(t/100) x (50 + min(5 x boundaries crossed so far, 40))
 *                 bytes: 50% of t at the first boundary, rising to 90%, so that files end near boundaries.</li>
 *           </ol></li>
 *       </ol>
 *       After a cut the counts restart from the grandparent file that holds the key.</li>
 * </ul>
 * Keys compare as unsigned bytes. The engine (lsm-core) and the leveled model (sim.leveled) both cut with this
 * class, so the model's files are the engine's. One instance per merge; not thread-safe.
 */
public final class OutputCutter {
    private final long targetBytes;
    private final long hardCap;
    private final long maxCompactionBytes;
    private final boolean grandparentRules;
    /** Grandparent files' smallest and largest keys and sizes, ascending by key. */
    private final byte[][] gpMin;
    private final byte[][] gpMax;
    private final long[] gpBytes;
    private final byte[] cursor;
    /** Index of the first grandparent file whose largest key is at or above the last key seen. */
    private int index;
    /** Whether the last key seen lies inside grandparent file {@link #index}. */
    private boolean inside;
    /** Highest grandparent index whose bytes {@link #overlapped} counts; -1 for none. */
    private int counted = -1;
    private long overlapped;
    private int crossed;
    private boolean seenKey;
    private boolean cursorPassed;

    private OutputCutter(long targetBytes, long hardCap, long maxCompactionBytes, boolean grandparentRules,
            byte[][] gpMin, byte[][] gpMax, long[] gpBytes, byte[] cursor) {
        this.targetBytes = targetBytes;
        this.hardCap = hardCap;
        this.maxCompactionBytes = maxCompactionBytes;
        this.grandparentRules = grandparentRules;
        this.gpMin = gpMin;
        this.gpMax = gpMax;
        this.gpBytes = gpBytes;
        this.cursor = cursor;
    }

    /**
     * The cutter for {@code cut}.
     *
     * @param cut       how the output is cut
     * @param gpMinKeys the smallest keys of the files of the level below the output level, ascending (used only
     *                  by {@code AtGrandparentBoundaries}; not copied)
     * @param gpMaxKeys those files' largest keys, in the same order
     * @param gpBytes   those files' sizes, in the same order
     * @return a cutter at the start of the output
     * @throws IllegalArgumentException if the three arrays differ in length
     */
    public static OutputCutter of(OutputCut cut, byte[][] gpMinKeys, byte[][] gpMaxKeys, long[] gpBytes) {
        if (gpMinKeys.length != gpMaxKeys.length || gpMaxKeys.length != gpBytes.length) {
            throw new IllegalArgumentException("grandparent arrays differ in length: " + gpMinKeys.length + ", "
                    + gpMaxKeys.length + ", " + gpBytes.length);
        }
        byte[][] none = new byte[0][];
        long[] noBytes = new long[0];
        if (cut instanceof OutputCut.SingleFile) {
            return new OutputCutter(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, false, none, none, noBytes, null);
        } else if (cut instanceof OutputCut.ByTargetSize b) {
            return new OutputCutter(b.targetBytes(), b.targetBytes(), Long.MAX_VALUE, false, none, none, noBytes,
                    null);
        } else if (cut instanceof OutputCut.AtGrandparentBoundaries g) {
            long t = g.targetBytes();
            long cap = gpBytes.length == 0 ? t : (t > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * t);
            return new OutputCutter(t, cap, g.maxGrandparentOverlapBytes(), true, gpMinKeys, gpMaxKeys, gpBytes,
                    null);
        } else if (cut instanceof OutputCut.AtCursor c) {
            return new OutputCutter(c.targetBytes(), c.targetBytes(), Long.MAX_VALUE, false, none, none, noBytes,
                    c.cursor().toByteArray());
        }
        throw new IllegalArgumentException("unknown output cut " + cut);
    }

    /**
     * {@return a cutter for {@code cut} with no grandparent level}
     *
     * @param cut how the output is cut
     */
    public static OutputCutter of(OutputCut cut) {
        byte[][] none = new byte[0][];
        return of(cut, none, none, new long[0]);
    }

    /** {@return whether this cutter never cuts: the output is one file} */
    public boolean cutsNever() {
        return hardCap == Long.MAX_VALUE && !grandparentRules && cursor == null;
    }

    /**
     * Whether to start a new file before {@code key}, the current file holding {@code fileBytes} bytes
     * ({@code fileBytes == 0}: no file is open, so never). Call once per distinct key, ascending.
     *
     * @param key       the next key of the output
     * @param fileBytes the bytes of the current output file so far
     * @return whether to close the current file and start a new one before {@code key}
     */
    public boolean cutBefore(byte[] key, long fileBytes) {
        return cutBefore(key, 0, key.length, fileBytes);
    }

    /**
     * As {@link #cutBefore(byte[], long)} for the key held in {@code bytes[from, to)} (a key read in place; the
     * cutter keeps no reference to it).
     *
     * @param bytes     the array holding the next key of the output
     * @param from      where the key starts in {@code bytes}
     * @param to        where the key ends in {@code bytes} (exclusive)
     * @param fileBytes the bytes of the current output file so far
     * @return whether to close the current file and start a new one before the key
     */
    public boolean cutBefore(byte[] bytes, int from, int to, long fileBytes) {
        boolean open = fileBytes > 0;
        boolean cut = open && fileBytes >= hardCap;
        if (grandparentRules) {
            cut |= grandparentCut(bytes, from, to, fileBytes, open);
        }
        if (cursor != null && !cursorPassed && Arrays.compareUnsigned(bytes, from, to, cursor, 0, cursor.length) >= 0) {
            cursorPassed = true;
            cut |= open;
        }
        if (cut) {
            restart();
        }
        seenKey = true;
        return cut;
    }

    private boolean grandparentCut(byte[] key, int from, int to, long fileBytes, boolean open) {
        int before = index;
        boolean insideBefore = inside;
        while (index < gpMax.length && Arrays.compareUnsigned(key, from, to, gpMax[index], 0, gpMax[index].length) > 0) {
            index++;
        }
        inside = index < gpMax.length
                && Arrays.compareUnsigned(key, from, to, gpMin[index], 0, gpMin[index].length) >= 0;
        int last = inside ? index : index - 1;
        long newly = 0;
        for (int i = Math.max(counted + 1, 0); i <= last; i++) {
            newly += gpBytes[i];
        }
        counted = Math.max(counted, last);
        overlapped += newly;
        if (!seenKey) {
            return false;
        }
        int boundaries = 2 * (index - before) + (inside ? 1 : 0) - (insideBefore ? 1 : 0);
        if (boundaries <= 0 || !open) {
            return false;
        }
        crossed += boundaries;
        boolean a = overlapped + fileBytes > maxCompactionBytes;
        boolean b = boundaries >= (insideBefore ? 3 : 2) && newly > targetBytes / 8;
        long step = (targetBytes + 99) / 100;
        boolean c = fileBytes >= (step > Long.MAX_VALUE / 90 ? Long.MAX_VALUE : step * (50 + Math.min(5L * crossed, 40)));
        return a || b || c;
    }

    /** A new file starts at the current key: overlap counts restart from the grandparent file holding it. */
    private void restart() {
        crossed = 0;
        overlapped = inside ? gpBytes[index] : 0;
        counted = inside ? index : index - 1;
    }
}
