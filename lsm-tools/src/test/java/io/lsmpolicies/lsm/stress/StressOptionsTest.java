package io.lsmpolicies.lsm.stress;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The stress run's policy list is literal (a chosen mix of layouts); it must agree with the policy registry. */
class StressOptionsTest {

    @Test
    void everyPolicyOfTheListIsRegisteredAndValidAtEveryK() {
        for (String template : StressOptions.POLICIES) {
            for (int k = 2; k <= 6; k++) {
                String policy = StressOptions.policy(template, k);
                assertThat(MergePolicies.names()).as(policy).contains(PolicySpec.parse(policy).name());
                assertThat(StoreOptions.builder().policy(policy).build().policy().name()).as(policy)
                        .isEqualTo(PolicySpec.parse(policy).name());
            }
        }
    }

    @Test
    void theSeedsDrawEveryPolicyOfTheList() {
        Set<String> drawn = new HashSet<>();
        for (long seed = 0; seed < 200; seed++) {
            drawn.add(StressOptions.of(seed).options().policy().name());
        }
        assertThat(drawn).containsExactlyInAnyOrderElementsOf(StressOptions.POLICIES.stream()
                .map(t -> PolicySpec.parse(StressOptions.policy(t, 2)).name()).toList());
    }
}
