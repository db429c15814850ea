package io.lsmpolicies.merge.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The goals of the family table read off literal rows. */
class FamilyGoalsTest {
    private static final List<TraceFamily> FAMILIES = TraceFamily.standard();
    private static final List<String> STATICS = List.of("a", "b", "c");

    private static FamilyEvaluation.Row row(int family, double tested, double a, double b, double c) {
        Map<String, Double> ratios = new LinkedHashMap<>();
        ratios.put("t", tested);
        ratios.put("a", a);
        ratios.put("b", b);
        ratios.put("c", c);
        return new FamilyEvaluation.Row(FAMILIES.get(family), 1e6, ratios);
    }

    @Test
    void readsTheWorstRatioTheMissesAndTheRobustStatics() {
        FamilyGoals goals = FamilyGoals.of(List.of(
                row(0, 1.00, 1.00, 3.00, 1.50),
                row(1, 1.25, 1.10, 1.20, 1.90), // 13.6% above a
                row(2, 1.10, 2.50, 1.06, 1.20)), // 3.8% above b: no miss
                "t", STATICS);
        assertThat(goals.worst()).isEqualTo(1.25);
        assertThat(goals.worstFamily()).isEqualTo(FAMILIES.get(1).name());
        assertThat(goals.worstMet()).isTrue();
        assertThat(goals.misses()).hasSize(1);
        assertThat(goals.misses().get(0).family()).isEqualTo(FAMILIES.get(1).name());
        assertThat(goals.misses().get(0).above()).isCloseTo(1.25 / 1.10 - 1, within(1e-12));
        assertThat(goals.robust()).containsExactly(new FamilyGoals.Ranked("c", 1.90));
        assertThat(goals.mostRobust()).isEqualTo(new FamilyGoals.Ranked("c", 1.90));
    }

    @Test
    void aWorstRatioAboveTheGoalIsMissedAndNoStaticMayBeRobust() {
        FamilyGoals goals = FamilyGoals.of(List.of(
                row(0, 1.31, 1.30, 2.10, 2.20),
                row(1, 1.00, 2.50, 1.00, 2.05)), "t", STATICS);
        assertThat(goals.worstMet()).isFalse();
        assertThat(goals.misses()).isEmpty(); // 1.31 is within 5% of 1.30
        assertThat(goals.robust()).isEmpty();
        assertThat(goals.mostRobust()).isEqualTo(new FamilyGoals.Ranked("b", 2.10));
    }

    @Test
    void refusesNoRowsOrNoStatics() {
        assertThatThrownBy(() -> FamilyGoals.of(List.of(), "t", STATICS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FamilyGoals.of(List.of(row(0, 1, 1, 1, 1)), "t", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
