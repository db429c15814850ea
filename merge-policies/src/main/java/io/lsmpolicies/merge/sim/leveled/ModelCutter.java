package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.OutputCut;
import java.util.Arrays;
import java.util.List;

/**
 * Where a merge of the model cuts its output into files, as the job's {@link OutputCut} says; the same rules as
 * the engine's {@code OutputCutter} (lsm-core), asked before each key that is written (never before the first
 * key of a file):
 * <ul>
 *   <li>{@code SingleFile}: never.</li>
 *   <li>{@code ByTargetSize}: once the file has reached the target bytes.</li>
 *   <li>{@code AtGrandparentBoundaries}: by target size, and when the grandparent files (the level below the
 *       output level) that the key has moved past since the file began add up to more than the bound, counted
 *       in whole files: LevelDB's {@code Compaction::ShouldStopBefore}. The count restarts at every cut.</li>
 *   <li>{@code AtCursor}: by target size, and once, at the first key at or after the cursor.</li>
 * </ul>
 * One instance per merge; not thread-safe.
 */
final class ModelCutter {
    private final long targetBytes;
    private final long maxGrandparentOverlap;
    private final int[] grandparentMaxKeys;
    private final long[] grandparentBytes;
    private final byte[] cursor;
    private final byte[] scratch = new byte[4];
    private int grandparent;
    private long overlapped;
    private boolean seenKey;
    private boolean cursorPassed;

    private ModelCutter(long targetBytes, long maxGrandparentOverlap, List<ModelFile> grandparents, byte[] cursor) {
        this.targetBytes = targetBytes;
        this.maxGrandparentOverlap = maxGrandparentOverlap;
        this.grandparentMaxKeys = grandparents.stream().mapToInt(ModelFile::maxKey).toArray();
        this.grandparentBytes = grandparents.stream().mapToLong(f -> f.info().bytes()).toArray();
        this.cursor = cursor;
    }

    /**
     * The cutter for {@code cut}.
     *
     * @param grandparents the files of the level below the output level, ascending by key
     */
    static ModelCutter of(OutputCut cut, List<ModelFile> grandparents) {
        if (cut instanceof OutputCut.SingleFile) {
            return new ModelCutter(Long.MAX_VALUE, Long.MAX_VALUE, List.of(), null);
        } else if (cut instanceof OutputCut.ByTargetSize b) {
            return new ModelCutter(b.targetBytes(), Long.MAX_VALUE, List.of(), null);
        } else if (cut instanceof OutputCut.AtGrandparentBoundaries g) {
            return new ModelCutter(g.targetBytes(), g.maxGrandparentOverlapBytes(), grandparents, null);
        } else if (cut instanceof OutputCut.AtCursor c) {
            return new ModelCutter(c.targetBytes(), Long.MAX_VALUE, List.of(), c.cursor().toByteArray());
        }
        throw new IllegalArgumentException("unknown output cut " + cut);
    }

    /**
     * Whether to start a new file before {@code key}, the current file holding {@code fileBytes} bytes (0: no
     * file open, so never). Call once per written key, ascending.
     */
    boolean cutBefore(int key, long fileBytes) {
        boolean cut = fileBytes > 0 && fileBytes >= targetBytes;
        while (grandparent < grandparentMaxKeys.length && key > grandparentMaxKeys[grandparent]) {
            if (seenKey) {
                overlapped += grandparentBytes[grandparent];
            }
            grandparent++;
        }
        seenKey = true;
        if (fileBytes > 0 && overlapped > maxGrandparentOverlap) {
            cut = true;
        }
        if (cursor != null && !cursorPassed && atOrAfterCursor(key)) {
            cursorPassed = true;
            cut |= fileBytes > 0;
        }
        if (cut) {
            overlapped = 0;
        }
        return cut;
    }

    private boolean atOrAfterCursor(int key) {
        scratch[0] = (byte) (key >>> 24);
        scratch[1] = (byte) (key >>> 16);
        scratch[2] = (byte) (key >>> 8);
        scratch[3] = (byte) key;
        return Arrays.compareUnsigned(scratch, cursor) >= 0;
    }
}
