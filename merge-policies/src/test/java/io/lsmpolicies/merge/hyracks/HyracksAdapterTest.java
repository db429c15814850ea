package io.lsmpolicies.merge.hyracks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.hyracks.storage.am.lsm.common.impls.NoMergePolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our stack policies inside a real Hyracks 0.3.8 LSM B-tree (real files, real flushes and merges), each
 * through its {@link StackMergePolicyFactory} and AsterixDB parameter names, for {@value #FLUSHES} flushes of
 * 8 to 40 records. After every flush the index's disk components, as flush ranges oldest first, must be
 * exactly those our policy produces when driven directly by {@link ReferenceRun}, which runs our policy through
 * the simulator's protocol on the component sizes Hyracks reported (Bigtable, Exploring and Prefix decide on
 * bytes, and a Hyracks merge output is not the sum of its inputs: pages, B-tree levels and Bloom filters are
 * rounded per component). The simulator itself is in the policy-sim module; ycsb-hyracks checks a Hyracks LSM
 * B-tree under YCSB against it.
 * Halfway the node "restarts" (everything closed, the directory reopened by a new IO manager and buffer
 * cache) with a policy built by a factory read back from its JSON, so flush counters must come from the
 * files; later the whole index is merged by Hyracks itself ({@code scheduleFullMerge}, AsterixDB's COMPACT).
 *
 * <p>The other tests: a run that must fail (the comparison has teeth); {@code isMergeLagging} restoring the
 * bound on an index left with too many components; AsterixDB's background scheduler with merges held back
 * until a flush has to wait for them; and a full merge Hyracks asks for again after a running merge.
 */
class HyracksAdapterTest {
    static final int FLUSHES = 300;
    static final int RESTART_AFTER = 150;
    static final int MERGE_ALL_AFTER = 220;
    static final long SEED = 20_210_406;

    private static final TestResourceRegistry REGISTRY = TestResourceRegistry.ofOurFactories();

    @TempDir
    Path dir;

    /**
     * One policy as AsterixDB would configure it, and the same policy in our own text form.
     */
    record Case(StackMergePolicyFactory factory, Map<String, String> asterix, String ours) {
        @Override
        public String toString() {
            return ours;
        }
    }

    static Stream<Case> policies() {
        return Stream.of(
                new Case(new BinomialMergePolicyFactory(), Map.of("num-components", "3"), "binomial:k=3"),
                new Case(new MinLatencyMergePolicyFactory(), Map.of("num-components", "3"), "minlatency:k=3"),
                new Case(new ConstantMergePolicyFactory(), Map.of("num-components", "4"), "constant:k=4"),
                new Case(new TieredMergePolicyFactory(), Map.of("size-ratio", "3.0"), "tiered:size-ratio=3"),
                new Case(new BigtableMergePolicyFactory(), Map.of("num-components", "4"), "bigtable:k=4"),
                new Case(new ExploringMergePolicyFactory(), Map.of("max-component-count", "4", "size-ratio", "1.2",
                        "min-merge-component-count", "3", "max-merge-component-count", "10"),
                        "exploring:k=4,lambda=1.2,min=3,max=10"),
                new Case(new PrefixMergePolicyFactory(), Map.of("max-mergable-component-size", "12000",
                        "max-tolerance-component-count", "4"),
                        "prefix:max-mergable-component-size=12000,max-tolerance-component-count=4"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void hyracksRunsOurScheduleAfterEveryFlush(Case c) throws Exception {
        runAndCompare(c.factory(), c.asterix(), c.ours(), FLUSHES);
    }

    /** The comparison has teeth: Binomial in Hyracks is not MinLatency, and the run says at which flush. */
    @Test
    void aDifferentScheduleIsCaughtAtTheFirstFlushWhereItDiffers() {
        assertThatThrownBy(() -> runAndCompare(new BinomialMergePolicyFactory(), Map.of("num-components", "3"),
                "minlatency:k=3", 20))
                .isInstanceOf(AssertionError.class).hasMessageContaining("after flush 2");
    }

    /**
     * The policies whose {@code isMergeLagging} holds every flush back while a merge they chose is pending, so
     * that background merges cannot change their schedule. Exploring (it also merges below k), Tiered and Prefix
     * (never lagging) let a flush in beside a running merge, and then decide once for both, as documented.
     */
    static Stream<Case> policiesThatWaitForTheirMerges() {
        return policies().filter(c -> c.ours().startsWith("binomial") || c.ours().startsWith("minlatency")
                || c.ours().startsWith("constant") || c.ours().startsWith("bigtable"));
    }

    /**
     * With AsterixDB's background scheduler, and each merge held back until a flush has to wait for it, every
     * flush after a merge goes through {@code isMergeLagging} answering true while the merge is pending; the
     * index never holds more than k + 1 components and ends exactly where our policy ends.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("policiesThatWaitForTheirMerges")
    void withBackgroundMergesEachFlushWaitsForThePendingMergeAndTheScheduleIsUnchanged(Case c) throws Exception {
        int flushes = 120;
        int k = MergePolicies.parse(c.ours()).parameters().getInt("k");
        List<Integer> sizes = flushSizes(flushes);
        Map<ComponentSequence, Long> reported = new HashMap<>();
        try (HeldMergeScheduler scheduler = new HeldMergeScheduler()) {
            LaggingProbe probe = new LaggingProbe(c.factory().createMergePolicy(c.asterix(), null), scheduler::release);
            try (RealLsmBTree tree = RealLsmBTree.open(dir, new ComponentSizeLog(probe, reported), true, 0,
                    scheduler)) {
                for (int t = 1; t <= flushes; t++) {
                    tree.flush(sizes.get(t - 1));
                    assertThat(tree.sequencesOldestFirst()).as("%s after flush %d", c.ours(), t)
                            .hasSizeLessThanOrEqualTo(k + 1);
                }
                tree.awaitMerges(scheduler::release);
                ReferenceRun reference = new ReferenceRun(MergePolicies.parse(c.ours()), reported::get);
                List<String> expected = List.of();
                for (int t = 1; t <= flushes; t++) {
                    expected = reference.flush();
                }
                assertThat(ranges(tree.sequencesOldestFirst())).isEqualTo(expected);
                assertThat(probe.laggingAnswers()).as("flushes that waited for a merge").isPositive();
            }
        }
    }

    static Stream<Case> boundedPolicies() {
        return Stream.of(
                new Case(new BigtableMergePolicyFactory(), Map.of("num-components", "3"), "bigtable:k=3"),
                new Case(new BinomialMergePolicyFactory(), Map.of("num-components", "3"), "binomial:k=3"),
                // With no candidate window and more than k components Exploring merges 3 at a time: 11 -> 9 ->
                // 7 -> 5 -> 3; isMergeLagging schedules the first, diskComponentAdded after each the next.
                new Case(new ExploringMergePolicyFactory(), Map.of("max-component-count", "3", "size-ratio", "0.0",
                        "min-merge-component-count", "3", "max-merge-component-count", "3"),
                        "exploring:k=3,lambda=0,min=3,max=3"));
    }

    /**
     * {@code isMergeLagging}: an index that holds more components than the bound and has no merge running
     * (here: eleven components left by Hyracks' own no-merge policy before a restart) schedules the policy's
     * merge itself, since the next flush waits on it and nothing else would; with the merges the policy asks for
     * after it the bound holds again, and the next flush keeps it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("boundedPolicies")
    void aLaggingIndexWithNoMergeRunningIsMergedDownToTheBound(Case c) throws Exception {
        int nextKey;
        try (RealLsmBTree tree = RealLsmBTree.open(dir, new NoMergePolicy(), true, 0)) {
            for (int t = 1; t <= 11; t++) {
                tree.flush(10);
            }
            assertThat(tree.sequencesOldestFirst()).hasSize(11);
            nextKey = tree.nextKey();
        }
        HyracksMergePolicy adapter = (HyracksMergePolicy) c.factory().createMergePolicy(c.asterix(), null);
        try (RealLsmBTree tree = RealLsmBTree.open(dir, adapter, false, nextKey)) {
            assertThat(adapter.isMergeLagging(tree.index())).as("still lagging after its own merges").isFalse();
            List<String> merged = ranges(tree.sequencesOldestFirst());
            assertThat(merged).as("merged down to k").hasSizeLessThanOrEqualTo(3).isNotEmpty();
            assertThat(merged.get(0)).startsWith("1-");
            assertThat(last(merged)).endsWith("-11");
            tree.flush(10);
            assertThat(tree.sequencesOldestFirst()).hasSizeLessThanOrEqualTo(3);
            assertThat(last(ranges(tree.sequencesOldestFirst()))).endsWith("-12");
        }
    }

    /**
     * A full merge that Hyracks could not start because a merge was running (a COMPACT during a merge) is
     * requested again through {@code diskComponentAdded(index, true)} when that merge is installed; the adapter
     * then schedules it, as Hyracks' own policies do.
     */
    @Test
    void aFullMergeRequestedDuringAMergeIsScheduledWhenThatMergeIsInstalled() throws Exception {
        try (HeldMergeScheduler scheduler = new HeldMergeScheduler();
                RealLsmBTree tree = RealLsmBTree.open(dir,
                        new TieredMergePolicyFactory().createMergePolicy(Map.of("size-ratio", "3"), null), true, 0,
                        scheduler)) {
            for (int t = 1; t <= 4; t++) {
                tree.flush(10); // flush 3 schedules the tier merge of 1-3, held back; flush 4 is let in beside it
            }
            tree.mergeAll(); // finds 1-3 merging: Hyracks keeps the request instead
            assertThat(ranges(tree.sequencesOldestFirst())).containsExactly("1-1", "2-2", "3-3", "4-4");
            tree.awaitMerges(scheduler::release);
            assertThat(ranges(tree.sequencesOldestFirst())).containsExactly("1-4");
        }
    }

    private void runAndCompare(StackMergePolicyFactory factory, Map<String, String> asterix, String ours,
            int flushes) throws Exception {
        List<Integer> sizes = flushSizes(flushes);
        Map<ComponentSequence, Long> reported = new HashMap<>();
        ReferenceRun reference = new ReferenceRun(MergePolicies.parse(ours), reported::get);
        RealLsmBTree tree = RealLsmBTree.open(dir,
                new ComponentSizeLog(factory.createMergePolicy(asterix, null), reported), true, 0);
        try {
            for (int t = 1; t <= flushes; t++) {
                if (t == RESTART_AFTER + 1) {
                    int nextKey = tree.nextKey();
                    tree.close();
                    tree = null;
                    StackMergePolicyFactory restored = (StackMergePolicyFactory) REGISTRY.roundTrip(factory);
                    tree = RealLsmBTree.open(dir,
                            new ComponentSizeLog(restored.createMergePolicy(asterix, null), reported), false, nextKey);
                }
                tree.flush(sizes.get(t - 1));
                List<String> actual = ranges(tree.sequencesOldestFirst());
                assertThat(actual).as("%s after flush %d: Hyracks against our policy on Hyracks' sizes", ours, t)
                        .isEqualTo(reference.flush());
                if (t == MERGE_ALL_AFTER && actual.size() > 1) {
                    tree.mergeAll();
                    assertThat(ranges(tree.sequencesOldestFirst()))
                            .as("%s after a full merge by Hyracks after flush %d", ours, t)
                            .isEqualTo(reference.mergeAllElsewhere());
                }
            }
        } finally {
            if (tree != null) {
                tree.close();
            }
        }
    }

    /** The flush sizes, in records: uniform in [8, 40], seeded, the same in every run. */
    private static List<Integer> flushSizes(int n) {
        SplittableRandom random = new SplittableRandom(SEED);
        List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add((int) random.nextLong(8, 41));
        }
        return out;
    }

    static List<String> ranges(List<ComponentSequence> oldestFirst) {
        List<String> out = new ArrayList<>();
        for (ComponentSequence s : oldestFirst) {
            out.add(s.firstFlush() + "-" + s.lastFlush());
        }
        return out;
    }

    private static String last(List<String> list) {
        return list.get(list.size() - 1);
    }
}
