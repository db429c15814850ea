package io.lsmpolicies.lsm.memtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.sstable.Entry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MemTableTest {
    private static byte[] key(int i) {
        return String.format("k%05d", i).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void concurrentWritersProduceOneSortedCompleteTable() throws Exception {
        MemTable m = new MemTable();
        AtomicLong sequence = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Long>> charged = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            charged.add(pool.submit(() -> {
                long bytes = 0;
                for (int i = 0; i < 5000; i++) {
                    Entry e = (i % 7 == 0) ? Entry.delete(key(i % 1000), sequence.incrementAndGet())
                            : Entry.put(key(i % 1000), sequence.incrementAndGet(), new byte[thread + i % 50]);
                    m.add(e);
                    bytes += MemTable.charge(e);
                }
                return bytes;
            }));
        }
        long expectedBytes = 0;
        for (Future<Long> f : charged) {
            expectedBytes += f.get();
        }
        pool.shutdown();
        m.freeze();
        List<Entry> all = new ArrayList<>();
        m.iterator().forEachRemaining(all::add);
        assertThat(all).hasSize(20_000).isSortedAccordingTo(Entry.ORDER);
        assertThat(m.bytes()).isEqualTo(expectedBytes);
        assertThat(m.tombstones()).isEqualTo(all.stream().filter(Entry::tombstone).count());
        assertThatThrownBy(() -> m.add(Entry.put(key(1), 999_999, new byte[1])))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("frozen");
    }

    @Test
    void snapshotReadsSeeTheNewestVersionAtOrBeforeTheSnapshot() {
        MemTable m = new MemTable();
        m.add(Entry.put(key(1), 10, "a".getBytes()));
        m.add(Entry.put(key(1), 20, "b".getBytes()));
        m.add(Entry.delete(key(1), 30));
        m.add(Entry.put(key(2), 15, "c".getBytes()));
        assertThat(m.get(key(1), 9)).isNull();
        assertThat(m.get(key(1), 10).value()).isEqualTo("a".getBytes());
        assertThat(m.get(key(1), 29).value()).isEqualTo("b".getBytes());
        assertThat(m.get(key(1), Long.MAX_VALUE).tombstone()).isTrue();
        assertThat(m.get(key(3), Long.MAX_VALUE)).isNull();
        assertThat(m.get(key(0), Long.MAX_VALUE)).isNull();
        List<String> from = new ArrayList<>();
        m.iterator(key(1), 25).forEachRemaining(e -> from.add(new String(e.key()) + "@" + e.sequence()));
        assertThat(from).containsExactly("k00001@20", "k00001@10", "k00002@15");
        assertThatThrownBy(() -> m.add(Entry.put(key(2), 15, "d".getBytes())))
                .hasMessageContaining("already holds");
        assertThat(Arrays.equals(m.get(key(2), 15).value(), "c".getBytes())).isTrue();
    }
}
