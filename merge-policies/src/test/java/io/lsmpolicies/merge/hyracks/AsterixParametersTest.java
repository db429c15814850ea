package io.lsmpolicies.merge.hyracks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AsterixDB's parameter names and text values onto our policies' parameters, and the errors that name them. */
class AsterixParametersTest {

    @Test
    void eachFactoryAcceptsExactlyItsAsterixNamesInTheDocumentedOrder() {
        assertThat(new BinomialMergePolicyFactory().getPropertiesNames()).containsExactly("num-components");
        assertThat(new MinLatencyMergePolicyFactory().getPropertiesNames()).containsExactly("num-components");
        assertThat(new BigtableMergePolicyFactory().getPropertiesNames()).containsExactly("num-components");
        assertThat(new ConstantMergePolicyFactory().getPropertiesNames()).containsExactly("num-components");
        assertThat(new ExploringMergePolicyFactory().getPropertiesNames()).containsExactly("max-component-count",
                "size-ratio", "min-merge-component-count", "max-merge-component-count");
        assertThat(new TieredMergePolicyFactory().getPropertiesNames()).containsExactly("size-ratio");
        assertThat(new PrefixMergePolicyFactory().getPropertiesNames()).containsExactly(
                "max-mergable-component-size", "max-tolerance-component-count");
        for (StackMergePolicyFactory f : FactoryJsonTest.ALL) {
            assertThat(AsterixParameters.ASTERIX_NAMES).as(f.getName()).containsAll(f.getPropertiesNames());
        }
    }

    @Test
    void valuesReachOurParametersAsAsterixDbWritesThem() {
        assertThat(policy(new BinomialMergePolicyFactory(), "num-components", "4").parameters().getInt("k"))
                .isEqualTo(4);
        MergePolicy exploring = policy(new ExploringMergePolicyFactory(), "max-component-count", "6",
                "size-ratio", "1.5", "min-merge-component-count", "2", "max-merge-component-count", "8");
        assertThat(exploring.parameters().values()).containsExactly(Map.entry("k", 6), Map.entry("lambda", 1.5),
                Map.entry("min", 2), Map.entry("max", 8));
        // AsterixDB's DDL types size-ratio as a double and passes "4.0" on.
        assertThat(policy(new TieredMergePolicyFactory(), "size-ratio", "4.0").parameters().getInt("size-ratio"))
                .isEqualTo(4);
        assertThat(policy(new PrefixMergePolicyFactory(), "max-mergable-component-size", "1073741824",
                "max-tolerance-component-count", "5").parameters().getLong("max-mergable-component-size"))
                .isEqualTo(1L << 30);
    }

    @Test
    void omittedOptionalParametersTakeOurDefaults() {
        MergePolicy exploring = policy(new ExploringMergePolicyFactory(), "max-component-count", "6");
        assertThat(exploring.parameters().getDouble("lambda")).isEqualTo(1.2);
        assertThat(policy(new TieredMergePolicyFactory()).parameters().getInt("size-ratio")).isEqualTo(4);
    }

    @Test
    void anOutOfRangeValueIsAnErrorNamingTheAsterixParameterOursAndTheRange() {
        assertThatThrownBy(() -> policy(new BinomialMergePolicyFactory(), "num-components", "0"))
                .isInstanceOfSatisfying(PolicyConfigurationException.class, e -> {
                    assertThat(e.parameter()).isEqualTo("num-components");
                    assertThat(e.value()).isEqualTo("0");
                    assertThat(e.policy()).isEqualTo("binomial");
                })
                .hasMessageContaining("'num-components'").hasMessageContaining("our 'k'")
                .hasMessageContaining("integer in [1, 1000000]");
        assertThatThrownBy(() -> policy(new PrefixMergePolicyFactory(), "max-mergable-component-size", "-1",
                "max-tolerance-component-count", "5"))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessageContaining("'max-mergable-component-size'").hasMessageContaining("out of range");
    }

    @Test
    void aFractionForAnIntegerParameterIsAnErrorNamingIt() {
        assertThatThrownBy(() -> policy(new TieredMergePolicyFactory(), "size-ratio", "4.5"))
                .isInstanceOfSatisfying(PolicyConfigurationException.class,
                        e -> assertThat(e.parameter()).isEqualTo("size-ratio"))
                .hasMessageContaining("'4.5'").hasMessageContaining("not an integer");
    }

    @Test
    void anUnknownNameIsAnErrorNamingItAndListingTheAcceptedOnes() {
        assertThatThrownBy(() -> policy(new BinomialMergePolicyFactory(), "k", "4"))
                .isInstanceOfSatisfying(PolicyConfigurationException.class,
                        e -> assertThat(e.parameter()).isEqualTo("k"))
                .hasMessageContaining("has no parameter 'k'").hasMessageContaining("num-components (our 'k'");
        assertThatThrownBy(() -> policy(new ConstantMergePolicyFactory(), "num-components", "4", "size-ratio", "2"))
                .isInstanceOf(PolicyConfigurationException.class).hasMessageContaining("'size-ratio'");
    }

    @Test
    void aMissingRequiredParameterIsNamedByItsAsterixName() {
        assertThatThrownBy(() -> policy(new MinLatencyMergePolicyFactory()))
                .isInstanceOfSatisfying(PolicyConfigurationException.class,
                        e -> assertThat(e.parameter()).isEqualTo("num-components"))
                .hasMessageContaining("'num-components'");
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("num-components", null);
        assertThatThrownBy(() -> new BigtableMergePolicyFactory().createMergePolicy(nullValue, null))
                .isInstanceOf(PolicyConfigurationException.class).hasMessageContaining("'num-components'");
    }

    @Test
    void inconsistentValuesAreReportedUnderTheAsterixName() {
        assertThatThrownBy(() -> policy(new ExploringMergePolicyFactory(), "max-component-count", "4",
                "size-ratio", "1.2", "min-merge-component-count", "8", "max-merge-component-count", "5"))
                .isInstanceOfSatisfying(PolicyConfigurationException.class,
                        e -> assertThat(e.parameter()).isEqualTo("min-merge-component-count"))
                .hasMessageContaining("exceeds parameter 'max'");
    }

    @Test
    void aMappingMustUseAsterixNamesCoverEveryParameterAndNameAStackPolicy() {
        assertThatThrownBy(() -> AsterixParameters.of("binomial", "k", "k"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'k' is not an AsterixDB");
        assertThatThrownBy(() -> AsterixParameters.of("exploring", "max-component-count", "k"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs exactly one AsterixDB name");
        assertThatThrownBy(() -> AsterixParameters.of("binomial", "num-components", "lambda"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no parameter 'lambda'");
        assertThatThrownBy(() -> AsterixParameters.of("full-leveling"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a stack policy");
        assertThat(AsterixParameters.of("no-merge").create(null).name()).isEqualTo("no-merge");
    }

    private static MergePolicy policy(StackMergePolicyFactory factory, String... asterixNameValue) {
        Map<String, String> properties = new HashMap<>();
        for (int i = 0; i < asterixNameValue.length; i += 2) {
            properties.put(asterixNameValue[i], asterixNameValue[i + 1]);
        }
        return ((HyracksMergePolicy) factory.createMergePolicy(properties, null)).policy();
    }
}
