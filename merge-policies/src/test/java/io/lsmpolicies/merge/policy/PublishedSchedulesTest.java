package io.lsmpolicies.merge.policy;

import static io.lsmpolicies.merge.Schedules.parse;
import static io.lsmpolicies.merge.Schedules.policy;
import static io.lsmpolicies.merge.Schedules.unitSchedule;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The first 16 uniform flushes with k = 4, as published (Mao et al., VLDBJ 2021, Fig. 1) and in issue #2. */
class PublishedSchedulesTest {

    @Test
    void minLatencyFirstSixteenFlushesWithKFour() {
        assertThat(unitSchedule(policy("minlatency", "k", 4), 16)).isEqualTo(parse(
                "[1] [1,1] [1,1,1] [1,1,1,1] [5] [5,1] [5,1,1] [5,1,1,1] [5,4] [5,4,1] [5,4,1,1] [5,4,3] [5,4,3,1]"
                        + " [5,4,3,2] [15] [15,1]"));
    }

    @Test
    void binomialFirstSixteenFlushesWithKFour() {
        assertThat(unitSchedule(policy("binomial", "k", 4), 16)).isEqualTo(parse(
                "[1] [2] [2,1] [2,2] [5] [5,1] [5,1,1] [5,3] [5,3,1] [5,3,2] [5,6] [5,6,1] [5,6,2] [5,6,3] [15]"
                        + " [15,1]"));
    }

    @Test
    void tieredWithRatioTwoMergesEveryTwoFlushesAndCascades() {
        // Fig. 1f: B = 2, a merge every 2 flushes, cascades at 4, 8, 12, 16.
        assertThat(unitSchedule(policy("tiered", "size-ratio", 2), 8)).isEqualTo(parse(
                "[1] [2] [2,1] [4] [4,1] [4,2] [4,2,1] [8]"));
    }

    @Test
    void constantMergesEverythingWhenAFlushWouldExceedK() {
        assertThat(unitSchedule(policy("constant", "k", 2), 7)).isEqualTo(parse(
                "[1] [1,1] [3] [3,1] [5] [5,1] [7]"));
    }

    @Test
    void bigtableKeepsEachSSTableLargerThanAllNewerOnes() {
        // k = 2. Flush 3: merging the flush with 1 newest leaves [1,2] (1 is not > 2), so all merge: [3].
        // Flush 5: [3,1]+1 -> [3,2] (3 > 2). Flush 6: [3,2]+1 -> merging with 1 newest leaves [3,3]: all merge.
        assertThat(unitSchedule(policy("bigtable", "k", 2), 6)).isEqualTo(parse(
                "[1] [1,1] [3] [3,1] [3,2] [6]"));
    }
}
