package io.lsmpolicies.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Creating policies by name: discovery, defaults, and the errors users see. */
class MergePoliciesTest {

    @Test
    void everyPolicyIsDiscoveredByItsStableName() {
        assertThat(MergePolicies.names()).containsExactly("adaptive", "bigtable", "binomial", "composed", "constant", "delayed",
                "exploring", "full-leveling", "leveled", "minlatency", "no-merge", "one-leveling", "prefix", "tiered",
                "universal");
        for (PolicyFactory f : MergePolicies.factories().values()) {
            assertThat(f.name()).matches("[a-z]+(-[a-z]+)*");
            assertThat(f.description()).isNotBlank();
            for (ParameterSpec p : f.parameters()) {
                assertThat(p.name()).matches("[a-z0-9]+(-[a-z0-9]+)*");
            }
        }
    }

    @Test
    void layoutsSeparateStackPoliciesFromLeveledOnes() {
        assertThat(MergePolicies.names(PolicyLayout.STACK)).containsExactly("adaptive", "bigtable", "binomial", "constant",
                "exploring", "minlatency", "no-merge", "prefix", "tiered");
        assertThat(MergePolicies.names(PolicyLayout.LEVELED)).containsExactly("composed", "delayed", "full-leveling",
                "leveled", "one-leveling", "universal");
    }

    @Test
    void choiceParametersTakeANameAndTheirDefault() {
        MergePolicy rr = MergePolicies.parse("leveled:picker=round-robin,size-ratio=10");
        assertThat(rr.parameters().getChoice("picker")).isEqualTo("round-robin");
        assertThat(rr.parameters().getInt("size-ratio")).isEqualTo(10);
        assertThat(rr.parameters().toString()).contains("picker=round-robin");
        assertThat(MergePolicies.create("leveled", Map.of()).parameters().values()).contains(
                Map.entry("picker", "min-overlapping-ratio"), Map.entry("level-targets", "static"),
                Map.entry("base-level-bytes", 268435456L), Map.entry("max-compaction-bytes", 0L));
        assertThat(MergePolicies.parse(" leveled : picker = coldest ").parameters().getChoice("picker"))
                .isEqualTo("coldest");
    }

    @Test
    void badChoicesNameThePolicyParameterValueAndTheChoices() {
        assertThatThrownBy(() -> MergePolicies.parse("leveled:picker=round_robin"))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessage("policy 'leveled': parameter 'picker' = 'round_robin' is not a known choice; accepted: "
                        + "one of round-robin, min-overlapping-ratio, refined-mor, oldest-largest-seq-first, "
                        + "oldest-smallest-seq-first, least-overlap-grandparent, coldest, oldest, tombstone-density, "
                        + "tombstone-age")
                .satisfies(e -> {
                    PolicyConfigurationException p = (PolicyConfigurationException) e;
                    assertThat(p.policy()).isEqualTo("leveled");
                    assertThat(p.parameter()).isEqualTo("picker");
                    assertThat(p.value()).isEqualTo("round_robin");
                });
        assertThatThrownBy(() -> MergePolicies.create("leveled", Map.of("level-targets", 1)))
                .hasMessage("policy 'leveled': parameter 'level-targets' = '1' is not a known choice; accepted: "
                        + "one of static, dynamic");
        assertThatThrownBy(() -> MergePolicies.parse("leveled:picker=Round-Robin"))
                .hasMessageContaining("'Round-Robin' is not a known choice");
        assertThatThrownBy(() -> MergePolicies.parse("leveled:picker="))
                .hasMessageContaining("parameter 'picker' = '' is not a known choice");
        assertThatThrownBy(() -> MergePolicies.parse("leveled:size-ratio=round-robin"))
                .hasMessageContaining("'size-ratio' = 'round-robin' is not an integer; accepted: integer in [2, 1000]");
        assertThatThrownBy(() -> MergePolicies.parse("leveled:pickr=coldest"))
                .hasMessageContaining("policy 'leveled' has no parameter 'pickr'")
                .hasMessageContaining("picker (one of round-robin, min-overlapping-ratio,")
                .hasMessageContaining(", default min-overlapping-ratio)");
    }

