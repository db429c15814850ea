package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledViews.policy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The four primitives: presets are compositions, and meaningless compositions are refused with the reason. */
class CompositionTest {

    static CompactionStrategy strategy(String spec) {
        return ((ComposedPolicy) policy(spec)).strategy();
    }

    @Test
    void theNamedStrategiesArePresetsOfTheComposition() {
        assertThat(strategy("leveled")).isEqualTo(strategy("composed"))
                .isEqualTo(new CompactionStrategy(Trigger.SATURATION, DataLayout.LEVELING, Granularity.FILE,
                        Movement.MIN_OVERLAPPING_RATIO));
        assertThat(strategy("leveled:picker=round-robin"))
                .isEqualTo(strategy("composed:movement=round-robin"));
        assertThat(strategy("leveled:picker=tombstone-density")).as("TSD: its trigger comes with its picker")
                .isEqualTo(strategy("composed:trigger=tombstone-density,movement=tombstone-density"));
        assertThat(strategy("leveled:picker=tombstone-age"))
                .isEqualTo(strategy("composed:trigger=tombstone-age,movement=tombstone-age"));
        assertThat(strategy("full-leveling")).isEqualTo(CompactionStrategy.FULL_LEVELING)
                .isEqualTo(strategy("composed:granularity=level,movement=none"));
        assertThat(strategy("one-leveling")).isEqualTo(CompactionStrategy.ONE_LEVELING)
                .isEqualTo(strategy("composed:layout=one-leveling"));
        assertThat(strategy("universal")).isEqualTo(CompactionStrategy.UNIVERSAL)
                .isEqualTo(strategy("composed:trigger=sorted-runs,layout=tiering,granularity=sorted-runs,movement=none"));
        assertThat(CompactionStrategy.ONE_LEVELING.toString())
                .isEqualTo("trigger=saturation,layout=one-leveling,granularity=file,movement=min-overlapping-ratio");
    }

    @Test
    void aComposedStrategyDecidesAsItsPresetDoes() {
        var v = FilePickersTest.sevenFiles();
        assertThat(LeveledViews.jobs(policy("composed:movement=coldest," + FilePickersTest.SETTINGS.substring("leveled:".length())), v))
                .isEqualTo(LeveledViews.jobs(policy(FilePickersTest.SETTINGS + ",picker=coldest"), v));
    }

    @Test
    void everyLeveledFamilyFactoryIsOfTheLeveledLayout() {
        for (String name : new String[] {"leveled", "full-leveling", "one-leveling", "universal", "composed"}) {
            assertThat(MergePolicies.factory(name).layout()).as(name).isEqualTo(PolicyLayout.LEVELED);
            assertThat(policy(name).initialState()).isEqualTo(CompactionState.EMPTY);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "layout=tiering | granularity | file | granularity=file does not go with layout=tiering: a tiered layout "
                + "merges whole sorted runs, so granularity must be sorted-runs",
        "layout=tiering,granularity=sorted-runs | movement | min-overlapping-ratio | movement=min-overlapping-ratio "
                + "does not go with layout=tiering: whole sorted runs merge, there is no file to pick, so movement must "
                + "be none",
        "layout=tiering,granularity=sorted-runs,movement=none | trigger | saturation | trigger=saturation does not "
                + "go with layout=tiering: a tiered tree is compacted by its run count and space amplification, so "
                + "trigger must be sorted-runs",
        "trigger=sorted-runs | trigger | sorted-runs | trigger=sorted-runs needs layout=tiering; layout=leveling "
                + "counts level-0 files with l0-trigger under trigger=saturation",
        "granularity=sorted-runs | granularity | sorted-runs | granularity=sorted-runs needs layout=tiering: with "
                + "layout=leveling every level below 0 is one sorted run (one-leveling already merges level 0's runs "
                + "all at once)",
        "granularity=level | movement | min-overlapping-ratio | movement=min-overlapping-ratio does not go with "
                + "granularity=level: a whole level moves, there is no file to pick, so movement must be none",
        "granularity=level,movement=none,trigger=tombstone-age | trigger | tombstone-age | trigger=tombstone-age "
                + "names a file to compact, which needs granularity=file; granularity=level goes with "
                + "trigger=saturation",
        "granularity=level,movement=none,layout=one-leveling | layout | one-leveling | layout=one-leveling with "
                + "granularity=level would merge level 0 whole into a whole base level, which is full leveling: use "
                + "layout=leveling",
        "movement=none | movement | none | granularity=file needs a file picker: movement=none picks no file "
                + "(choose e.g. min-overlapping-ratio)",
    })
    void invalidCombinationsAreRejectedAtCreationWithTheReason(String params, String parameter, String value,
            String reason) {
        assertThatThrownBy(() -> policy("composed:" + params))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessage("policy 'composed': " + reason)
                .satisfies(e -> {
                    PolicyConfigurationException p = (PolicyConfigurationException) e;
                    assertThat(p.policy()).isEqualTo("composed");
                    assertThat(p.parameter()).isEqualTo(parameter);
                    assertThat(p.value()).isEqualTo(value);
                });
    }

    @Test
    void theRecordRefusesAnInvalidCombinationToo() {
        assertThatThrownBy(() -> new CompactionStrategy(Trigger.SATURATION, DataLayout.TIERING, Granularity.FILE,
                Movement.NONE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("granularity=file does not go with layout=tiering");
        assertThatThrownBy(() -> new CompactionStrategy(null, DataLayout.TIERING, Granularity.FILE, Movement.NONE))
                .hasMessageContaining("required");
    }

    @Test
    void unknownPrimitiveNamesListTheChoices() {
        assertThatThrownBy(() -> policy("composed:layout=tiered"))
                .hasMessage("policy 'composed': parameter 'layout' = 'tiered' is not a known choice; accepted: one of "
                        + "leveling, one-leveling, tiering");
        assertThatThrownBy(() -> policy("composed:trigger=ttl"))
                .hasMessageContaining("accepted: one of saturation, tombstone-density, tombstone-age, sorted-runs");
        assertThatThrownBy(() -> policy("composed:granularity=files"))
                .hasMessageContaining("accepted: one of level, sorted-runs, file");
        assertThatThrownBy(() -> policy("composed:movement=random"))
                .hasMessageContaining("accepted: one of none, round-robin, min-overlapping-ratio,");
    }
}
