package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Many writers and readers at once, with flushes and merges running: readers never see a torn or missing state.
 *
 * <p>Each writer owns its keys (disjoint ranges) and writes increasing versions of them; a version is published
 * in {@code started} before its write and in {@code acked} after the write returned. Some keys form groups of
 * {@value #GROUP_SIZE} that are only ever written by one {@link WriteBatch} setting the whole group to one
 * version. Every value encodes its key and version and is padded with bytes derived from both, so a value of
 * another key or a mix of two writes is recognised. Readers check:
 * <ul>
 *   <li>a get returns a version between the one acknowledged before the get started and the one started after it
 *       returned (never null once a version was acknowledged, never older);</li>
 *   <li>a scan, through a snapshot or not, returns keys in strictly increasing order, each key once, every version
 *       in the same bounds, and each group whole: all of its keys at one version or none of them;</li>
 *   <li>a snapshot read again later, after more writes, flushes and merges, returns the same entries.</li>
 * </ul>
 * Writers check that they read their own last write. At the end, and after a reopen, every key holds its last
 * version.
 */
class EngineConcurrencyTest {
    private static final int WRITERS = 3;
    private static final int READERS = 3;
    private static final int SINGLES = 60;
    private static final int GROUPS = 4;
    private static final int GROUP_SIZE = 4;
    private static final int WRITES_PER_WRITER = 3000;
    private static final int PADDING = 48;
    private static final long SEED = Long.getLong("lsm.test.seed", 0x5EED_0002L);

    @TempDir
    Path dir;

    private final AtomicLongArray started = new AtomicLongArray(WRITERS * SINGLES);
    private final AtomicLongArray acked = new AtomicLongArray(WRITERS * SINGLES);
    private final AtomicLongArray groupStarted = new AtomicLongArray(WRITERS * GROUPS);
    private final AtomicLongArray groupAcked = new AtomicLongArray(WRITERS * GROUPS);
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean(true);

    @ParameterizedTest(name = "{0}, WAL {1}, {2} immutable MemTable(s)")
    @CsvSource({"binomial:k=3, ASYNC, 2", "tiered:size-ratio=3, SYNC, 1"})
    void readersNeverSeeATornOrMissingState(String policy, SyncMode wal, int immutables) throws Exception {
        StoreOptions options = StoreOptions.builder().memtableBytes(16 * 1024).walMode(wal).policy(policy)
                .mergeThreads(2).maxImmutableMemtables(immutables)
                .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).subcompactionBytes(4096)
                .blockCacheBytes(32 * 1024).maxKeyBytes(32).build();
        long[][] finalSingles = new long[WRITERS][];
        long[][] finalGroups = new long[WRITERS][];
        try (LsmStore store = LsmStore.open(dir, options)) {
            List<Thread> writers = new ArrayList<>();
            List<Thread> readers = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(thread("writer-" + w, go, () -> {
                    long[][] last = write(store, writer, new Random(SEED * 31 + writer));
                    finalSingles[writer] = last[0];
                    finalGroups[writer] = last[1];
                }));
            }
            for (int r = 0; r < READERS; r++) {
                int reader = r;
                readers.add(thread("reader-" + r, go, () -> read(store, new Random(SEED * 37 + reader))));
            }
            go.countDown();
            for (Thread t : writers) {
                t.join(TimeUnit.MINUTES.toMillis(2));
            }
            writing.set(false);
            for (Thread t : readers) {
                t.join(TimeUnit.MINUTES.toMillis(1));
            }
            assertThat(writers).as("writer threads").noneMatch(Thread::isAlive);
            assertThat(readers).as("reader threads").noneMatch(Thread::isAlive);
            assertThat(failures).as("seed %d", SEED).isEmpty();
            store.awaitMerges();
            checkFinal(store, finalSingles, finalGroups, "at the end");
            StoreMetrics m = store.metrics();
            assertThat(m.flushes().count()).as("flushes").isGreaterThan(20);
            assertThat(m.merges().count()).as("merges").isGreaterThan(2);
        }
        try (LsmStore store = LsmStore.open(dir, options)) {
            checkFinal(store, finalSingles, finalGroups, "after reopening");
        }
    }

    private Thread thread(String name, CountDownLatch go, Body body) {
        Thread t = new Thread(() -> {
            try {
                go.await();
                body.run();
            } catch (AssertionError e) {
                writing.set(false); // check() has recorded it
            } catch (Throwable e) {
                failures.add(name + ": " + e);
                writing.set(false);
            }
        }, name);
        t.start();
        return t;
    }

    @FunctionalInterface
    private interface Body {
        void run() throws Exception;
    }

    /** Writes this writer's keys; returns the last version of each single key and of each group. */
    private long[][] write(LsmStore store, int writer, Random random) throws IOException {
        long[] singles = new long[SINGLES];
        long[] groups = new long[GROUPS];
        for (int n = 0; n < WRITES_PER_WRITER && failures.isEmpty(); n++) {
            if (random.nextInt(5) > 0) {
                int i = random.nextInt(SINGLES);
                int index = writer * SINGLES + i;
                long v = ++singles[i];
                started.set(index, v);
                store.put(singleKey(writer, i), value(index, v));
                acked.set(index, v);
                if (random.nextInt(20) == 0) {
                    long read = version(singleKey(writer, i), index, store.get(singleKey(writer, i)));
                    check(read == v, "writer %d read version %d of its own key %d after writing %d", writer, read,
                            i, v);
                }
            } else {
                int g = random.nextInt(GROUPS);
                int index = writer * GROUPS + g;
                long v = ++groups[g];
                groupStarted.set(index, v);
                WriteBatch batch = new WriteBatch();
                for (int j = 0; j < GROUP_SIZE; j++) {
                    batch.put(groupKey(writer, g, j), value(groupMember(index, j), v));
                }
                store.write(batch);
                groupAcked.set(index, v);
            }
        }
        return new long[][] {singles, groups};
    }

    private void read(LsmStore store, Random random) throws IOException {
        int rounds = 0;
        while ((writing.get() || rounds < 10) && failures.isEmpty()) {
            rounds++;
            int r = random.nextInt(100);
            if (r < 60) {
                getOne(store, random);
            } else if (r < 85) {
                scanSnapshot(store, random);
            } else {
                long[] ackedBefore = copy(acked);
                long[] groupsBefore = copy(groupAcked);
                List<KeyValue> entries = new ArrayList<>();
                try (StoreIterator it = store.scan(null, null)) {
                    it.forEachRemaining(entries::add);
                }
                checkScan(entries, ackedBefore, groupsBefore, copy(started), copy(groupStarted), "a scan");
            }
        }
    }

    private void getOne(LsmStore store, Random random) throws IOException {
        int writer = random.nextInt(WRITERS);
        int i = random.nextInt(SINGLES);
        int index = writer * SINGLES + i;
        long low = acked.get(index);
        byte[] key = singleKey(writer, i);
        byte[] value = store.get(key);
        long high = started.get(index);
        if (value == null) {
            check(low == 0, "get %s returned nothing after version %d was acknowledged", text(key), low);
            return;
        }
        long v = version(key, index, value);
        check(v >= low && v <= high, "get %s returned version %d, outside [%d, %d]", text(key), v, low, high);
    }

    private void scanSnapshot(LsmStore store, Random random) throws IOException {
        // Acknowledged before the snapshot: it must see these versions or newer ones.
        long[] ackedBefore = copy(acked);
        long[] groupsBefore = copy(groupAcked);
        try (Snapshot s = store.snapshot()) {
            long[] startedAfter = copy(started);
            long[] groupsStartedAfter = copy(groupStarted);
            List<KeyValue> first = new ArrayList<>();
            try (StoreIterator it = store.scan(null, null, s)) {
                it.forEachRemaining(first::add);
            }
            checkScan(first, ackedBefore, groupsBefore, startedAfter, groupsStartedAfter, "a snapshot scan");
            // Later, with more writes, flushes and merges in between, the snapshot reads the same.
            for (int n = 0; n < 5; n++) {
                KeyValue kv = first.isEmpty() ? null : first.get(random.nextInt(first.size()));
                if (kv != null) {
                    byte[] again = store.get(kv.key(), s);
                    check(Arrays.equals(again, kv.value()), "get %s through a snapshot changed from %s to %s",
                            text(kv.key()), EngineTestSupport.hex(kv.value()), EngineTestSupport.hex(again));
                }
            }
            if (random.nextInt(4) == 0) {
                List<String> second = EngineTestSupport.drain(store.scan(null, null, s));
                List<String> expected = new ArrayList<>();
                first.forEach(kv -> expected.add(
                        EngineTestSupport.hex(kv.key()) + "=" + EngineTestSupport.hex(kv.value())));
                check(second.equals(expected), "a second scan of one snapshot returned %d entries, the first %d "
                        + "(or different values)", second.size(), expected.size());
            }
        }
    }

    /** Order, one version per key within the bounds, and whole groups. */
    private void checkScan(List<KeyValue> entries, long[] ackedBefore, long[] groupsBefore, long[] startedAfter,
            long[] groupsStartedAfter, String what) {
        byte[] previous = null;
        long[] seenSingles = new long[WRITERS * SINGLES];
        long[][] seenGroups = new long[WRITERS * GROUPS][GROUP_SIZE];
        for (KeyValue kv : entries) {
            check(previous == null || Arrays.compareUnsigned(previous, kv.key()) < 0,
                    "%s returned %s after %s", what, text(kv.key()), previous == null ? "" : text(previous));
            previous = kv.key();
            int[] id = parse(kv.key());
            if (id[1] < 0) {
                int index = id[0] * SINGLES + id[2];
                seenSingles[index] = version(kv.key(), index, kv.value());
            } else {
                int index = id[0] * GROUPS + id[1];
                seenGroups[index][id[2]] = version(kv.key(), groupMember(index, id[2]), kv.value());
            }
        }
        for (int index = 0; index < seenSingles.length; index++) {
            long v = seenSingles[index];
            check(v >= ackedBefore[index] && v <= startedAfter[index], "%s returned version %d of single key %d, "
                    + "outside [%d, %d] (0: absent)", what, v, index, ackedBefore[index], startedAfter[index]);
        }
        for (int index = 0; index < seenGroups.length; index++) {
            long[] members = seenGroups[index];
            for (int j = 1; j < GROUP_SIZE; j++) {
                check(members[j] == members[0], "%s returned group %d torn: versions %s (0: absent)", what, index,
                        Arrays.toString(members));
            }
            check(members[0] >= groupsBefore[index] && members[0] <= groupsStartedAfter[index], "%s returned "
                    + "version %d of group %d, outside [%d, %d]", what, members[0], index, groupsBefore[index],
                    groupsStartedAfter[index]);
        }
    }

    private void checkFinal(LsmStore store, long[][] singles, long[][] groups, String when) throws IOException {
        for (int w = 0; w < WRITERS; w++) {
            for (int i = 0; i < SINGLES; i++) {
                byte[] key = singleKey(w, i);
                long expected = singles[w][i];
                byte[] value = store.get(key);
                long got = value == null ? 0 : version(key, w * SINGLES + i, value);
                assertThat(got).as("%s: version of %s", when, text(key)).isEqualTo(expected);
            }
        }
        List<KeyValue> all = new ArrayList<>();
        try (Snapshot s = store.snapshot(); StoreIterator it = store.scan(null, null, s)) {
            it.forEachRemaining(all::add);
        }
        long[] singleVersions = new long[WRITERS * SINGLES];
        long[] groupVersions = new long[WRITERS * GROUPS];
        for (int w = 0; w < WRITERS; w++) {
            System.arraycopy(singles[w], 0, singleVersions, w * SINGLES, SINGLES);
            System.arraycopy(groups[w], 0, groupVersions, w * GROUPS, GROUPS);
        }
        checkScan(all, singleVersions, groupVersions, singleVersions, groupVersions, "the final scan " + when);
        assertThat(failures).as(when).isEmpty();
    }

    private void check(boolean ok, String format, Object... args) {
        if (!ok) {
            failures.add(String.format(format, args));
            throw new AssertionError(String.format(format, args));
        }
    }

    private static long[] copy(AtomicLongArray a) {
        long[] out = new long[a.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i);
        }
        return out;
    }

    private static byte[] singleKey(int writer, int i) {
        return String.format("w%d-s%03d", writer, i).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] groupKey(int writer, int group, int member) {
        return String.format("w%d-g%d-%d", writer, group, member).getBytes(StandardCharsets.US_ASCII);
    }

    /** {writer, group or -1, key number or member}. */
    private static int[] parse(byte[] key) {
        String s = text(key);
        int writer = s.charAt(1) - '0';
        if (s.charAt(3) == 's') {
            return new int[] {writer, -1, Integer.parseInt(s.substring(4))};
        }
        return new int[] {writer, s.charAt(4) - '0', s.charAt(6) - '0'};
    }

    /** A distinct number per group member, for the value's identity (distinct from every single key's index). */
    private static int groupMember(int groupIndex, int member) {
        return 100_000 + groupIndex * GROUP_SIZE + member;
    }

    private static String text(byte[] key) {
        return new String(key, StandardCharsets.US_ASCII);
    }

    /** version u64 | identity u32 | padding derived from both. */
    private static byte[] value(int identity, long version) {
        ByteBuffer b = ByteBuffer.allocate(12 + PADDING);
        b.putLong(version).putInt(identity);
        for (int i = 0; i < PADDING; i++) {
            b.put((byte) (identity * 31 + version * 7 + i));
        }
        return b.array();
    }

    /** The version a value holds, after checking it is a whole value of {@code identity}. */
    private long version(byte[] key, int identity, byte[] value) {
        if (value == null) {
            return 0;
        }
        if (value.length != 12 + PADDING) {
            check(false, "value of %s has %d bytes", text(key), value.length);
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        long version = b.getLong();
        int id = b.getInt();
        check(id == identity, "value of %s belongs to identity %d, not %d", text(key), id, identity);
        check(Arrays.equals(value, value(identity, version)), "value of %s at version %d is torn", text(key),
                version);
        return version;
    }
}