    @Test
    void choiceSpecsAreValidatedWhenDeclared() {
        assertThatThrownBy(() -> ParameterSpec.optionalChoice("p", java.util.List.of("a", "a"), "a", "x"))
                .hasMessageContaining("distinct names");
        assertThatThrownBy(() -> ParameterSpec.optionalChoice("p", java.util.List.of("a", "b"), "c", "x"))
                .hasMessageContaining("default c is not one of [a, b]");
        assertThatThrownBy(() -> ParameterSpec.optionalChoice("p", java.util.List.of("A"), "A", "x"))
                .hasMessageContaining("choice 'A' is not kebab-case");
        ParameterSpec p = ParameterSpec.optionalChoice("p", java.util.List.of("a", "b"), "b", "x");
        assertThat(p.accepts("a")).isTrue();
        assertThat(p.accepts("c")).isFalse();
        assertThat(p.accepts(1)).isFalse();
        assertThat(p.accepted()).isEqualTo("one of a, b");
        assertThat(ParameterSpec.optionalInt("k", 1, 9, 2, "x").accepts("2")).isFalse();
    }

    @Test
    void parametersTakeTheirDocumentedDefaults() {
        assertThat(MergePolicies.create("exploring", Map.of("k", 5)).parameters().values())
                .containsExactly(Map.entry("k", 5), Map.entry("lambda", 1.2), Map.entry("min", 3),
                        Map.entry("max", 10));
        assertThat(MergePolicies.create("prefix", Map.of()).parameters().values()).containsExactly(
                Map.entry("max-mergable-component-size", 1073741824L), Map.entry("max-tolerance-component-count", 5));
        assertThat(MergePolicies.create("tiered", Map.of()).parameters().getInt("size-ratio")).isEqualTo(4);
    }

    @Test
    void textFormAndMapFormAgree() {
        MergePolicy a = MergePolicies.parse(" exploring : k=6, lambda=1.5 ");
        MergePolicy b = MergePolicies.create("exploring", Map.of("k", "6", "lambda", 1.5));
        assertThat(a.parameters()).isEqualTo(b.parameters());
        assertThat(PolicySpec.parse("binomial:k=4").toString()).isEqualTo("binomial:k=4");
    }

    @Test
    void unknownPolicyListsTheKnownOnes() {
        assertThatThrownBy(() -> MergePolicies.create("binomal", Map.of("k", 4)))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessage("unknown merge policy 'binomal'; known policies: adaptive, bigtable, binomial, composed, "
                        + "constant, "
                        + "delayed, exploring, full-leveling, leveled, minlatency, no-merge, one-leveling, prefix, "
                        + "tiered, universal");
    }

    @Test
    void unknownParameterListsTheAcceptedOnes() {
        assertThatThrownBy(() -> MergePolicies.create("binomial", Map.of("k", 4, "size-ratio", 3)))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessage("policy 'binomial' has no parameter 'size-ratio'; its parameters are: "
                        + "k (integer in [1, 1000000], required)")
                .satisfies(e -> {
                    PolicyConfigurationException p = (PolicyConfigurationException) e;
                    assertThat(p.policy()).isEqualTo("binomial");
                    assertThat(p.parameter()).isEqualTo("size-ratio");
                    assertThat(p.value()).isEqualTo("3");
                });
    }

    @Test
    void missingRequiredParameterSaysWhatIsAccepted() {
        assertThatThrownBy(() -> MergePolicies.create("minlatency", Map.of()))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessageStartingWith("policy 'minlatency' needs parameter 'k' (integer in [1, 1000000])");
    }

