package io.lsmpolicies.merge.hyracks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hyracks.storage.am.lsm.common.impls.SynchronousSchedulerProvider;
import org.apache.hyracks.storage.am.lsm.common.impls.ThreadCountingTracker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read counts in the Hyracks adapter: a real LSM B-tree whose tracker counts its searches
 * ({@link ReadCountingOperationTracker}) tells {@code adaptive} the reads since each flush, so a read-heavy run
 * merges where a write-only one, as the cost model says, never does.
 */
class HyracksReadCountTest {
    private static final int FLUSHES = 8;
    private static final int ENTRIES = 40;

    /** Runs FLUSHES flushes of ENTRIES records with {@code readsPerFlush} point searches after each. */
    private static int componentsAfter(Path dir, int readsPerFlush, HyracksMergePolicy policy) throws Exception {
        try (RealLsmBTree tree = RealLsmBTree.open(dir, policy, true, 0,
                SynchronousSchedulerProvider.INSTANCE.getIoScheduler(null),
                new ReadCountingOperationTracker(new ThreadCountingTracker(), policy))) {
            for (int f = 0; f < FLUSHES; f++) {
                tree.flush(ENTRIES);
                for (int r = 0; r < readsPerFlush; r++) {
                    assertThat(tree.contains(r % tree.nextKey())).isTrue();
                }
            }
            assertThat(policy.readsSinceFlush()).as("the searches after the last flush, each counted once")
                    .isEqualTo(readsPerFlush);
            return tree.diskComponents().size();
        }
    }

    @Test
    void readHeavyRunMergesAndWriteOnlyRunDoesNot(@TempDir Path dir) throws Exception {
        int writeOnly = componentsAfter(dir.resolve("w"),
                0, new HyracksMergePolicy(MergePolicies.create("adaptive", Map.of())));
        int readHeavy = componentsAfter(dir.resolve("r"),
                50, new HyracksMergePolicy(MergePolicies.create("adaptive", Map.of())));
        // Without reads the model's optimum never merges, nor does adaptive (below max-k): one component a flush.
        assertThat(writeOnly).isEqualTo(FLUSHES);
        // 50 reads x 4096 bytes a probe outweigh a flush of 40 records many times over: it keeps about one.
        assertThat(readHeavy).isLessThanOrEqualTo(2);
    }

    @Test
    void aReadOnlyPhaseMakesAdaptiveMergeWithoutAFlush(@TempDir Path dir) throws Exception {
        HyracksMergePolicy policy = new HyracksMergePolicy(MergePolicies.create("adaptive", Map.of()));
        ExecutorService questions = Executors.newSingleThreadExecutor();
        try (RealLsmBTree tree = RealLsmBTree.open(dir, policy, true, 0,
                SynchronousSchedulerProvider.INSTANCE.getIoScheduler(null),
                new ReadCountingOperationTracker(new ThreadCountingTracker(), policy, questions))) {
            for (int f = 0; f < FLUSHES; f++) {
                tree.flush(ENTRIES);
            }
            assertThat(tree.diskComponents()).hasSize(FLUSHES);
            for (long r = 0; r < 3 * ReadCountingOperationTracker.READS_PER_QUESTION; r++) {
                assertThat(tree.contains((int) (r % tree.nextKey()))).isTrue();
            }
            questions.shutdown();
            assertThat(questions.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            // With the synchronous scheduler the merges the questions scheduled have run on the question thread.
            assertThat(tree.diskComponents()).as("reads alone, no flush").hasSizeLessThan(FLUSHES);
            assertThat(policy.readsSinceFlush()).as("the reads told between flushes are taken")
                    .isLessThan(ReadCountingOperationTracker.READS_PER_QUESTION);
        } finally {
            questions.shutdownNow();
        }
    }

    @Test
    void aPolicyBuiltConfiguredTakesNoAsterixParameters() {
        HyracksMergePolicy p = new HyracksMergePolicy(MergePolicies.create("adaptive", Map.of("max-k", 4)));
        p.configure(Map.of());
        assertThatThrownBy(() -> p.configure(Map.of("num-components", "3")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes no AsterixDB parameters");
        assertThatThrownBy(() -> p.recordReads(-1)).hasMessageContaining(">= 0");
    }
}
