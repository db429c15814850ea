package io.lsmpolicies.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AsterixDB's parameter names are accepted wherever a policy is named. */
class AsterixNamesTest {
    @Test
    void constantTakesNumComponentsInEveryForm() {
        // Regression: "policy 'constant' has no parameter 'num-components'" although AsterixDB's DDL uses it.
        MergePolicy fromText = MergePolicies.parse("constant:num-components=4");
        MergePolicy fromMap = MergePolicies.create("constant", Map.of("num-components", 4));
        assertThat(fromText.parameters()).isEqualTo(MergePolicies.parse("constant:k=4").parameters());
        assertThat(fromMap.parameters()).isEqualTo(fromText.parameters());
        assertThat(MergePolicies.parse("exploring:max-component-count=8,size-ratio=1.5").parameters())
                .isEqualTo(MergePolicies.parse("exploring:k=8,lambda=1.5").parameters());
    }

    @Test
    void aParameterUnderBothNamesIsRefused() {
        assertThatThrownBy(() -> MergePolicies.create("binomial", Map.of("k", 4, "num-components", 5)))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessageContaining("give 'k' or its AsterixDB name 'num-components', not both");
    }

    @Test
    void anAliasOfAnotherPolicyIsStillUnknown() {
        assertThatThrownBy(() -> MergePolicies.parse("leveled:num-components=4"))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessageContaining("has no parameter 'num-components'");
    }

    @Test
    void everyAliasNamesAnAsterixParameterAndOneOfThePolicysOwn() {
        for (Map.Entry<String, PolicyFactory> f : MergePolicies.factories().entrySet()) {
            Map<String, String> aliases = AsterixNames.of(f.getKey());
            if (aliases.isEmpty()) {
                continue;
            }
            assertThat(f.getValue().layout()).as(f.getKey()).isEqualTo(PolicyLayout.STACK);
            assertThat(AsterixNames.ALL).as(f.getKey()).containsAll(aliases.keySet());
            assertThat(f.getValue().parameters().stream().map(p -> p.name()).toList()).as(f.getKey())
                    .containsExactlyInAnyOrderElementsOf(aliases.values());
        }
    }
}
