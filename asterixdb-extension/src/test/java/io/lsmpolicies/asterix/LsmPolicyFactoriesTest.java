package io.lsmpolicies.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.hyracks.StackMergePolicyFactory;
import org.junit.jupiter.api.Test;

/**
 * The names and type ids AsterixDB files our factories under. That the list holds every factory of merge-policies
 * and a factory for every registered stack policy but no-merge is checked there (HyracksFactoriesTest).
 */
class LsmPolicyFactoriesTest {

    @Test
    void namesAreOurPrefixedPolicyNamesAndIdsAreUnique() {
        for (Class<? extends StackMergePolicyFactory> f : LsmPolicyFactories.ALL) {
            assertThat(LsmPolicyFactories.policyName(f)).isEqualTo(StackMergePolicyFactory.NAME_PREFIX
                    + LsmPolicyFactories.instantiate(f).asterixParameters().policy());
        }
        assertThat(LsmPolicyFactories.ALL).extracting(LsmPolicyFactories::policyName).doesNotHaveDuplicates();
        assertThat(LsmPolicyFactories.ALL).extracting(LsmPolicyFactories::registryId).doesNotHaveDuplicates()
                .allMatch(id -> id.startsWith("lsmpolicies."));
    }
}
