package io.lsmpolicies.merge.policy;

import static io.lsmpolicies.merge.TestPolicies.policy;
import static io.lsmpolicies.merge.Views.stack;
import static io.lsmpolicies.merge.Views.tables;
import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.Views;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Exploring on literal stacks (sizes oldest first; the last one is the flushed SSTable). */
class ExploringPolicyTest {
    private final MergePolicy exploring = policy("exploring", "k", 5);

    /** Decides for a view right after a flush. */
    private Decision decideAfterFlush(MergePolicy policy, TreeView view) {
        PolicyState state = policy.onFlush(policy.initialState(), view);
        return policy.decide(view, state);
    }

    private List<Long> chosen(MergePolicy policy, long... oldestFirst) {
        return Views.chosenAfterFlush(policy, stack(oldestFirst));
    }

    @Test
    void withAtMostKTheLongestCandidateWins() {
        // Ids 1..5. Windows of 3..5: [1..5] has max 100 > 1.2 * 4; [2..5] = 1,1,1,1 qualifies (length 4).
        assertThat(chosen(exploring, 100, 1, 1, 1, 1)).containsExactly(5L, 4L, 3L, 2L);
    }

    @Test
    void longestTieGoesToTheSmallerTotal() {
        // 50,3,3,3,500: every window holding 50 or 500 fails the lambda rule, so [2..4] is the only candidate.
        assertThat(chosen(exploring, 50, 3, 3, 3, 500)).containsExactly(4L, 3L, 2L);
        // Windows of at most 4 (max = 4), both length-4 windows qualify: the smaller total wins, old or new.
        MergePolicy max4 = policy("exploring", "k", 5, "max", 4);
        assertThat(chosen(max4, 5, 5, 5, 1, 9)).containsExactly(4L, 3L, 2L, 1L); // 16 < 20
        assertThat(chosen(max4, 9, 1, 5, 5, 5)).containsExactly(5L, 4L, 3L, 2L); // 20 > 16
    }

    @Test
    void longestAndTotalTieGoesToTheOlderStart() {
        // 4 SSTables (k = 5), all equal: length 4 covers everything; with max = 3 the windows [1..3] and
        // [2..4] tie on length and total: the older start [1..3] wins.
        MergePolicy narrow = policy("exploring", "k", 5, "max", 3);
        assertThat(chosen(narrow, 7, 7, 7, 7)).containsExactly(3L, 2L, 1L);
    }

    @Test
    void aboveKTheSmallestAverageWinsEvenIfItSkipsTheFlushedSSTable() {
        MergePolicy k3 = policy("exploring", "k", 3);
        // 4 SSTables > k = 3. Candidates of length 3: [1..3] = 10,10,10 (avg 10), [2..4] = 10,10,40 fails
        // (40 > 24). Length 4 fails. So [1..3], leaving the flushed SSTable (id 4) alone.
        assertThat(chosen(k3, 10, 10, 10, 40)).containsExactly(3L, 2L, 1L);
    }

    @Test
    void aboveKAverageTieGoesToTheOlderStartThenToFewerSSTables() {
        MergePolicy k3 = policy("exploring", "k", 3);
        // All equal, 5 SSTables > 3: every window has average 6; older start is id 1; among windows from
        // id 1 (lengths 3, 4, 5) the fewest SSTables: [1..3].
        assertThat(chosen(k3, 6, 6, 6, 6, 6)).containsExactly(3L, 2L, 1L);
    }

    @Test
    void withoutCandidateAboveKTheSmallestMinWindowIsMerged() {
        MergePolicy k3 = policy("exploring", "k", 3);
        // Sizes grow fast: no window qualifies. The 3 contiguous SSTables of smallest total are the newest.
        assertThat(chosen(k3, 1000, 100, 10, 1)).containsExactly(4L, 3L, 2L);
        // Tie on the total: the older window.
        assertThat(chosen(k3, 1, 10, 100, 1000, 1, 10, 100).size()).isEqualTo(3);
        assertThat(chosen(k3, 100, 1, 10, 1000, 100, 1, 10)).containsExactly(3L, 2L, 1L);
    }

    @Test
    void withoutCandidateAtOrBelowKNothingIsMergedAndTheFlushIsDecided() {
        TreeView view = stack(1000, 100, 10);
        Decision d = decideAfterFlush(exploring, view);
        assertThat(d.jobs()).isEmpty();
        assertThat(d.state()).isEqualTo(new FlushCount(1, 1));
    }

    @Test
    void decidesOncePerFlush() {
        // After a flush: [1,1,1,1] (k = 5) -> merge all four. Asked again on a view that still has a candidate
        // (as if another window qualified), it does nothing until the next flush.
        TreeView view = stack(1, 1, 1, 1);
        PolicyState afterFlush = exploring.onFlush(exploring.initialState(), view);
        Decision first = exploring.decide(view, afterFlush);
        assertThat(first.jobs()).hasSize(1);
        assertThat(exploring.decide(view, first.state()).jobs()).isEmpty();
        PolicyState nextFlush = exploring.onFlush(first.state(), view);
        assertThat(exploring.decide(view, nextFlush).jobs()).hasSize(1);
    }

    @Test
    void decidesAgainWhileStillAboveK() {
        MergePolicy k2 = policy("exploring", "k", 2, "min", 2, "max", 2);
        // 4 SSTables > 2, windows of exactly 2: one merge leaves 3 > 2, so the policy is asked again and merges.
        TreeView view = stack(8, 4, 2, 1);
        Decision first = decideAfterFlush(k2, view);
        assertThat(first.jobs()).hasSize(1);
        TreeView after = stack(8, 4, 3);
        assertThat(k2.decide(after, first.state()).jobs()).hasSize(1);
    }

    @Test
    void waitsWhileAMergeRunsWithoutSpendingTheFlushDecision() {
        var t = tables(1, 1, 1, 1);
        TreeView busy = Views.compacting(t, 1, 2);
        PolicyState afterFlush = exploring.onFlush(exploring.initialState(), busy);
        Decision d = exploring.decide(busy, afterFlush);
        assertThat(d.jobs()).isEmpty();
        assertThat(d.state()).isEqualTo(afterFlush);
    }

    @Test
    void lambdaBoundIsInclusive() {
        // 12 <= 1.2 * (5 + 5) exactly.
        assertThat(chosen(exploring, 5, 5, 12)).containsExactly(3L, 2L, 1L);
        assertThat(chosen(exploring, 5, 5, 13)).isEmpty();
    }

    @Test
    void lagsOnlyAboveK() {
        assertThat(exploring.isMergeLagging(stack(1, 1, 1, 1, 1), FlushCount.ZERO)).isFalse();
        assertThat(exploring.isMergeLagging(stack(1, 1, 1, 1, 1, 1), FlushCount.ZERO)).isTrue();
    }
}
