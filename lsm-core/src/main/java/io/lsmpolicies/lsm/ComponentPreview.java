package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.TableRecord;
import java.util.Arrays;
import java.util.List;

/** Component sets as they would be after an edit, for planning and checking: nothing is logged. */
final class ComponentPreview {
    private ComponentPreview() {
    }

    /** {@code set} with {@code added} and without {@code removed}. */
    static ComponentSet apply(ComponentSet set, List<TableRecord> added, List<Long> removed) {
        ManifestEdit.Builder b = ManifestEdit.builder();
        removed.forEach(b::removeFile);
        long next = set.nextFileNumber();
        for (TableRecord t : added) {
            b.addTable(t);
            next = Math.max(next, t.fileNumber() + 1);
        }
        return b.nextFileNumber(next).build().applyTo(set);
    }

    /** The record a merge of {@code inputs} into {@code level} would have if nothing were dropped (sizes add up). */
    static TableRecord combine(long number, int level, List<TableRecord> inputs) {
        long bytes = 0;
        long entries = 0;
        long tombstones = 0;
        byte[] minKey = null;
        byte[] maxKey = null;
        long minSeq = Long.MAX_VALUE;
        long maxSeq = Long.MIN_VALUE;
        long minFlush = Long.MAX_VALUE;
        long maxFlush = Long.MIN_VALUE;
        long oldestTombstone = Long.MAX_VALUE;
        long data = 0;
        for (TableRecord t : inputs) {
            data += t.dataBytes();
            bytes += t.fileBytes();
            entries += t.entries();
            tombstones += t.tombstones();
            minKey = minKey == null || Arrays.compareUnsigned(t.minKey(), minKey) < 0 ? t.minKey() : minKey;
            maxKey = maxKey == null || Arrays.compareUnsigned(t.maxKey(), maxKey) > 0 ? t.maxKey() : maxKey;
            minSeq = Math.min(minSeq, t.minSequence());
            maxSeq = Math.max(maxSeq, t.maxSequence());
            minFlush = Math.min(minFlush, t.minFlushIndex());
            maxFlush = Math.max(maxFlush, t.maxFlushIndex());
            oldestTombstone = Math.min(oldestTombstone, t.oldestTombstoneMillis());
        }
        return new TableRecord(number, level, bytes, entries, tombstones, minKey, maxKey, minSeq, maxSeq, minFlush,
                maxFlush, System.currentTimeMillis(), oldestTombstone, data);
    }
}
