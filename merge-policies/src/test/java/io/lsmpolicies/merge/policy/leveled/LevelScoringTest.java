package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledViews.busy;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.file;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.ids;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.jobs;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.onlyJob;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.policy;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.view;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Level scores: level 0 by file count, deeper levels by bytes against static or dynamic targets. */
class LevelScoringTest {
    static final long N = LevelTargets.NONE;

    static LeveledSettings settings(String spec) {
        return LeveledSettings.from(policy(spec).parameters());
    }

    /** Level {@code n} (1-based position in {@code bytesByLevel}) holding one file of that many bytes. */
    static TreeView sized(long... bytesByLevel) {
        List<List<SSTableInfo>> levels = new ArrayList<>();
        for (int n = 0; n < bytesByLevel.length; n++) {
            levels.add(bytesByLevel[n] == 0 ? List.of() : List.of(file(100 + n, "a0", "a9", bytesByLevel[n])));
        }
        @SuppressWarnings("unchecked")
        List<SSTableInfo>[] deeper = levels.toArray(new List[0]);
        return view(List.of(), deeper);
    }

    static Tree tree(TreeView v) {
        return Tree.of("test", v, 7);
    }

    @Test
    void staticTargetsStartAtLevelOneAndGrowByTheSizeRatio() {
        LevelTargets t = LevelTargets.of(tree(sized()), settings("leveled:base-level-bytes=100,size-ratio=10"));
        assertThat(t.baseLevel()).isEqualTo(1);
        assertThat(t.targets()).containsExactly(N, 100, 1000, 10_000, 100_000, 1_000_000, N);
    }

    @Test
    void dynamicTargetsWithEveryLevelEmptyDrainLevelZeroIntoTheLastLevel() {
        LeveledSettings s = settings("leveled:base-level-bytes=100,size-ratio=10,level-targets=dynamic");
        LevelTargets t = LevelTargets.of(tree(sized()), s);
        assertThat(t.baseLevel()).isEqualTo(6);
        assertThat(t.targets()).containsOnly(N);
        MergeJob job = onlyJob(policy("leveled:level-targets=dynamic"), view(List.of(file(4, "a", "b", 1),
                file(3, "a", "b", 1), file(2, "a", "b", 1), file(1, "a", "b", 1))));
        assertThat(job.outputLevel()).isEqualTo(6);
    }

    @Test
    void dynamicTargetsDeriveFromTheLastLevel() {
        LeveledSettings s = settings("leveled:base-level-bytes=100,size-ratio=10,level-targets=dynamic");
        // 2000 bytes in L6: 2000 > 100, so the base level moves up: L5 gets 200, L4 20 (<= 100): base L4, and no
        // target is below base-level-bytes.
        LevelTargets big = LevelTargets.of(tree(sized(0, 0, 0, 0, 0, 2000)), s);
        assertThat(big.baseLevel()).isEqualTo(4);
        assertThat(big.targets()).containsExactly(N, N, N, N, 100, 200, N);
        // 50 bytes in L6 (above 100 / 10): L6 is the base level.
        assertThat(LevelTargets.of(tree(sized(0, 0, 0, 0, 0, 50)), s).baseLevel()).isEqualTo(6);
        // 5 bytes (at most 100 / 10): the first non-empty level is the base level.
        assertThat(LevelTargets.of(tree(sized(0, 0, 0, 0, 0, 5)), s).baseLevel()).isEqualTo(6);
        // 100,000 bytes in L6 and 3,000 in L5: L6 / 10 = 10,000 at L5, 1,000 at L4, 100 at L3: base L3.
        LevelTargets deep = LevelTargets.of(tree(sized(0, 0, 0, 0, 3000, 100_000)), s);
        assertThat(deep.baseLevel()).isEqualTo(3);
        assertThat(deep.targets()).containsExactly(N, N, N, 100, 1000, 10_000, N);
        // So level 5 (3,000 of 10,000) is fine, and four level-0 files drain into level 3.
        MergeJob job = onlyJob(policy("leveled:base-level-bytes=100,size-ratio=10,level-targets=dynamic"),
                view(List.of(file(4, "a", "b", 1), file(3, "a", "b", 1), file(2, "a", "b", 1), file(1, "a", "b", 1)),
                        List.of(), List.of(), List.of(), List.of(), List.of(file(50, "a0", "a9", 3000)),
                        List.of(file(60, "a0", "a9", 100_000))));
        assertThat(job.outputLevel()).isEqualTo(3);
    }

