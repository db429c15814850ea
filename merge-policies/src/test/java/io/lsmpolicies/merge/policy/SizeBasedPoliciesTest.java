package io.lsmpolicies.merge.policy;

import static io.lsmpolicies.merge.TestPolicies.policy;
import static io.lsmpolicies.merge.Views.stack;
import static io.lsmpolicies.merge.Views.tables;
import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.Views;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Constant, Bigtable, Prefix, Tiered and no-merge on literal stacks (sizes oldest first). */
class SizeBasedPoliciesTest {

    private static List<Long> chosen(MergePolicy policy, TreeView view) {
        return Views.chosenAfterFlush(policy, view);
    }

    private static List<Long> chosen(MergePolicy policy, long... sizes) {
        return chosen(policy, stack(sizes));
    }

    @Test
    void constantAddsUpToKThenMergesEverything() {
        MergePolicy constant = policy("constant", "k", 3);
        assertThat(chosen(constant, 5, 1, 1)).isEmpty();
        assertThat(chosen(constant, 5, 1, 1, 1)).containsExactly(4L, 3L, 2L, 1L);
        assertThat(constant.isMergeLagging(stack(5, 1, 1), constant.initialState())).isFalse();
        assertThat(constant.isMergeLagging(stack(5, 1, 1, 1), constant.initialState())).isTrue();
    }

    @Test
    void bigtableMergesTheFewestNewestThatRestoreTheSizeOrder() {
        MergePolicy bigtable = policy("bigtable", "k", 3);
        assertThat(chosen(bigtable, 8, 4, 2)).isEmpty();
        // Merging the flush (1) with 2 gives [8,4,3]: 8 > 4+3 and 4 > 3.
        assertThat(chosen(bigtable, 8, 4, 2, 1)).containsExactly(4L, 3L);
        // [5,5,1,1]: flush with one newest gives [5,5,2]: 5 is not > 5+2, so everything merges.
        assertThat(chosen(bigtable, 5, 5, 1, 1)).containsExactly(4L, 3L, 2L, 1L);
        // Equal sizes are not "larger": [9,3,3] + 3 -> merging two gives [9,3,6]: 3 not > 6; three gives [9,9].
        assertThat(chosen(bigtable, 9, 3, 3, 3)).containsExactly(4L, 3L, 2L, 1L);
        assertThat(chosen(bigtable, 10, 3, 3, 3)).containsExactly(4L, 3L, 2L);
    }

    @Test
    void prefixMergesATolerantTailOfSmallComponents() {
        MergePolicy prefix = policy("prefix", "max-mergable-component-size", 1000, "max-tolerance-component-count", 3);
        assertThat(chosen(prefix, 10, 10)).isEmpty();
        assertThat(chosen(prefix, 10, 10, 10)).containsExactly(3L, 2L, 1L);
    }

    @Test
    void prefixMergesAWindowOnceItsSizeExceedsTheMaximum() {
        MergePolicy prefix = policy("prefix", "max-mergable-component-size", 100, "max-tolerance-component-count", 5);
        assertThat(chosen(prefix, 50, 60)).containsExactly(2L, 1L);
        // The start guard: 60 < 1.2 * 50 fails (strict), and no other start has enough components.
        assertThat(chosen(prefix, 60, 50)).isEmpty();
    }

    @Test
    void prefixNeverMergesComponentsAboveTheMaximumAgain() {
        MergePolicy prefix = policy("prefix", "max-mergable-component-size", 100, "max-tolerance-component-count", 3);
        assertThat(chosen(prefix, 500, 10, 10, 10)).containsExactly(4L, 3L, 2L);
        assertThat(chosen(prefix, 10, 500, 10, 10)).isEmpty();
    }

    @Test
    void prefixSkipsAStartComponentTooLargeForTheRest() {
        MergePolicy prefix = policy("prefix", "max-mergable-component-size", 1000, "max-tolerance-component-count", 3);
        assertThat(chosen(prefix, 100, 10, 10, 10)).containsExactly(4L, 3L, 2L);
    }

