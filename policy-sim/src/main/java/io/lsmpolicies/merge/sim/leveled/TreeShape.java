package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.OutputCut;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sizes of a leveled tree in the model, in entries (bytes = entries x entry size), validated when built.
 *
 * @param memtableOperations operations per MemTable (one flush per MemTable), {@code >= 1}
 * @param targetFileEntries  target size of compaction output files, {@code >= 1}
 * @param baseLevelEntries   target size of level 1, {@code >= 1}
 * @param sizeRatio          T: each level's target is T times the one above, {@code >= 2}
 * @param l0Trigger          level-0 file count that triggers a level-0 compaction, {@code >= 1}
 * @param levels             levels including level 0, {@code >= 2}; the last one is never compacted
 */
public record TreeShape(int memtableOperations, int targetFileEntries, long baseLevelEntries, int sizeRatio,
        int l0Trigger, int levels) {

    /**
     * Checks the shape.
     *
     * @param memtableOperations operations per MemTable (one flush per MemTable), {@code >= 1}
     * @param targetFileEntries  target size of compaction output files, {@code >= 1}
     * @param baseLevelEntries   target size of level 1, {@code >= 1}
     * @param sizeRatio          T: each level's target is T times the one above, {@code >= 2}
     * @param l0Trigger          level-0 file count that triggers a level-0 compaction, {@code >= 1}
     * @param levels             levels including level 0, {@code >= 2}; the last one is never compacted
     * @throws IllegalArgumentException naming the value, if one is out of range
     */
    public TreeShape {
        check(memtableOperations >= 1, "MemTable operations", memtableOperations);
        check(targetFileEntries >= 1, "target file entries", targetFileEntries);
        check(baseLevelEntries >= 1, "base level entries", baseLevelEntries);
        check(sizeRatio >= 2, "size ratio", sizeRatio);
        check(l0Trigger >= 1, "level-0 trigger", l0Trigger);
        check(levels >= 2, "levels", levels);
    }

    private static void check(boolean ok, String what, long value) {
        if (!ok) {
            throw new IllegalArgumentException(what + " must be " + (what.equals("size ratio") || what.equals("levels")
                    ? ">= 2" : ">= 1") + ", was " + value);
        }
    }

    /**
     * {@return the level scoring of this shape with entries of {@code entryBytes}}
     *
     * @param entryBytes bytes per entry
     */
    public LevelScoring scoring(long entryBytes) {
        return new LevelScoring(sizeRatio, l0Trigger, baseLevelEntries * entryBytes, levels);
    }

    /**
     * {@return output files cut as {@code leveled} cuts them by default: at grandparent boundaries, max
     * compaction bytes 25 x target}
     *
     * @param entryBytes bytes per entry
     */
    public OutputCut cut(long entryBytes) {
        long target = targetFileEntries * entryBytes;
        return new OutputCut.AtGrandparentBoundaries(target, 25 * target);
    }

    /**
     * The values a policy spec template may name, in bytes where the name says so: {@code size-ratio},
     * {@code l0-trigger}, {@code base-level-bytes}, {@code target-file-bytes}, {@code memtable-bytes},
     * {@code levels}, {@code entry-bytes}.
     *
     * @param entryBytes bytes per entry
     * @return the values by name
     */
    public Map<String, String> placeholders(long entryBytes) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("size-ratio", Integer.toString(sizeRatio));
        m.put("l0-trigger", Integer.toString(l0Trigger));
        m.put("base-level-bytes", Long.toString(baseLevelEntries * entryBytes));
        m.put("target-file-bytes", Long.toString(targetFileEntries * entryBytes));
        m.put("memtable-bytes", Long.toString(memtableOperations * entryBytes));
        m.put("levels", Integer.toString(levels));
        m.put("entry-bytes", Long.toString(entryBytes));
        return m;
    }

    /** {@return E.g. {@code MemTable 2500, files 2500, L1 10000 entries, T 4, L0 trigger 4, 7 levels}} */
    public String describe() {
        return "MemTable " + memtableOperations + " ops, files " + targetFileEntries + ", L1 " + baseLevelEntries
                + " entries, T " + sizeRatio + ", L0 trigger " + l0Trigger + ", " + levels + " levels";
    }
}
