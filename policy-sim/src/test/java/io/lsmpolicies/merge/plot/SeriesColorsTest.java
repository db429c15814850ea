package io.lsmpolicies.merge.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SeriesColorsTest {
    @Test
    void aKeyHasOneColourWhateverTheOrderOrRepetitionOfTheKeys() {
        SeriesColors a = SeriesColors.of(List.of("lsm:binomial", "rocksdb:leveled", "hyracks:prefix"));
        SeriesColors b = SeriesColors.of(List.of("hyracks:prefix", "lsm:binomial", "hyracks:prefix",
                "rocksdb:leveled"));
        for (String k : List.of("lsm:binomial", "rocksdb:leveled", "hyracks:prefix")) {
            assertThat(b.of(k)).as(k).isEqualTo(a.of(k));
        }
        assertThatThrownBy(() -> a.of("lsm:tiered")).hasMessageContaining("no colour for series key 'lsm:tiered'");
    }

    @Test
    void distinctKeysGetDistinctColoursBeyondTheFirstTen() {
        List<String> keys = IntStream.range(0, 24).mapToObj(i -> String.format("p%02d", i)).toList();
        SeriesColors c = SeriesColors.of(keys);
        Set<Color> seen = new HashSet<>();
        for (String k : keys) {
            assertThat(seen.add(c.of(k))).as(k).isTrue();
        }
    }
}