    @Test
    void prefixKeepsAsterixDbsEarlyCutOffOfTheGuardSearch() {
        // AsterixDB abandons the start 300 after seeing the 5 (300 >= 1.2 * (5 + 5 * 3)), although the whole
        // window would pass the guard (300 < 1.2 * 289). Faithful to AsterixDB, nothing is merged.
        MergePolicy prefix = policy("prefix");
        assertThat(chosen(prefix, 300, 5, 90, 95, 99)).isEmpty();
        assertThat(chosen(prefix, 300, 90, 95, 99, 5)).containsExactly(5L, 4L, 3L, 2L, 1L);
    }

    @Test
    void prefixLagsWhenAMergeRunsAndEnoughMergeableComponentsWait() {
        MergePolicy prefix = policy("prefix", "max-mergable-component-size", 1000, "max-tolerance-component-count", 3);
        List<SSTableInfo> five = tables(100, 10, 10, 10, 10);
        assertThat(prefix.isMergeLagging(Views.compacting(five, 1, 2), prefix.initialState())).isTrue();
        assertThat(prefix.isMergeLagging(Views.compacting(five, 1, 2, 3), prefix.initialState())).isFalse();
        assertThat(prefix.isMergeLagging(stack(five), prefix.initialState())).isFalse();
        assertThat(chosen(prefix, Views.compacting(five, 1, 2))).isEmpty();
    }

    /** A stack of SSTables spanning the given numbers of flushes, oldest first, sized by their spans. */
    private static TreeView spans(long... spansOldestFirst) {
        List<SSTableInfo> out = new ArrayList<>();
        long flush = 1;
        for (int i = 0; i < spansOldestFirst.length; i++) {
            long span = spansOldestFirst[i];
            out.add(SSTableInfo.builder(i + 1).bytes(span).flushes(flush, flush + span - 1).build());
            flush += span;
        }
        return stack(out);
    }

    @Test
    void tieredMergesTheNewestFullTier() {
        MergePolicy tiered = policy("tiered", "size-ratio", 3);
        assertThat(chosen(tiered, spans(9, 3, 3, 1, 1))).isEmpty();
        assertThat(chosen(tiered, spans(9, 3, 3, 1, 1, 1))).containsExactly(6L, 5L, 4L);
        assertThat(chosen(tiered, spans(9, 3, 3, 3, 1))).containsExactly(4L, 3L, 2L);
        // An over-full tier (as after a restart with another ratio) merges its B oldest members first.
        assertThat(chosen(tiered, spans(1, 1, 1, 1))).containsExactly(3L, 2L, 1L);
        assertThat(tiered.isMergeLagging(spans(1, 1, 1, 1), tiered.initialState())).isFalse();
    }

    @Test
    void tiersAreCountedInFlushes() {
        TieredPolicy tiered = (TieredPolicy) policy("tiered", "size-ratio", 4);
        assertThat(List.of(tiered.tier(1), tiered.tier(3), tiered.tier(4), tiered.tier(15), tiered.tier(16),
                tiered.tier(Long.MAX_VALUE))).containsExactly(0, 0, 1, 1, 2, 31);
    }

    @Test
    void noMergeNeverMerges() {
        MergePolicy none = policy("no-merge");
        assertThat(chosen(none, 1, 1, 1, 1, 1, 1, 1, 1)).isEmpty();
        assertThat(none.isMergeLagging(stack(1, 1, 1), none.initialState())).isFalse();
    }

    @Test
    void stackPoliciesWaitWhileAnyMergeRuns() {
        List<SSTableInfo> t = tables(1, 1, 1, 1, 1);
        TreeView busy = Views.compacting(t, 1);
        for (MergePolicy p : List.of(policy("constant", "k", 2), policy("bigtable", "k", 2),
                policy("tiered", "size-ratio", 2), policy("minlatency", "k", 2), policy("binomial", "k", 2))) {
            assertThat(chosen(p, busy)).as(p.name()).isEmpty();
        }
    }
}
