package io.lsmpolicies.merge.sim.leveled;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OptimalSearchTest {

    /**
     * Entries of 1 byte, MemTable 2 operations, files of 2 entries, level 0 compacted at every flush, level 1
     * target 4 bytes, level 2 the last level. Flushes {10,20} {30,40} {15,35} {20,38} {36,39} (20 updated once).
     * With trivial moves taken first, flushes 1-3 leave L1 = [15,30], L2 = [10,20] [35,40], 4 bytes compacted.
     * Flush 4 merges into L1 (4 bytes: [15,20] [30,38]) and L1 must give a file up, neither moving trivially:
     *   a) [15,20] with [10,20]: 3 bytes (20 collapses). Flush 5 then merges into L1 ([30,36] [38,39], 4 bytes) and
     *      either file costs 4 more: 4 + 4 + 3 + 4 + 4 = 19 compaction bytes.
     *   b) [30,38] with [35,40]: 4 bytes. Flush 5 moves trivially into L1 ([15,20] [36,39]); [15,20] with [10,20]
     *      costs 3: 4 + 4 + 4 + 3 = 15 compaction bytes.
     * The optimum is b: 10 flushed + 15 = 25 bytes over 10 ingested, WA 2.5; the greedy choice a gives 2.9.
     */
    static final LevelScoring TINY = new LevelScoring(10, 1, 4, 3);
    static final FlushSequence HAND = FlushSequence.of(
            Workload.ofWrites("hand-made", 10, 20, 30, 40, 15, 35, 20, 38, 36, 39), 2);

    @Test
    void theOptimumOfTheHandMadeWorkloadIsTheHandComputedOne() {
        SearchResult r = OptimalSearch.run(HAND, 1,
                SearchSettings.of(TINY, 2).withTrivialMoves(TrivialMoves.SKIP_FIRST));
        assertThat(r.complete()).isTrue();
        assertThat(r.flushBytes()).isEqualTo(10);
        assertThat(r.writtenBytes()).isEqualTo(25);
        assertThat(r.writeAmplification()).isEqualTo(2.5);
        List<Pick> choices = r.picks().stream().filter(Pick::choice).toList();
        assertThat(choices).hasSize(2);
        assertThat(choices.get(0)).isEqualTo(new Pick(4, 1, 1, 2, 30, 38, MergeKind.REAL, 4));
        assertThat(choices.get(1)).isEqualTo(new Pick(5, 1, 0, 2, 15, 20, MergeKind.REAL, 3));
        assertThat(r.leaves()).isGreaterThanOrEqualTo(1);
        // The greedy picker (least written now; ties to the first file) pays 2.9.
        ModelResult greedy = ModelRunner.run(ReferenceLeveledPolicy.mor(TINY, new OutputCut.ByTargetSize(2), true),
                "mor", HAND, 1);
        assertThat(greedy.writeAmplification()).isEqualTo(2.9);
    }

    @Test
    void pruningDoesNotChangeTheOptimum() {
        LevelScoring scoring = new LevelScoring(3, 2, 12, 4);
        for (long seed = 1; seed <= 4; seed++) {
            FlushSequence flushes = FlushSequence.of(
                    WorkloadGenerator.generate(WorkloadSpec.uniformUpdates(70, 0.5), seed), 6);
            for (TrivialMoves skip : TrivialMoves.values()) {
                SearchSettings pruned = SearchSettings.of(scoring, 6).withTrivialMoves(skip);
                SearchResult full = OptimalSearch.run(flushes, 1, pruned.exhaustive());
                SearchResult fast = OptimalSearch.run(flushes, 1, pruned);
                SearchResult boundOnly = OptimalSearch.run(flushes, 1, pruned.withPruning(true, false));
                SearchResult statesOnly = OptimalSearch.run(flushes, 1, pruned.withPruning(false, true));
                assertThat(full.complete()).as("seed %d: the exhaustive search finishes", seed).isTrue();
                assertThat(full.prunedByBound() + full.prunedByState()).isZero();
                assertThat(fast.writtenBytes()).as("seed %d, skip %s", seed, skip).isEqualTo(full.writtenBytes());
                assertThat(boundOnly.writtenBytes()).isEqualTo(full.writtenBytes());
                assertThat(statesOnly.writtenBytes()).isEqualTo(full.writtenBytes());
                assertThat(fast.nodes()).isLessThanOrEqualTo(full.nodes());
            }
        }
    }

    @Test
    void theOptimumIsNoWorseThanAnyPickerThatMovesInTheSameSpace() {
        LevelScoring scoring = new LevelScoring(4, 4, 100, 4);
        OutputCut cut = new OutputCut.ByTargetSize(25);
        List<MergePolicy> pickers = List.of(
                new ReferenceLeveledPolicy("first", scoring, cut, ReferenceLeveledPolicy.FIRST, false),
                new ReferenceLeveledPolicy("last", scoring, cut, ReferenceLeveledPolicy.LAST, true),
                new ReferenceLeveledPolicy("ossf", scoring, cut, ReferenceLeveledPolicy.OLDEST_SMALLEST_SEQ, true),
                new ReferenceLeveledPolicy("olsf", scoring, cut, ReferenceLeveledPolicy.OLDEST_LARGEST_SEQ, false),
                ReferenceLeveledPolicy.mor(scoring, cut, true));
        for (long seed = 1; seed <= 3; seed++) {
            FlushSequence flushes = FlushSequence.of(
                    WorkloadGenerator.generate(WorkloadSpec.zipfianUpdates(400, 0.5, 0.9), seed), 25);
            // Non-skip: every picker's schedule is one of the schedules searched.
            SearchResult nonSkip = OptimalSearch.run(flushes, 1, SearchSettings.of(scoring, 25)
                    .withTrivialMoves(TrivialMoves.NON_SKIP));
            SearchResult skip = OptimalSearch.run(flushes, 1, SearchSettings.of(scoring, 25));
            SearchResult first = OptimalSearch.run(flushes, 1, SearchSettings.of(scoring, 25)
                    .withTrivialMoves(TrivialMoves.SKIP_FIRST));
            assertThat(nonSkip.complete()).isTrue();
            // Each strategy searches a subset of the next one's schedules.
            assertThat(first.writtenBytes()).isGreaterThanOrEqualTo(skip.writtenBytes());
            assertThat(skip.writtenBytes()).isGreaterThanOrEqualTo(nonSkip.writtenBytes());
            for (MergePolicy p : pickers) {
                ModelResult r = ModelRunner.run(p, p.name(), flushes, 1);
                assertThat(nonSkip.writeAmplification()).as("seed %d, %s", seed, p.name())
                        .isLessThanOrEqualTo(r.writeAmplification());
            }
        }
    }

    @Test
    void theBestScheduleReplayedThroughThePolicyInterfaceWritesWhatTheSearchSays() {
        LevelScoring scoring = new LevelScoring(3, 2, 12, 4);
        FlushSequence flushes = FlushSequence.of(
                WorkloadGenerator.generate(WorkloadSpec.uniformUpdates(90, 0.5), 5), 6);
        SearchResult r = OptimalSearch.run(flushes, 1,
                SearchSettings.of(scoring, 6).withTrivialMoves(TrivialMoves.NON_SKIP));
        assertThat(r.complete()).isTrue();
        assertThat(r.picks().stream().filter(Pick::choice).count()).isGreaterThan(3);
        ModelResult replay = ModelRunner.run(new Scripted(scoring, new OutputCut.ByTargetSize(6), r.picks()),
                "replay", flushes, 1);
        assertThat(replay.writtenBytes()).isEqualTo(r.writtenBytes());
        assertThat(replay.compactions()).isEqualTo(r.compactions());
        assertThat(replay.trivialMoves()).isEqualTo(r.trivialMoves());
    }

    @Test
    void theNodeLimitStopsTheSearchAndSaysSo() {
        LevelScoring scoring = new LevelScoring(3, 2, 12, 4);
        FlushSequence flushes = FlushSequence.of(
                WorkloadGenerator.generate(WorkloadSpec.uniformUpdates(600, 0.5), 5), 6);
        SearchResult r = OptimalSearch.run(flushes, 1, SearchSettings.of(scoring, 6).exhaustive().withNodeLimit(500));
        assertThat(r.complete()).isFalse();
        assertThat(r.nodes()).isEqualTo(500);
    }

    /** Follows a searched schedule: at each compaction, the level and file the next pick names. */
    private static final class Scripted implements MergePolicy {
        private record Step(int index) implements PolicyState {
            @Override
            public byte[] encode() {
                return new byte[0];
            }
        }

        private final LevelScoring scoring;
        private final OutputCut cut;
        private final List<Pick> picks;

        Scripted(LevelScoring scoring, OutputCut cut, List<Pick> picks) {
            this.scoring = scoring;
            this.cut = cut;
            this.picks = picks;
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public PolicyParameters parameters() {
            return new PolicyParameters("scripted", Map.of());
        }

        @Override
        public PolicyState initialState() {
            return new Step(0);
        }

        @Override
        public PolicyState decodeState(byte[] encoded) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Decision decide(TreeView view, PolicyState state) {
            int level = scoring.levelToCompact(view);
            if (level < 0) {
                return Decision.none(state);
            }
            int i = ((Step) state).index();
            Pick p = picks.get(i);
            assertThat(p.level()).as("pick %d", i).isEqualTo(level);
            MergeJob job = level == 0 ? LeveledMoves.level0(view, cut)
                    : LeveledMoves.file(view, level, p.fileIndex(), cut);
            return Decision.of(job, new Step(i + 1));
        }
    }
}
