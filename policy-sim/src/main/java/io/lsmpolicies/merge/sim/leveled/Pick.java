package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.MergeKind;

/**
 * One compaction of a schedule found by the {@link OptimalSearch}.
 *
 * @param afterFlush   the flush (1-based) after which it ran
 * @param level        the level compacted
 * @param fileIndex    which file of that level (0-based, by key); 0 for a level-0 compaction
 * @param candidates   how many files the level offered (1 for level 0, or where the skip strategy moved a file)
 * @param minKey       smallest key of the picked file (for level 0: of all the inputs)
 * @param maxKey       largest key of the picked file (for level 0: of all the inputs)
 * @param kind         real compaction or trivial move
 * @param bytesWritten bytes the compaction wrote
 */
public record Pick(long afterFlush, int level, int fileIndex, int candidates, int minKey, int maxKey, MergeKind kind,
        long bytesWritten) {

    /** {@return whether the search had a choice here} */
    public boolean choice() {
        return candidates > 1;
    }

    /** E.g. {@code @7 L1 3/5 [120..480] real 40}. */
    @Override
    public String toString() {
        return "@" + afterFlush + " L" + level + " " + (fileIndex + 1) + "/" + candidates + " [" + minKey + ".."
                + maxKey + "] " + (kind == MergeKind.TRIVIAL_MOVE ? "move" : "real " + bytesWritten);
    }
}
