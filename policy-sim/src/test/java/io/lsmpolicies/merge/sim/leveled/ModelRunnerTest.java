package io.lsmpolicies.merge.sim.leveled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ModelRunnerTest {
    static final long ENTRY = 100;
    static final LevelScoring SCORING = new LevelScoring(4, 4, 4 * 64 * ENTRY, 6);
    static final OutputCut CUT = new OutputCut.ByTargetSize(64 * ENTRY);

    /** What a reader must see after the whole workload: the last version of each key not deleted last. */
    static Map<Integer, Long> expectedVersions(Workload w) {
        Map<Integer, Long> out = new HashMap<>();
        for (int i = 0; i < w.size(); i++) {
            if (w.kind(i) == OperationKind.DELETE) {
                out.remove(w.key(i));
            } else {
                out.put(w.key(i), Workload.sequence(i));
            }
        }
        return out;
    }

    @Test
    void aLeveledPolicyRunKeepsTheNewestVersionOfEveryKeyAndAValidLayoutAfterEveryJob() {
        Workload w = WorkloadGenerator.generate(
                new WorkloadSpec(20_000, 0.4, 0.1, UpdateDistribution.ZIPFIAN, 0.99), 4);
        FlushSequence flushes = FlushSequence.of(w, 64);
        ModelTree tree = new ModelTree(ENTRY);
        List<MergeKind> kinds = new ArrayList<>();
        ModelResult r = ModelRunner.run(ReferenceLeveledPolicy.mor(SCORING, CUT, true), "mor", flushes, tree,
                (job, outcome) -> kinds.add(outcome.kind()));
        assertThat(tree.visibleVersions()).isEqualTo(expectedVersions(w));
        assertThat(tree.levelCount()).isGreaterThanOrEqualTo(4);
        assertThat(r.compactions()).isEqualTo(kinds.stream().filter(k -> k == MergeKind.REAL).count()).isPositive();
        assertThat(r.trivialMoves()).isEqualTo(kinds.stream().filter(k -> k == MergeKind.TRIVIAL_MOVE).count());
        // Levels >= 1 end within their targets (the policy ran until no score reached 1).
        for (int n = 1; n < tree.levelCount() - 1; n++) {
            assertThat(tree.levelBytes(n)).isLessThan(SCORING.targetBytes(n));
        }
    }

    @Test
    void delayedCompactionIsRefusedBeforeAnyFlushUnlessVctIsZero() {
        Workload w = WorkloadGenerator.generate(new WorkloadSpec(2_000, 0.4, 0.0, UpdateDistribution.UNIFORM, 0.99), 4);
        FlushSequence flushes = FlushSequence.of(w, 64);
        MergePolicy delayed = MergePolicies.parse("delayed:vct=8,base-level-bytes=25600,target-file-bytes=6400");
        assertThatThrownBy(() -> ModelRunner.run(delayed, "d", flushes, ENTRY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("policy d (delayed, vct=8) asks for virtual merges (delayed compaction), which the "
                        + "key-level model cannot run: run it in the engine (lsm-core), or give vct=0");
        // vct = 0 is the wrapped policy exactly: it runs, and as leveled does.
        String shape = "base-level-bytes=25600,target-file-bytes=6400";
        ModelResult zero = ModelRunner.run(MergePolicies.parse("delayed:vct=0," + shape), "d0", flushes, ENTRY);
        ModelResult leveled = ModelRunner.run(MergePolicies.parse("leveled:" + shape), "d0", flushes, ENTRY);
        assertThat(zero).isEqualTo(leveled);
    }

    @Test
    void writeAmplificationCountsFlushAndCompactionBytesOverIngestedOrFlushedBytes() {
        Workload w = WorkloadGenerator.generate(WorkloadSpec.uniformUpdates(10_000, 0.5), 2);
        FlushSequence flushes = FlushSequence.of(w, 64);
        ModelResult r = ModelRunner.run(ReferenceLeveledPolicy.mor(SCORING, CUT, true), "mor", flushes, ENTRY);
        assertThat(r.ingestedBytes()).isEqualTo(10_000 * ENTRY);
        assertThat(r.flushBytes()).isEqualTo(flushes.flushedEntries() * ENTRY).isLessThan(r.ingestedBytes());
        assertThat(r.flushes()).isEqualTo((10_000 + 63) / 64);
        assertThat(r.writeAmplification())
                .isEqualTo((double) (r.flushBytes() + r.compactionBytes()) / r.ingestedBytes());
        assertThat(r.writeAmplificationOverFlushed())
                .isEqualTo(1 + (double) r.compactionBytes() / r.flushBytes());
        // Entry size scales every byte count alike: the amplification does not depend on it.
        ModelResult big = ModelRunner.run(ReferenceLeveledPolicy.mor(new LevelScoring(4, 4, 4 * 64 * 7, 6),
                new OutputCut.ByTargetSize(64 * 7), true), "mor", flushes, 7);
        assertThat(big.writeAmplification()).isEqualTo(r.writeAmplification());
    }

    @Test
    void runsAreDeterministic() {
        Workload w = WorkloadGenerator.generate(WorkloadSpec.zipfianUpdates(8_000, 0.5, 0.99), 8);
        FlushSequence flushes = FlushSequence.of(w, 50);
        MergePolicy p = new ReferenceLeveledPolicy("osf", SCORING, CUT, ReferenceLeveledPolicy.OLDEST_SMALLEST_SEQ,
                true);
        assertThat(ModelRunner.run(p, "osf", flushes, ENTRY)).isEqualTo(ModelRunner.run(p, "osf", flushes, ENTRY));
    }

    @Test
    void stackPoliciesRunInLevelZero() {
        Workload w = WorkloadGenerator.generate(WorkloadSpec.uniformUpdates(3_000, 0.5), 1);
        FlushSequence flushes = FlushSequence.of(w, 30);
        ModelTree tree = new ModelTree(1);
        ModelResult r = ModelRunner.run(MergePolicies.parse("binomial:k=4"), "binomial", flushes, tree, null);
        assertThat(tree.levelCount()).isEqualTo(1);
        assertThat(tree.visibleVersions()).isEqualTo(expectedVersions(w));
        assertThat(r.compactions()).isPositive();
        assertThat(r.trivialMoves()).isZero();
    }

    /** A policy that decides with {@code decide} and keeps no state. */
    private static MergePolicy policy(String name, Function<TreeView, MergeJob> decide) {
        return new MergePolicy() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public PolicyParameters parameters() {
                return new PolicyParameters(name, Map.of());
            }

            @Override
            public PolicyState initialState() {
                return ReferenceLeveledPolicy.Stateless.INSTANCE;
            }

            @Override
            public PolicyState decodeState(byte[] encoded) {
                return initialState();
            }

            @Override
            public Decision decide(TreeView view, PolicyState state) {
                MergeJob job = decide.apply(view);
                return job == null ? Decision.none(state) : Decision.of(job, state);
            }
        };
    }

    /** Moves the newest level-0 file into level 1, whatever it overlaps, once level 0 holds {@code files}. */
    private static MergePolicy blindMove(int files) {
        return policy("bad", view -> view.level0Runs().size() < files ? null
                : new MergeJob(List.of(view.level0Runs().get(0).first()), 1, CUT, MergeKind.TRIVIAL_MOVE,
                        "blind move"));
    }

    @Test
    void aBadJobIsReportedWithThePolicyAndTheFlush() {
        FlushSequence flushes = FlushSequence.of(Workload.ofWrites("two overlapping flushes", 1, 5, 3, 4), 2);
        assertThatThrownBy(() -> ModelRunner.run(blindMove(1), "bad", flushes, ENTRY))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("policy bad, after flush 2").hasMessageContaining("blind move")
                .hasMessageContaining("overlapping in level 1");
    }

    @Test
    void aJobThatLeavesAnOlderVersionInFrontOfANewerOneIsReported() {
        // Level 0 holds {3, 7} then {3, 9}; moving only the newer file down leaves the old 3 in front of the new one.
        FlushSequence flushes = FlushSequence.of(Workload.ofWrites("an update of 3", 3, 7, 3, 9), 2);
        assertThatThrownBy(() -> ModelRunner.run(blindMove(2), "bad", flushes, ENTRY))
                .hasMessageContaining("policy bad, after flush 2").hasMessageContaining("(blind move) breaks the "
                        + "read order").hasMessageContaining("key 3");
    }
}
