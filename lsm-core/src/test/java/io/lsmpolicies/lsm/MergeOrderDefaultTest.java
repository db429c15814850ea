package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The merge order a store runs: the default follows the policy's layout (a stack policy folds small merges into its
 * flushes, a leveled one flushes first), an order given is kept, and a merging order for a leveled policy is refused
 * where the options are built.
 */
class MergeOrderDefaultTest {

    @Test
    void theDefaultFollowsThePolicysLayout() {
        assertThat(StoreOptions.defaults().mergeOrder()).isEqualTo(MergeOrder.MERGE_MEMTABLE_SMALL);
        StoreOptions leveled = StoreOptions.builder().policy("leveled").build();
        assertThat(leveled.mergeOrder()).isEqualTo(MergeOrder.FLUSH_THEN_MERGE);
        // not given stays not given: the order follows a new policy
        assertThat(leveled.toBuilder().policy("tiered:size-ratio=4").build().mergeOrder())
                .isEqualTo(MergeOrder.MERGE_MEMTABLE_SMALL);
    }

    @Test
    void anOrderGivenIsKept() {
        StoreOptions given = StoreOptions.builder().policy("binomial:k=4").mergeOrder(MergeOrder.FLUSH_THEN_MERGE)
                .build();
        assertThat(given.mergeOrder()).isEqualTo(MergeOrder.FLUSH_THEN_MERGE);
        assertThat(given.toBuilder().policy("constant:k=3").build().mergeOrder())
                .isEqualTo(MergeOrder.FLUSH_THEN_MERGE);
        assertThat(given.toBuilder().policy("leveled").build().mergeOrder()).isEqualTo(MergeOrder.FLUSH_THEN_MERGE);
    }

    @Test
    void aMergingOrderForALeveledPolicyIsRefusedSayingWhatToUse() {
        for (MergeOrder order : new MergeOrder[] {MergeOrder.MERGE_MEMTABLE, MergeOrder.MERGE_MEMTABLE_SMALL}) {
            assertThatThrownBy(() -> StoreOptions.builder().policy("leveled").mergeOrder(order).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(order.name()).hasMessageContaining("policy leveled is a leveled policy")
                    .hasMessageContaining("use FLUSH_THEN_MERGE");
        }
    }
}