    @Test
    void theMostSaturatedLevelGoesFirstAndOnlyLevelsAtOrAboveTheirTarget() {
        String spec = "leveled:base-level-bytes=100,size-ratio=10";
        List<SSTableInfo> l3 = List.of(file(31, "a0", "a9", 1));
        assertThat(jobs(policy(spec), view(List.of(), List.of(file(11, "a0", "a9", 100)),
                List.of(file(21, "a0", "a9", 999)), l3))).as("L1 at exactly its target (score 1) compacts").hasSize(1);
        assertThat(jobs(policy(spec), view(List.of(), List.of(file(11, "a0", "a9", 99)),
                List.of(file(21, "a0", "a9", 999)), l3))).as("both below their targets").isEmpty();
        MergeJob l2 = onlyJob(policy(spec), view(List.of(), List.of(file(11, "a0", "a9", 90)),
                List.of(file(21, "a0", "a9", 1100)), l3));
        assertThat(ids(l2)).as("L2 scores 1.1, L1 0.9").containsExactly(21L, 31L);
        MergeJob l1 = onlyJob(policy(spec), view(List.of(), List.of(file(11, "a0", "a9", 150)),
                List.of(file(21, "a0", "a9", 1100)), l3));
        assertThat(ids(l1)).as("L1 scores 1.5, L2 1.1").containsExactly(11L, 21L);
    }

    @Test
    void bytesBeingCompactedDoNotCount() {
        String spec = "leveled:base-level-bytes=100,size-ratio=10";
        TreeView v = view(List.of(), List.of(busy(file(11, "a0", "a9", 60)), file(12, "b0", "b9", 90)),
                List.of(busy(file(21, "a0", "a9", 1))));
        assertThat(jobs(policy(spec), v)).as("90 idle bytes of 150 against 100").isEmpty();
        assertThat(LeveledCompaction.scores(tree(v), LevelTargets.of(tree(v), settings(spec)), settings(spec)))
                .startsWith(0.0, 0.9);
    }

    @Test
    void levelZeroScoresItsIdleFilesAgainstTheTriggerAndLagsAtTheStopTrigger() {
        MergePolicy p = policy("leveled:l0-trigger=2,l0-stop-trigger=3");
        TreeView two = view(List.of(file(2, "a", "b", 1), busy(file(1, "a", "b", 1))));
        assertThat(LeveledCompaction.scores(tree(two), LevelTargets.of(tree(two), settings("leveled:l0-trigger=2")),
                settings("leveled:l0-trigger=2"))[0]).isEqualTo(0.5);
        assertThat(p.isMergeLagging(two, p.initialState())).isFalse();
        TreeView three = view(List.of(file(3, "a", "b", 1), file(2, "a", "b", 1), busy(file(1, "a", "b", 1))));
        assertThat(p.isMergeLagging(three, p.initialState())).as("files being compacted count").isTrue();
        assertThat(policy("leveled").isMergeLagging(three, p.initialState())).as("default stop trigger 36").isFalse();
    }

    @Test
    void theStopTriggerMayNotBeBelowTheTrigger() {
        assertThatThrownBy(() -> policy("leveled:l0-trigger=8,l0-stop-trigger=4"))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessage("policy 'leveled': parameter 'l0-stop-trigger' = 4 is below parameter 'l0-trigger' = 8; "
                        + "accepted: l0-trigger <= l0-stop-trigger");
    }

    @Test
    void maxCompactionBytesZeroMeansTwentyFiveTargetFiles() {
        assertThat(settings("leveled:target-file-bytes=10").maxCompactionBytes()).isEqualTo(250);
        assertThat(settings("leveled").maxCompactionBytes()).isEqualTo(25L * 64 * 1024 * 1024);
        assertThat(settings("leveled:max-compaction-bytes=7").maxCompactionBytes()).isEqualTo(7);
    }

    @Test
    void aLevelPastNumLevelsOrAnOverlappingLevelIsReportedNamingThePolicy() {
        TreeView deep = sized(0, 0, 5);
        assertThatThrownBy(() -> policy("leveled:num-levels=3").decide(deep, CompactionState.EMPTY))
                .hasMessage("policy 'leveled': level 3 holds 1 SSTables, but the policy has num-levels = 3");
        TreeView twoRuns = new TreeView(List.of(new io.lsmpolicies.merge.spi.LevelView(0, List.of()),
                new io.lsmpolicies.merge.spi.LevelView(1, List.of(
                        io.lsmpolicies.merge.spi.SortedRun.of(file(1, "a", "c", 1)),
                        io.lsmpolicies.merge.spi.SortedRun.of(file(2, "b", "d", 1))))));
        assertThatThrownBy(() -> policy("leveled").decide(twoRuns, CompactionState.EMPTY))
                .hasMessage("policy 'leveled': level 1 is not one sorted run: SSTables 1 and 2 overlap");
    }

    @Test
    void settingsOfParametersAPolicyDoesNotDeclareTakeTheirDefaults() {
        PolicyParameters universal = policy("universal").parameters();
        assertThat(universal.has("base-level-bytes")).isFalse();
        assertThat(LeveledSettings.from(universal).baseLevelBytes()).isEqualTo(256L << 20);
    }
}
