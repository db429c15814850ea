package io.lsmpolicies.bench.vsrocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** Uniform starts repeat with their seed; zipfian ones stay among the records and favour a few, as workload E's. */
class ScanStartsTest {
    private static int[] counts(ScanStarts starts, long seed) {
        int[] counts = new int[10_000];
        LongSupplier s = starts.starts(counts.length, new SplittableRandom(seed));
        for (int i = 0; i < 200_000; i++) {
            long r = s.getAsLong();
            assertThat(r).isBetween(0L, (long) counts.length - 1);
            counts[(int) r]++;
        }
        return counts;
    }

    private static int max(int[] counts) {
        int m = 0;
        for (int c : counts) {
            m = Math.max(m, c);
        }
        return m;
    }

    @Test
    void uniformStartsRepeatWithTheSeedAndAreFlat() {
        assertThat(counts(ScanStarts.UNIFORM, 7)).isEqualTo(counts(ScanStarts.UNIFORM, 7));
        assertThat(max(counts(ScanStarts.UNIFORM, 7))).isLessThan(60); // 20 expected per record
    }

    @Test
    void zipfianStartsFavourAFewRecords() {
        assertThat(max(counts(ScanStarts.ZIPFIAN, 7))).isGreaterThan(2_000); // the hottest record: about a tenth
    }
}
