package io.lsmpolicies.ycsb.hyracks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import io.lsmpolicies.merge.hyracks.ReadCountingOperationTracker;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Hyracks peer tells {@code adaptive} the index's real reads (one per search, counted by the index's operation
 * tracker): the same writes with many reads between flushes leave far fewer disk components than without reads,
 * where it never merges (the model's optimum without reads keeps every flush).
 */
@Timeout(120)
class HyracksReadCountsTest {
    private static final int ROUNDS = 6;
    private static final int RECORDS = 20;

    @TempDir
    Path dir;

    private int componentsAfter(String name, int readsPerRound) throws Exception {
        HyracksConfig config = HyracksConfig.parse(Dbs.props(dir.resolve(name), "hyracks.memtable.size", "64KB",
                "hyracks.policy", "adaptive"));
        byte[] value = new byte[1000];
        try (HyracksTree tree = HyracksTree.open(config); TreeSession session = tree.session()) {
            int key = 0;
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < RECORDS; i++) {
                    session.upsert(("k" + key++).getBytes(StandardCharsets.UTF_8), value);
                }
                tree.settle(); // one flush of this round's records, and the merges it causes
                for (int r = 0; r < readsPerRound; r++) {
                    assertThat(session.get(("k" + (r % key)).getBytes(StandardCharsets.UTF_8))).isNotNull();
                }
            }
            tree.settle();
            return tree.diskComponents().size();
        }
    }

    @Test
    void readsBetweenFlushesMakeAdaptiveMerge() throws Exception {
        assertThat(componentsAfter("write-only", 0)).isEqualTo(ROUNDS);
        assertThat(componentsAfter("read-heavy", 100)).isLessThanOrEqualTo(2);
    }

    @Test
    void aReadOnlyPhaseMakesAdaptiveMergeWithoutAFlush() throws Exception {
        HyracksConfig config = HyracksConfig.parse(Dbs.props(dir.resolve("c"), "hyracks.memtable.size", "64KB",
                "hyracks.policy", "adaptive"));
        byte[] value = new byte[1000];
        try (HyracksTree tree = HyracksTree.open(config); TreeSession session = tree.session()) {
            int key = 0;
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < RECORDS; i++) {
                    session.upsert(("k" + key++).getBytes(StandardCharsets.UTF_8), value);
                }
                tree.settle();
            }
            assertThat(tree.diskComponents()).hasSize(ROUNDS);
            for (int r = 0; r < 3 * ReadCountingOperationTracker.READS_PER_QUESTION; r++) {
                assertThat(session.get(("k" + (r % key)).getBytes(StandardCharsets.UTF_8))).isNotNull();
            }
            tree.settle(); // nothing to flush: waits for the questions about the reads and the merges they chose
            assertThat(tree.diskComponents()).as("workload C alone").hasSizeLessThan(ROUNDS);
        }
    }
}