    @Test
    void outOfRangeAndMalformedValuesNameTheValueAndRange() {
        assertThatThrownBy(() -> MergePolicies.create("binomial", Map.of("k", 0)))
                .hasMessage("policy 'binomial': parameter 'k' = 0 is out of range; accepted: integer in [1, 1000000]");
        assertThatThrownBy(() -> MergePolicies.create("binomial", Map.of("k", "99999999999999999999")))
                .hasMessageContaining("= 99999999999999999999 is out of range");
        assertThatThrownBy(() -> MergePolicies.create("binomial", Map.of("k", "four")))
                .hasMessage("policy 'binomial': parameter 'k' = 'four' is not an integer; accepted: "
                        + "integer in [1, 1000000]");
        assertThatThrownBy(() -> MergePolicies.create("binomial", Map.of("k", 2.5)))
                .hasMessageContaining("'2.5' is not an integer");
        assertThatThrownBy(() -> MergePolicies.create("exploring", Map.of("k", 3, "lambda", "NaN")))
                .hasMessageContaining("parameter 'lambda' = 'NaN' is not a finite number");
        assertThatThrownBy(() -> MergePolicies.create("exploring", Map.of("k", 3, "lambda", -1)))
                .hasMessageContaining("parameter 'lambda' = -1 is out of range; accepted: number in [0.0, 1.0E9]");
        assertThatThrownBy(() -> MergePolicies.create("tiered", Map.of("size-ratio", 1)))
                .hasMessageContaining("'size-ratio' = 1 is out of range; accepted: integer in [2, 1000000]");
        assertThatThrownBy(() -> MergePolicies.create("prefix", Map.of("max-mergable-component-size", 0)))
                .hasMessageContaining("'max-mergable-component-size' = 0 is out of range");
    }

    @Test
    void inconsistentValuesNameBothParameters() {
        assertThatThrownBy(() -> MergePolicies.create("exploring", Map.of("k", 3, "min", 8, "max", 4)))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessage("policy 'exploring': parameter 'min' = 8 exceeds parameter 'max' = 4; accepted: min <= max");
    }

    @Test
    void malformedTextFormIsReported() {
        assertThatThrownBy(() -> MergePolicies.parse("binomial:k")).isInstanceOf(PolicyConfigurationException.class)
                .hasMessageContaining("expected param=value, got 'k'");
        assertThatThrownBy(() -> MergePolicies.parse("binomial:k=4,k=5"))
                .hasMessageContaining("parameter 'k' given twice");
        assertThatThrownBy(() -> MergePolicies.parse(":k=4")).hasMessageContaining("a policy name is required");
    }

    @Test
    void aPolicysFullSpecRecreatesItWithEveryParameter() {
        java.util.List<String> specs = new java.util.ArrayList<>();
        for (String name : MergePolicies.names()) { // defaults, with k where the policy requires it
            boolean needsK = MergePolicies.factory(name).parameters().stream().anyMatch(ParameterSpec::required);
            specs.add(needsK ? name + ":k=4" : name);
        }
        specs.addAll(java.util.List.of("binomial:k=4", "exploring:k=5,lambda=1.5", "leveled:picker=round-robin",
                "delayed:policy=universal,min-merge-width=3,vsmt=3", "delayed:vct=8,picker=round-robin",
                "tiered:size-ratio=8"));
        for (String text : specs) {
            MergePolicy policy = MergePolicies.parse(text);
            PolicySpec full = PolicySpec.of(policy);
            assertThat(full.parameters().keySet()).as(text).containsAll(policy.parameters().values().keySet().stream()
                    .filter(k -> policy.parameters().values().get(k) != null).toList());
            MergePolicy again = MergePolicies.parse(full.toString());
            assertThat(again.name()).as(text).isEqualTo(policy.name());
            assertThat(again.parameters()).as(text).isEqualTo(policy.parameters());
            assertThat(PolicySpec.of(again)).as(text).isEqualTo(full);
        }
        assertThat(PolicySpec.of(MergePolicies.parse("binomial:k=4")).toString()).isEqualTo("binomial:k=4");
    }
}
