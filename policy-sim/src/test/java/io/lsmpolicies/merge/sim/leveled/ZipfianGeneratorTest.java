package io.lsmpolicies.merge.sim.leveled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZipfianGeneratorTest {

    @Test
    void frequenciesOfTheTopRanksMatchTheZipfLaw() {
        int n = 1_000;
        int draws = 400_000;
        ZipfianGenerator z = new ZipfianGenerator(0.99);
        SplittableRandom random = new SplittableRandom(7);
        long[] counts = new long[n];
        for (int i = 0; i < draws; i++) {
            long r = z.next(random, n);
            assertThat(r).isBetween(0L, n - 1L);
            counts[(int) r]++;
        }
        // Ranks 0 and 1 are exact by construction; larger ranks follow the continuous approximation of Gray et
        // al., which overweights rank 2 by about 16% and converges after rank 10.
        for (int rank = 0; rank < 20; rank++) {
            double expected = z.probability(rank, n);
            double tolerance = rank < 2 ? 0.05 : 0.2;
            assertThat((double) counts[rank] / draws).as("rank %d", rank)
                    .isCloseTo(expected, within(tolerance * expected));
        }
        double head = 0;
        double expectedHead = 0;
        for (int rank = 0; rank < 100; rank++) {
            head += (double) counts[rank] / draws;
            expectedHead += z.probability(rank, n);
        }
        assertThat(head).isCloseTo(expectedHead, within(0.03));
        // Heavy head: with theta 0.99 the top 1% of ranks take about 40% of the draws; uniform would give 1%.
        long top = 0;
        for (int rank = 0; rank < n / 100; rank++) {
            top += counts[rank];
        }
        assertThat((double) top / draws).isBetween(0.35, 0.45);
    }

    @Test
    void theItemCountMayGrowBetweenDrawsButNotShrink() {
        ZipfianGenerator z = new ZipfianGenerator(0.5);
        SplittableRandom random = new SplittableRandom(1);
        assertThat(z.next(random, 1)).isZero();
        for (int n = 2; n < 500; n++) {
            assertThat(z.next(random, n)).isBetween(0L, n - 1L);
        }
        // Grown one item at a time, the generator draws as one built for the final count.
        ZipfianGenerator grown = new ZipfianGenerator(0.9);
        ZipfianGenerator direct = new ZipfianGenerator(0.9);
        for (int n = 1; n <= 1000; n++) {
            grown.next(new SplittableRandom(n), n);
        }
        assertThat(grown.next(new SplittableRandom(3), 1000)).isEqualTo(direct.next(new SplittableRandom(3), 1000));
        assertThatThrownBy(() -> z.next(random, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never shrink");
    }

    @Test
    void thetaMustLieStrictlyBetweenZeroAndOne() {
        assertThatThrownBy(() -> new ZipfianGenerator(1.0)).hasMessageContaining("(0, 1)");
        assertThatThrownBy(() -> new ZipfianGenerator(0)).hasMessageContaining("(0, 1)");
    }
}
