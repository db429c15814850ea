package io.lsmpolicies.lsm.memtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The MemTable's contract: order, versions, accounting, concurrent writers and readers, records in chunks and in
 * arrays of their own, and that it copies what it is given and keeps its chunks for as long as a reader holds them.
 */
class MemTableTest {
    private static byte[] key(int i) {
        return String.format("k%05d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static int keyNumber(byte[] key) {
        return Integer.parseInt(new String(key, 1, key.length - 1, StandardCharsets.US_ASCII));
    }

    /** A value's length, from its sequence number: mostly under 3 KB, now and then larger than a 64 KiB chunk. */
    private static int lengthOf(long sequence) {
        return sequence % 1009 == 0 ? 70_000 : (int) (sequence * 7 % 3000);
    }

    /** A value that says which key and version it belongs to, so a reader can check every byte it read. */
    private static byte[] valueOf(int key, long sequence) {
        byte[] v = new byte[lengthOf(sequence)];
        for (int i = 0; i < v.length; i++) {
            v[i] = (byte) (key * 31 + sequence * 7 + i);
        }
        return v;
    }

    /** Checks an entry read back is whole: its value is the one written with its key and sequence. */
    private static void checkWhole(Entry e) {
        assertThat(e.value()).as("value of %s", e).isEqualTo(valueOf(keyNumber(e.key()), e.sequence()));
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
        // each entry its charge, plus the unused ends of the chunks filled before the current one
        assertThat(m.bytes()).isBetween(expectedBytes, expectedBytes + m.allocatedBytes() / 4);
        assertThat(m.allocatedBytes() - m.bytes()).isBetween(0L, (long) Arena.chunkBytes(MemTable.SMALL_BUDGET_BYTES));
        assertThat(m.tombstones()).isEqualTo(all.stream().filter(Entry::tombstone).count());
        assertThatThrownBy(() -> m.add(Entry.put(key(1), 999_999, new byte[1])))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("frozen");
    }

    /** A key range's cursor: every version of each key in [from, to), none of {@code to}'s; null bounds open. */
    @Test
    void aRangeCursorHoldsEveryVersionOfTheKeysInItsRange() throws Exception {
        MemTable m = new MemTable();
        for (int k = 1; k <= 4; k++) {
            m.add(Entry.put(key(k), 10 + k, "a".getBytes()));
            m.add(Entry.put(key(k), 20 + k, "b".getBytes()));
        }
        m.add(Entry.delete(key(3), 40));
        m.freeze();
        assertThat(range(m, key(2), key(4))).containsExactly("k00002@22", "k00002@12", "k00003@40", "k00003@23",
                "k00003@13");
        assertThat(range(m, null, key(2))).containsExactly("k00001@21", "k00001@11");
        assertThat(range(m, key(4), null)).containsExactly("k00004@24", "k00004@14");
        assertThat(range(m, key(0), key(1))).isEmpty();
        assertThat(range(m, null, null)).hasSize(9);
    }

    private static List<String> range(MemTable m, byte[] from, byte[] to) throws Exception {
        List<String> out = new ArrayList<>();
        try (EntryCursor c = m.cursor(from, to)) {
            while (c.advance()) {
                Entry e = c.entry();
                out.add(new String(e.key(), StandardCharsets.US_ASCII) + "@" + e.sequence());
            }
        }
        return out;
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

    @Test
    void readersSeeWholeEntriesInOrderWhileManyThreadsAdd() throws Exception {
        MemTable m = new MemTable(64 << 10); // 64 KiB chunks: dozens of them, and records larger than one
        int writers = 3;
        int readers = 3;
        int perWriter = 3000;
        AtomicLong sequence = new AtomicLong();
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(writers + readers);
        List<Future<?>> writes = new ArrayList<>();
        List<Future<Long>> reads = new ArrayList<>();
        for (int t = 0; t < writers; t++) {
            int thread = t;
            writes.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(thread);
                for (int i = 0; i < perWriter; i++) {
                    int k = random.nextInt(500);
                    long s = sequence.incrementAndGet();
                    m.add(Entry.put(key(k), s, valueOf(k, s)));
                }
                return null;
            }));
        }
        for (int t = 0; t < readers; t++) {
            int thread = t;
            reads.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(100 + thread);
                long checked = 0;
                do {
                    Entry previous = null;
                    for (Iterator<Entry> it = m.iterator(key(random.nextInt(500)), Long.MAX_VALUE); it.hasNext()
                            && checked % 200 != 199; checked++) {
                        Entry e = it.next();
                        checkWhole(e);
                        assertThat(previous == null || Entry.ORDER.compare(previous, e) < 0).isTrue();
                        previous = e;
                    }
                    Entry e = m.get(key(random.nextInt(500)), Long.MAX_VALUE);
                    if (e != null) {
                        checkWhole(e);
                    }
                    checked++;
                } while (writing.get());
                return checked;
            }));
        }
        for (Future<?> f : writes) {
            f.get();
        }
        writing.set(false);
        for (Future<Long> f : reads) {
            assertThat(f.get()).isPositive();
        }
        pool.shutdown();
        m.freeze();
        assertThat(m.size()).isEqualTo(writers * perWriter);
        List<Entry> all = new ArrayList<>();
        m.iterator().forEachRemaining(all::add);
        assertThat(all).hasSize(writers * perWriter).isSortedAccordingTo(Entry.ORDER);
        all.forEach(MemTableTest::checkWhole);
        assertThat(m.minSequence()).isEqualTo(1);
        assertThat(m.maxSequence()).isEqualTo(writers * perWriter);
        assertThat(m.first()).isEqualTo(all.get(0));
        assertThat(m.last()).isEqualTo(all.get(all.size() - 1));
    }

    @Test
    void emptyKeysAndValuesAndRecordsLargerThanAChunkReadBackExactly() throws Exception {
        MemTable m = new MemTable(); // 4 KiB chunks: a record over 1 KiB gets an array of its own
        int chunk = Arena.chunkBytes(MemTable.SMALL_BUDGET_BYTES);
        List<Entry> written = List.of(
                Entry.put(new byte[0], 1, new byte[0]),
                Entry.delete(new byte[0], 2),
                Entry.put(key(1), 3, new byte[0]),
                Entry.put(key(1), 4, new byte[chunk / 4 - Slot.HEADER - 6]), // exactly a quarter: in a chunk
                Entry.put(key(2), 5, valueOf(2, 5)),
                Entry.put(key(3), 6, new byte[chunk * 3]), // larger than a chunk
                Entry.delete(key(3), 7),
                Entry.put(key(4), 8, new byte[chunk - Slot.HEADER - 6])); // a whole chunk's worth
        long charged = 0;
        for (Entry e : written) {
            m.add(e);
            charged += MemTable.charge(e);
        }
        assertThat(m.get(new byte[0], Long.MAX_VALUE).tombstone()).isTrue();
        assertThat(m.get(new byte[0], 1).value()).isEmpty();
        assertThat(m.get(key(1), 3).value()).isEmpty();
        assertThat(m.get(key(3), 6).value()).hasSize(chunk * 3);
        assertThat(m.get(key(3), 7).tombstone()).isTrue();
        List<Entry> expected = new ArrayList<>(written);
        expected.sort(Entry.ORDER);
        List<Entry> all = new ArrayList<>();
        m.iterator().forEachRemaining(all::add);
        assertThat(all).containsExactlyElementsOf(expected);
        List<Entry> viaCursor = new ArrayList<>();
        try (EntryCursor c = m.cursor()) {
            while (c.advance()) {
                viaCursor.add(new Entry(Arrays.copyOfRange(c.keyArray(), c.keyOffset(), c.keyOffset() + c.keyLength()),
                        c.sequence(), c.tombstone(),
                        Arrays.copyOfRange(c.valueArray(), c.valueOffset(), c.valueOffset() + c.valueLength())));
            }
        }
        assertThat(viaCursor).containsExactlyElementsOf(expected);
        assertThat(m.tombstones()).isEqualTo(2);
        assertThat(m.dataBytes()).isEqualTo(written.stream().mapToLong(e -> e.key().length + e.value().length).sum());
        // the records held in chunks fill one chunk, whose end is not charged while it is being filled
        assertThat(m.bytes()).isEqualTo(charged);
        assertThat(m.allocatedBytes()).isGreaterThanOrEqualTo(m.bytes());
    }

    /** Adds entries made of fresh arrays, and returns weak references to those arrays. */
    private static List<WeakReference<byte[]>> addFreshEntries(MemTable m, int count) {
        List<WeakReference<byte[]>> refs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] key = key(i);
            byte[] value = valueOf(i, i + 1);
            m.add(Entry.put(key, i + 1, value));
            refs.add(new WeakReference<>(key));
            refs.add(new WeakReference<>(value));
        }
        return refs;
    }

    /**
     * The MemTable copies a put's key and value into its chunks and keeps neither array: the caller's arrays die
     * young instead of living, and being promoted, until the MemTable is flushed. (Before the arena the MemTable kept
     * both arrays.)
     */
    @Test
    void keepsNoneOfTheArraysItIsGiven() {
        MemTable m = new MemTable(4 << 20);
        List<WeakReference<byte[]>> refs = addFreshEntries(m, 500);
        for (int attempt = 0; attempt < 10 && refs.stream().anyMatch(r -> r.get() != null); attempt++) {
            System.gc(); // a full collection clears every reference to an array that only weak ones reach
        }
        assertThat(refs.stream().filter(r -> r.get() != null).count()).as("arrays the MemTable still holds")
                .isZero();
        for (int i = 0; i < 500; i++) {
            checkWhole(m.get(key(i), Long.MAX_VALUE));
        }
    }

    /**
     * A reader that holds an iterator and a cursor keeps reading correct entries after the MemTable itself is gone
     * (flushed and dropped by the store) and the collector has run: its chunks are never reused or freed while
     * reachable.
     */
    @Test
    void anIteratorOutlivesItsMemTable() throws Exception {
        MemTable m = new MemTable(64 << 10);
        for (int i = 0; i < 400; i++) {
            m.add(Entry.put(key(i), i + 1, valueOf(i, i + 1)));
        }
        m.freeze();
        Iterator<Entry> it = m.iterator(key(100), Long.MAX_VALUE);
        EntryCursor cursor = m.cursor();
        m = null;
        for (int round = 0; round < 3; round++) { // other MemTables fill and die meanwhile
            MemTable other = new MemTable(64 << 10);
            for (int i = 0; i < 400; i++) {
                other.add(Entry.put(key(i), i + 1, new byte[lengthOf(i + 1)]));
            }
            System.gc();
        }
        for (int i = 100; i < 400; i++) {
            Entry e = it.next();
            assertThat(keyNumber(e.key())).isEqualTo(i);
            checkWhole(e);
        }
        assertThat(it.hasNext()).isFalse();
        for (int i = 0; i < 400; i++) {
            assertThat(cursor.advance()).isTrue();
            checkWhole(cursor.entry());
        }
        assertThat(cursor.advance()).isFalse();
    }

    /**
     * With a pool, a MemTable's chunks go back to it only when its last reference goes: not while its owner or a
     * reader holds one. The next MemTable then fills the same chunks, and the released one refuses to be read.
     */
    @Test
    void chunksReturnToThePoolOnlyAfterTheLastReaderLetsGo() throws Exception {
        ChunkPool pool = new ChunkPool(64 << 10, 2);
        MemTable m = new MemTable(64 << 10, pool);
        for (int i = 0; i < 200; i++) {
            m.add(Entry.put(key(i), i + 1, valueOf(i, i + 1))); // about 150 KB: three 64 KiB chunks
        }
        m.freeze();
        assertThat(m.tryRetain()).as("a reader's reference").isTrue();
        EntryCursor reader = m.cursor();
        m.release(); // the owner's: the reader still holds one
        assertThat(pool.size()).isZero();
        MemTable next = new MemTable(64 << 10, pool);
        for (int i = 0; i < 200; i++) {
            next.add(Entry.put(key(i), 1000 + i, valueOf(i, 1000 + i)));
        }
        for (int i = 0; i < 200; i++) {
            assertThat(reader.advance()).isTrue();
            checkWhole(reader.entry());
        }
        assertThat(reader.advance()).isFalse();
        long chunks = (m.allocatedBytes() - (long) MemTable.INDEX_NODE_BYTES * m.size()) / pool.chunkBytes();
        assertThat(chunks).isEqualTo(3).isLessThanOrEqualTo(pool.capacity());
        m.release(); // the reader's, the last
        assertThat(pool.size()).isEqualTo(3);
        assertThat(m.tryRetain()).isFalse();
        assertThatThrownBy(() -> m.get(key(1), Long.MAX_VALUE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released");
        assertThatThrownBy(m::release).isInstanceOf(IllegalStateException.class);
        MemTable third = new MemTable(64 << 10, pool);
        for (int i = 0; i < 200; i++) {
            third.add(Entry.put(key(i), 2000 + i, valueOf(i, 2000 + i)));
        }
        assertThat(pool.size()).as("the third MemTable took the released chunks").isZero();
        for (int i = 0; i < 200; i++) {
            checkWhole(third.get(key(i), Long.MAX_VALUE));
            checkWhole(next.get(key(i), Long.MAX_VALUE));
        }
    }
}
