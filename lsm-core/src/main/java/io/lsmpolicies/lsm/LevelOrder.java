package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.spi.MergeJob;
import java.util.Arrays;
import java.util.List;

/**
 * The level-order invariant: every level >= 1 is one sorted run, its tables' key ranges disjoint and ascending.
 * The engine checks it before logging a merge, so a policy's wrong job is refused instead of installed.
 */
final class LevelOrder {
    private LevelOrder() {
    }

    /**
     * Refuses {@code edit} (the install of {@code job}, asked by policy {@code policy}) if it would leave two
     * overlapping tables in a level >= 1 of {@code current}.
     *
     * @throws IllegalStateException naming the policy, the job, the level and the two tables
     */
    static void check(ComponentSet current, ManifestEdit edit, MergeJob job, String policy) {
        ComponentSet after = ComponentPreview.apply(current, edit.added(), edit.removed());
        for (int level = 1; level < after.levels().size(); level++) {
            List<TableRecord> tables = after.level(level);
            for (int i = 1; i < tables.size(); i++) {
                TableRecord a = tables.get(i - 1);
                TableRecord b = tables.get(i);
                if (Arrays.compareUnsigned(a.maxKey(), b.minKey()) >= 0) {
                    throw new IllegalStateException("policy " + policy + "'s job (" + job.reason()
                            + ") would leave tables " + a.fileNumber() + " and " + b.fileNumber()
                            + " overlapping in level " + level + "; a job into a level >= 1 must take every "
                            + "table of that level its key range overlaps");
                }
            }
        }
    }
}
