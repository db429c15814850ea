package io.lsmpolicies.bench.grid;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The presets are published grids (the paper's, and the quick and AsterixDB ones), so their policy lists are
 * literal; they must agree with the policy registry: a preset's policies are registered stack policies that take
 * the {@code k} the grid gives them, and every Hyracks cell but AsterixDB's own {@code prefix} names a registered
 * stack policy other than {@code no-merge} (Hyracks' own runs that).
 */
class PresetPoliciesTest {
    private static final List<String> PRESETS = List.of("quick", "paper", "asterixdb");

    @Test
    void everyPresetPolicyIsARegisteredStackPolicyThatTakesK() {
        for (String name : PRESETS) {
            for (String policy : PolicyGrid.Preset.named(name).policies()) {
                assertThat(MergePolicies.names(PolicyLayout.STACK)).as("%s: %s", name, policy).contains(policy);
                assertThat(MergePolicies.factory(policy).parameters()).as("%s: %s", name, policy)
                        .anyMatch(p -> p.name().equals("k"));
            }
        }
    }

    @Test
    void everyCellOfEveryPresetParsesAndItsHyracksPoliciesAreOurStackPolicies() {
        List<String> hyracks = new ArrayList<>(MergePolicies.names(PolicyLayout.STACK));
        hyracks.remove("no-merge");
        for (String name : PRESETS) {
            for (Cell c : new PolicyGrid().cells(PolicyGrid.Preset.named(name))) {
                if (c.system() == GridSystem.HYRACKS && !c.policy().equals("prefix")) {
                    assertThat(hyracks).as("%s: %s", name, c).contains(PolicySpec.parse(c.policy()).name());
                }
            }
        }
    }
}
