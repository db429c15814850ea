package io.lsmpolicies.merge.policy.leveled;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.LevelView;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;

/**
 * Literal leveled views, RocksDB-picker-test style: {@code file(7, "c0", "c9", 100)} is SSTable 7 holding keys
 * c0..c9 and 100 bytes (100 entries, sequence numbers and creation time 7 unless set otherwise), and
 * {@code view(l0NewestFirst, level1, level2, ...)} places files in levels (each deeper level ascending by key).
 */
final class LeveledViews {
    private LeveledViews() {
    }

    static SSTableInfo.Builder builder(long id, String min, String max, long bytes) {
        return SSTableInfo.builder(id).keys(min, max).bytes(bytes).entries(bytes).sequences(id, id).flush(id)
                .createdMillis(id);
    }

    static SSTableInfo file(long id, String min, String max, long bytes) {
        return builder(id, min, max, bytes).build();
    }

    static SSTableInfo busy(SSTableInfo t) {
        return t.withCompacting(true);
    }

    /** Level 0 from {@code level0NewestFirst}, then levels 1, 2, ... ({@code List.of()} for an empty level). */
    @SafeVarargs
    static TreeView view(List<SSTableInfo> level0NewestFirst, List<SSTableInfo>... deeper) {
        List<LevelView> levels = new ArrayList<>();
        List<SortedRun> l0 = new ArrayList<>();
        for (SSTableInfo t : level0NewestFirst) {
            l0.add(SortedRun.of(t));
        }
        levels.add(new LevelView(0, l0));
        for (int n = 0; n < deeper.length; n++) {
            levels.add(new LevelView(n + 1, deeper[n].isEmpty() ? List.of() : List.of(new SortedRun(deeper[n]))));
        }
        return new TreeView(levels);
    }

    static MergePolicy policy(String spec) {
        return MergePolicies.parse(spec);
    }

    /** The jobs of one decision from the initial state. */
    static List<MergeJob> jobs(MergePolicy p, TreeView view) {
        return p.decide(view, p.initialState()).jobs();
    }

    /** The one job {@code p} asks for on {@code view} in {@code state}. */
    static MergeJob onlyJob(MergePolicy p, TreeView view, PolicyState state) {
        Decision d = p.decide(view, state);
        assertThat(d.jobs()).as("jobs of %s", p).hasSize(1);
        return d.jobs().get(0);
    }

    static MergeJob onlyJob(MergePolicy p, TreeView view) {
        return onlyJob(p, view, p.initialState());
    }

    static List<Long> ids(MergeJob job) {
        List<Long> ids = new ArrayList<>();
        for (SSTableInfo t : job.inputs()) {
            ids.add(t.id());
        }
        return ids;
    }
}
