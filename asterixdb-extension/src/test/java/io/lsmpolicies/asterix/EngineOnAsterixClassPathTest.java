package io.lsmpolicies.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine ({@code lsm-core}) on AsterixDB 0.9.8's class path: this module's test class path holds AsterixDB's
 * own Jackson (2.13) and Guava (31.0.1), not the versions our other modules build with, so a store that writes,
 * flushes (Bloom filters: Guava's murmur3), limits its write rate (Guava's RateLimiter), reads and prints its
 * metrics (Jackson) here runs inside an AsterixDB node without a version conflict.
 */
class EngineOnAsterixClassPathTest {
    @TempDir
    Path dir;

    @Test
    void theEngineRunsOnAsterixDbsJacksonAndGuava() throws Exception {
        assertThat(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString()).startsWith("2.13.");
        assertThat(com.google.common.hash.Hashing.class.getProtectionDomain().getCodeSource().getLocation()
                .getPath()).contains("31.0.1-jre");
        StoreOptions options = StoreOptions.builder().memtableBytes(64 << 10).writeBytesPerSecond(64L << 20).build();
        try (LsmStore store = LsmStore.open(dir, options)) {
            for (int i = 0; i < 2000; i++) {
                store.put(("key" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
            }
            store.flush();
            store.awaitMerges();
            assertThat(store.get("key1234".getBytes(StandardCharsets.UTF_8))).hasSize(100);
            assertThat(store.get("absent".getBytes(StandardCharsets.UTF_8))).isNull();
            assertThat(new ObjectMapper().readTree(store.metrics().toJson()).path("flushes").path("count").asLong())
                    .isPositive();
        }
    }
}
