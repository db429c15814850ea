package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledViews.policy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code delayed}'s parameters: its own three ({@code vct}, {@code vsmt}, {@code policy}) followed by the wrapped
 * policy's, validated in the one place values are checked, with errors naming {@code delayed} and the parameter.
 */
class DelayedParametersTest {

    private static List<String> names(List<ParameterSpec> specs) {
        return specs.stream().map(ParameterSpec::name).toList();
    }

    @Test
    void theFactoryIsRegisteredAsALeveledPolicyWithItsOwnParametersFirst() {
        PolicyFactory f = MergePolicies.factory("delayed");
        assertThat(f).isInstanceOf(DelayedPolicyFactory.class);
        assertThat(f.layout()).isEqualTo(PolicyLayout.LEVELED);
        List<String> expected = new ArrayList<>(List.of("vct", "vsmt", "policy"));
        expected.addAll(names(MergePolicies.factory("leveled").parameters()));
        assertThat(names(f.parameters())).as("the default wrapped policy's").isEqualTo(expected);
        List<String> universal = new ArrayList<>(List.of("vct", "vsmt", "policy"));
        universal.addAll(names(MergePolicies.factory("universal").parameters()));
        assertThat(names(f.parameters(Map.of("policy", "universal")))).isEqualTo(universal);
        assertThat(f.parameters().get(0)).isEqualTo(ParameterSpec.optionalInt("vct", 0, 1000, 12,
                f.parameters().get(0).description()));
        assertThat(f.parameters().get(1)).isEqualTo(ParameterSpec.optionalInt("vsmt", 1, 1000, 5,
                f.parameters().get(1).description()));
        assertThat(f.parameters().get(2).choices()).as("the leveled layouts but delayed itself")
                .containsExactly("composed", "full-leveling", "leveled", "one-leveling", "universal");
        assertThat(f.parameters().get(2).defaultValue()).isEqualTo("leveled");
    }

    @Test
    void theSpecSyntaxPassesEveryOtherParameterToTheWrappedPolicy() {
        DelayedPolicy p = (DelayedPolicy) MergePolicies.parse("delayed:vct=8,picker=round-robin");
        assertThat(p.name()).isEqualTo("delayed");
        assertThat(p.vct()).isEqualTo(8);
        assertThat(p.vsmt()).isEqualTo(5);
        assertThat(p.wrapped().name()).isEqualTo("leveled");
        assertThat(p.wrapped().parameters()).isEqualTo(policy("leveled:picker=round-robin").parameters());
        assertThat(((ComposedPolicy) p.wrapped()).strategy()).isEqualTo(CompactionStrategy.leveled(Movement.ROUND_ROBIN));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("vct", 8);
        expected.put("vsmt", 5);
        expected.put("policy", "leveled");
        expected.putAll(policy("leveled:picker=round-robin").parameters().values());
        assertThat(p.parameters().values()).containsExactlyEntriesOf(expected);
        assertThat(p.parameters().policy()).isEqualTo("delayed");

        DelayedPolicy defaults = (DelayedPolicy) MergePolicies.parse("delayed");
        assertThat(defaults.vct()).isEqualTo(12);
        assertThat(defaults.vsmt()).isEqualTo(5);
        assertThat(defaults.wrapped().parameters()).isEqualTo(policy("leveled").parameters());

        DelayedPolicy universal = (DelayedPolicy) MergePolicies.parse("delayed:policy=universal,min-merge-width=3,vsmt=3");
        assertThat(universal.wrapped().parameters()).isEqualTo(policy("universal:min-merge-width=3").parameters());
        assertThat(universal.vsmt()).isEqualTo(3);
    }

    @Test
    void parametersRoundTripThroughTheMapAndTextForms() {
        for (String spec : List.of("delayed:vct=8,picker=round-robin", "delayed", "delayed:vct=0,vsmt=1000",
                "delayed:policy=one-leveling,size-ratio=4,l0-trigger=2", "delayed:policy=composed,layout=one-leveling,"
                        + "movement=coldest", "delayed:policy=universal,max-size-amplification-percent=50")) {
            MergePolicy p = MergePolicies.parse(spec);
            MergePolicy fromMap = MergePolicies.create("delayed", p.parameters().values());
            assertThat(fromMap.parameters()).as(spec).isEqualTo(p.parameters());
            Map<String, String> text = new LinkedHashMap<>();
            p.parameters().values().forEach((k, v) -> text.put(k, v.toString()));
            String form = new PolicySpec("delayed", text).toString();
            assertThat(MergePolicies.parse(form).parameters()).as(form).isEqualTo(p.parameters());
            assertThat(((DelayedPolicy) fromMap).wrapped().parameters())
                    .isEqualTo(((DelayedPolicy) p).wrapped().parameters());
        }
    }

