package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The SSTable options as a caller builds them: defaults, validation at {@code build()}, value semantics. */
class SSTableOptionsTest {
    @Test
    void theDefaultsAreFittedFourKibPagesAndTenBitsPerKey() {
        SSTableOptions d = SSTableOptions.builder().build();
        assertThat(d).isEqualTo(SSTableOptions.DEFAULT);
        assertThat(d.pageSize()).isEqualTo(4096);
        assertThat(d.bloomBitsPerKey()).isEqualTo(10);
        assertThat(d.fitPageSize()).isTrue();
        assertThat(d).hasToString("SSTableOptions[pageSize=4096, bloomBitsPerKey=10, fitPageSize=true]");
    }

    @Test
    void aBuilderFromOptionsBuildsEqualOptionsAndChangesOnlyWhatItIsTold() {
        SSTableOptions exact = SSTableOptions.builder().pageSize(1024).bloomBitsPerKey(12).fitPageSize(false).build();
        assertThat(exact.toBuilder().build()).isEqualTo(exact).hasSameHashCodeAs(exact).isNotSameAs(exact);
        SSTableOptions fitted = exact.toBuilder().fitPageSize(true).build();
        assertThat(fitted).isNotEqualTo(exact);
        assertThat(fitted.pageSize()).isEqualTo(1024);
        assertThat(fitted.bloomBitsPerKey()).isEqualTo(12);
    }

    @Test
    void buildRefusesASettingOutOfRangeNamingItsValueAndRange() {
        for (int size : new int[] {0, 256, 1000, 3 << 10, 2 << 20}) {
            assertThatThrownBy(() -> SSTableOptions.builder().pageSize(size).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("SSTable option pageSize must be a power of two in [512, 1048576], was " + size);
        }
        for (int bits : new int[] {0, -1, 65}) {
            assertThatThrownBy(() -> SSTableOptions.builder().bloomBitsPerKey(bits).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("SSTable option bloomBitsPerKey must be in [1, 64], was " + bits);
        }
        assertThat(SSTableOptions.builder().pageSize(512).bloomBitsPerKey(1).build().pageSize()).isEqualTo(512);
        assertThat(SSTableOptions.builder().pageSize(1 << 20).bloomBitsPerKey(64).build().bloomBitsPerKey())
                .isEqualTo(64);
    }
}
