package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The per-flush trace ({@link LsmStore#onFlush}, {@link LsmStore#sample()}) agrees with the store's own metrics:
 * one sample per flush in order, cumulative counters that never fall, and a last sample whose ratio is the
 * store's model write amplification and whose peak covers the transient space the merges needed.
 */
class FlushSampleTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"binomial:k=2", "tiered:size-ratio=2", "leveled"})
    void samplesFollowEveryFlushAndAddUpToTheMetrics(String policy) throws IOException {
        List<FlushSample> samples = Collections.synchronizedList(new ArrayList<>());
        StoreOptions options = StoreOptions.builder().memtableBytes(16 * 1024).walMode(SyncMode.OFF)
                .policy(policy).build();
        FlushSample last;
        StoreMetrics metrics;
        try (LsmStore store = LsmStore.open(dir, options)) {
            store.onFlush(samples::add);
            byte[] value = new byte[200];
            for (int i = 0; i < 3_000; i++) {
                store.put(("key" + (i * 7919 % 3_000)).getBytes(StandardCharsets.UTF_8), value);
            }
            store.flush();
            store.awaitMerges();
            last = store.sample();
            metrics = store.metrics();
        }
        assertThat(samples).hasSizeGreaterThan(20);
        for (int i = 0; i < samples.size(); i++) {
            FlushSample s = samples.get(i);
            assertThat(s.flushes()).as("sample %d", i).isEqualTo(i + 1);
            assertThat(s.writtenBytes()).as("sample %d", i).isGreaterThanOrEqualTo(s.flushedBytes());
            assertThat(s.peakDiskBytes()).as("sample %d", i).isPositive();
            assertThat(s.components()).as("sample %d", i).isPositive();
            if (i > 0) {
                FlushSample p = samples.get(i - 1);
                assertThat(s.flushedBytes()).as("sample %d", i).isGreaterThan(p.flushedBytes());
                assertThat(s.writtenBytes()).as("sample %d", i).isGreaterThanOrEqualTo(p.writtenBytes());
            }
        }
        assertThat(last.flushes()).isEqualTo(metrics.flushes().count()).isEqualTo(samples.size());
        assertThat(last.flushedBytes()).isEqualTo(metrics.flushes().bytes());
        assertThat((double) last.writtenBytes() / last.flushedBytes())
                .isCloseTo(metrics.amplification().modelWrite(), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(last.writtenBytes()).isGreaterThan(samples.get(samples.size() - 1).flushedBytes());
        long peak = samples.stream().mapToLong(FlushSample::peakDiskBytes).max().orElseThrow();
        peak = Math.max(peak, last.peakDiskBytes());
        double transientFromTrace = 0;
        for (FlushSample s : samples) {
            transientFromTrace = Math.max(transientFromTrace, (double) s.peakDiskBytes() / s.flushedBytes());
        }
        assertThat(peak).isGreaterThanOrEqualTo(metrics.tables().diskBytes());
        assertThat(transientFromTrace).isGreaterThan(1.0);
        assertThat(metrics.amplification().read()).isCloseTo(samples.stream().mapToInt(FlushSample::components)
                .average().orElseThrow(), org.assertj.core.data.Offset.offset(1e-9));
    }
}
