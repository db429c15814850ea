package io.lsmpolicies.merge.policy.leveled;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.SSTableInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every leveled-family policy driven on {@link TreeModel}: after every compaction no level below 0 has overlapping
 * files (and every job met the engine's contract when it started: free inputs, the whole overlap of its output
 * level, no overlap with a running job into the same level, no level-0 data moved below older level-0 data); once
 * the policy asks for nothing with nothing running, every level is within its target (level 0 below its trigger),
 * no delete trigger is left pending, and a universal tree has at most {@code l0-trigger} runs.
 */
class LeveledInvariantsTest {
    static final String SHAPE = "base-level-bytes=200,size-ratio=4,target-file-bytes=50,num-levels=5,l0-trigger=4,"
            + "l0-stop-trigger=8,tombstone-age-millis=400,tombstone-density-threshold=0.3";
    static final int FLUSHES = 200;

    static Stream<String> policies() {
        List<String> out = new ArrayList<>();
        for (String picker : Movement.pickerChoices()) {
            out.add("leveled:" + SHAPE + ",picker=" + picker);
        }
        out.add("leveled:" + SHAPE + ",picker=round-robin,level-targets=dynamic");
        out.add("leveled:" + SHAPE + ",picker=min-overlapping-ratio,level-targets=dynamic");
        out.add("leveled:" + SHAPE + ",picker=refined-mor,max-compaction-bytes=120");
        out.add("full-leveling:" + SHAPE.replaceAll(",tombstone.*", ""));
        out.add("full-leveling:" + SHAPE.replaceAll(",tombstone.*", "") + ",level-targets=dynamic");
        out.add("one-leveling:" + SHAPE.replaceAll(",tombstone.*", ""));
        out.add("universal:l0-trigger=4,l0-stop-trigger=8,num-levels=5");
        out.add("universal:l0-trigger=3,l0-stop-trigger=8,num-levels=5,max-size-amplification-percent=50,"
                + "size-ratio-percent=20");
        out.add("composed:" + SHAPE + ",trigger=tombstone-density,movement=round-robin");
        out.add("composed:" + SHAPE + ",trigger=tombstone-age,layout=one-leveling,movement=oldest");
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void aOneThreadEngineKeepsEveryLevelSortedAndSettlesWithinTargets(String spec) {
        MergePolicy p = MergePolicies.parse(spec);
        TreeModel m = new TreeModel(p, spec, 17, 5);
        long flushed = 0;
        for (int i = 0; i < FLUSHES; i++) {
            assertThat(p.isMergeLagging(m.view(), p.initialState())).as("lagging with nothing left to do").isFalse();
            m.flush();
            flushed += m.level(0).get(0).bytes();
            m.settleSequentially();
            assertSettled(p, m, spec);
            assertThat(m.totalBytes()).as("bytes are conserved").isEqualTo(flushed);
        }
        assertThat(m.realJobs).as("%s ran real compactions", spec).isGreaterThan(10);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void concurrentJobsNeverConflictAndTheTreeSettlesOnceTheyFinish(String spec) {
        MergePolicy p = MergePolicies.parse(spec);
        TreeModel m = new TreeModel(p, spec, 29, 5);
        java.util.Random events = new java.util.Random(5);
        int flushes = 0;
        int maxRunning = 0;
        while (flushes < FLUSHES) {
            if (!m.idle() && (m.lagging() || events.nextInt(3) == 0)) {
                m.finishAny();
            } else {
                assertThat(m.lagging()).as("%s: lagging with no merge running", spec).isFalse();
                m.flush();
                flushes++;
            }
            m.schedule();
            maxRunning = Math.max(maxRunning, m.runningJobs());
        }
        while (!m.idle()) {
            m.finishAny();
            m.schedule();
        }
        assertSettled(p, m, spec);
        if (!spec.startsWith("universal") && !spec.startsWith("full-leveling")) {
            assertThat(maxRunning).as("%s ran merges side by side", spec).isGreaterThan(1);
        }
    }

    private static void assertSettled(MergePolicy p, TreeModel m, String spec) {
        assertThat(m.idle()).isTrue();
        assertThat(p.decide(m.view(), p.initialState()).jobs()).as("%s asks for more when settled", spec).isEmpty();
        ComposedPolicy c = (ComposedPolicy) p;
        LeveledSettings s = LeveledSettings.from(p.parameters());
        Tree tree = Tree.of(spec, m.view(), s.numLevels());
        if (c.strategy().layout() == DataLayout.TIERING) {
            assertThat(UniversalCompaction.runs(tree).size()).as("%s: runs", spec).isLessThanOrEqualTo(s.l0Trigger());
            return;
        }
        LevelTargets targets = LevelTargets.of(tree, s);
        assertThat(tree.files(0).size()).as("%s: level-0 files", spec).isLessThan(s.l0Trigger());
        for (int n = 1; n < tree.lastLevel(); n++) {
            assertThat(tree.bytes(n)).as("%s: L%d bytes against its target", spec, n)
                    .isLessThanOrEqualTo(targets.target(n));
        }
        for (int n = 0; n < tree.lastLevel(); n++) {
            for (SSTableInfo t : tree.files(n)) {
                if (c.strategy().trigger() == Trigger.TOMBSTONE_DENSITY) {
                    assertThat(Tombstones.dense(t, s.tombstoneDensityThreshold())).as("%s: L%d file %d dense", spec, n,
                            t.id()).isFalse();
                } else if (c.strategy().trigger() == Trigger.TOMBSTONE_AGE) {
                    assertThat(Tombstones.expired(t, n, tree, targets, s)).as("%s: L%d file %d expired", spec, n,
                            t.id()).isFalse();
                }
            }
        }
    }
}