    @Test
    void anUnknownParameterNamesItAndListsWhatDelayedAcceptsForItsWrappedPolicy() {
        assertThatThrownBy(() -> MergePolicies.parse("delayed:bogus=1"))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessageStartingWith("policy 'delayed' has no parameter 'bogus'; its parameters are: vct (integer in "
                        + "[0, 1000], default 12), vsmt (integer in [1, 1000], default 5), policy (one of composed, "
                        + "full-leveling, leveled, one-leveling, universal, default leveled), size-ratio (")
                .hasMessageContaining("picker (one of round-robin,")
                .satisfies(e -> {
                    PolicyConfigurationException p = (PolicyConfigurationException) e;
                    assertThat(p.policy()).isEqualTo("delayed");
                    assertThat(p.parameter()).isEqualTo("bogus");
                    assertThat(p.value()).isEqualTo("1");
                });
        assertThatThrownBy(() -> MergePolicies.parse("delayed:policy=universal,picker=round-robin"))
                .as("universal has no picker")
                .hasMessageStartingWith("policy 'delayed' has no parameter 'picker'; its parameters are: vct (")
                .hasMessageContaining("size-ratio-percent (");
    }

    @Test
    void badValuesNameDelayedTheParameterAndTheAcceptedRange() {
        assertThatThrownBy(() -> MergePolicies.parse("delayed:vct=1001")).hasMessage(
                "policy 'delayed': parameter 'vct' = 1001 is out of range; accepted: integer in [0, 1000]");
        assertThatThrownBy(() -> MergePolicies.parse("delayed:vct=-1")).hasMessageContaining("'vct' = -1 is out of range");
        assertThatThrownBy(() -> MergePolicies.parse("delayed:vsmt=0")).hasMessage(
                "policy 'delayed': parameter 'vsmt' = 0 is out of range; accepted: integer in [1, 1000]");
        assertThatThrownBy(() -> MergePolicies.parse("delayed:vsmt=five")).hasMessageContaining("is not an integer");
        String choices = "accepted: one of composed, full-leveling, leveled, one-leveling, universal";
        assertThatThrownBy(() -> MergePolicies.parse("delayed:policy=delayed")).hasMessage("policy 'delayed': "
                + "parameter 'policy' = 'delayed' is not a known choice; " + choices);
        assertThatThrownBy(() -> MergePolicies.parse("delayed:policy=binomial")).as("a stack policy")
                .hasMessageEndingWith(choices);
        assertThatThrownBy(() -> MergePolicies.parse("delayed:policy=bogus,min-merge-width=3"))
                .as("the bad policy is reported, not the parameter it would have accepted")
                .hasMessageContaining("'policy' = 'bogus' is not a known choice");
        assertThatThrownBy(() -> MergePolicies.parse("delayed:picker=round_robin")).hasMessageStartingWith(
                "policy 'delayed': parameter 'picker' = 'round_robin' is not a known choice; accepted: one of round-robin,");
        assertThatThrownBy(() -> MergePolicies.parse("delayed:size-ratio=1"))
                .hasMessage("policy 'delayed': parameter 'size-ratio' = 1 is out of range; accepted: integer in [2, 1000]");
    }

    @Test
    void valuesTheWrappedPolicyRefusesTogetherAreReportedForDelayed() {
        assertThatThrownBy(() -> MergePolicies.parse("delayed:l0-trigger=8,l0-stop-trigger=4"))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessage("policy 'delayed' with policy=leveled: policy 'leveled': parameter 'l0-stop-trigger' = 4 is "
                        + "below parameter 'l0-trigger' = 8; accepted: l0-trigger <= l0-stop-trigger")
                .satisfies(e -> {
                    PolicyConfigurationException p = (PolicyConfigurationException) e;
                    assertThat(p.policy()).isEqualTo("delayed");
                    assertThat(p.parameter()).isEqualTo("l0-stop-trigger");
                    assertThat(p.value()).isEqualTo("4");
                });
        assertThatThrownBy(() -> MergePolicies.parse("delayed:policy=composed,layout=tiering"))
                .hasMessageStartingWith("policy 'delayed' with policy=composed: policy 'composed': granularity=file "
                        + "does not go with layout=tiering");
    }

    @Test
    void theStateIsTheWrappedPolicys() {
        MergePolicy p = MergePolicies.parse("delayed:picker=round-robin");
        assertThat(p.initialState()).isEqualTo(CompactionState.EMPTY);
        CompactionState s = CompactionState.EMPTY.withCursor(3, io.lsmpolicies.merge.spi.Key.of("k7"));
        assertThat(p.decodeState(s.encode())).isEqualTo(s);
        assertThatThrownBy(() -> p.decodeState(new byte[] {9})).isInstanceOf(IllegalArgumentException.class);
    }
}
