package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.LevelView;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Builds the merge policies' {@link TreeView} from the manifest's {@link ComponentSet}: level 0 becomes one
 * run per component, newest first (one table, or the tables of a merge split by key:
 * {@link ComponentSet#level0Components()}); each deeper level becomes one sorted run, ascending by key. SSTable ids are
 * file numbers, so a policy's {@code MergeJob} names the files to merge. A table's size, as policies see it,
 * is its {@link TableRecord#dataBytes()} (key and value bytes), which adds up under merges of distinct keys
 * as the model of Mao et al. assumes; file sizes do not.
 */
public final class PolicyViews {
    private PolicyViews() {
    }

    /**
     * {@return the view with every table's last access taken as its creation time}
     *
     * @param set        the component set
     * @param compacting file numbers of tables that are inputs of running merges
     */
    public static TreeView of(ComponentSet set, Set<Long> compacting) {
        return of(set, compacting, TableRecord::createdMillis);
    }

    /**
     * The view of {@code set}.
     *
     * @param compacting file numbers that are inputs of running merges
     * @param lastAccess last read time of a table (e.g. from the engine's read statistics)
     * @param set the component set
     * @return the view
     * @throws IllegalStateException naming the files if two tables of a level below 0 overlap
     */
    public static TreeView of(ComponentSet set, Set<Long> compacting, ToLongFunction<TableRecord> lastAccess) {
        List<LevelView> levels = new ArrayList<>();
        List<List<TableRecord>> all = set.levels();
        for (int n = 0; n < all.size(); n++) {
            List<SortedRun> runs = new ArrayList<>();
            if (n == 0) {
                for (List<TableRecord> component : set.level0Components()) {
                    List<SSTableInfo> tables = new ArrayList<>(component.size());
                    for (TableRecord t : component) {
                        tables.add(info(t, compacting, lastAccess));
                    }
                    runs.add(new SortedRun(tables));
                }
            } else if (!all.get(n).isEmpty()) {
                List<SSTableInfo> tables = new ArrayList<>();
                for (TableRecord t : all.get(n)) {
                    tables.add(info(t, compacting, lastAccess));
                }
                try {
                    runs.add(new SortedRun(tables));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("level " + n + " is not one sorted run: " + e.getMessage(), e);
                }
            }
            levels.add(new LevelView(n, runs));
        }
        return new TreeView(levels);
    }

    private static SSTableInfo info(TableRecord t, Set<Long> compacting, ToLongFunction<TableRecord> lastAccess) {
        return SSTableInfo.builder(t.fileNumber()).bytes(t.dataBytes()).entries(t.entries()).tombstones(t.tombstones())
                .keys(Key.of(t.minKey()), Key.of(t.maxKey())).sequences(t.minSequence(), t.maxSequence())
                .flushes(t.minFlushIndex(), t.maxFlushIndex()).createdMillis(t.createdMillis())
                .lastAccessMillis(lastAccess.applyAsLong(t)).oldestTombstoneMillis(t.oldestTombstoneMillis())
                .parents(t.parents().size()).compacting(compacting.contains(t.fileNumber())).build();
    }
}
