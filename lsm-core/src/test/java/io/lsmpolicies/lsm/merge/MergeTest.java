package io.lsmpolicies.lsm.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Merging and collapsing against a brute-force oracle of what every snapshot reader sees. */
class MergeTest {
    private static byte[] key(int i) {
        return new byte[] {'k', (byte) i};
    }

    private static List<Entry> collect(EntryCursor c) throws IOException {
        List<Entry> out = new ArrayList<>();
        while (c.advance()) {
            out.add(c.entry());
        }
        return out;
    }

    private static VersionCollapse collapse(List<Entry> entries, long[] snapshots, boolean bottommost) {
        return new VersionCollapse(EntryCursor.of(entries.iterator()), snapshots, bottommost);
    }

    /** What a reader at {@code snapshot} sees for every key: key -> value, absent if deleted or unknown. */
    private static TreeMap<Integer, String> view(List<Entry> entries, long snapshot) {
        TreeMap<Integer, String> out = new TreeMap<>();
        TreeMap<Integer, Long> seen = new TreeMap<>();
        for (Entry e : entries) {
            int k = e.key()[1];
            if (e.sequence() <= snapshot && e.sequence() > seen.getOrDefault(k, -1L)) {
                seen.put(k, e.sequence());
                if (e.tombstone()) {
                    out.remove(k);
                } else {
                    out.put(k, new String(e.value()));
                }
            }
        }
        return out;
    }

    @Test
    void mergingKeepsInternalOrderAndEveryEntry() throws IOException {
        SplittableRandom random = new SplittableRandom(1);
        List<List<Entry>> inputs = new ArrayList<>();
        List<Entry> all = new ArrayList<>();
        long seq = 1;
        for (int i = 0; i < 5; i++) {
            inputs.add(new ArrayList<>());
        }
        for (int n = 0; n < 2000; n++) {
            Entry e = Entry.put(key(random.nextInt(100)), seq++, new byte[] {(byte) n});
            inputs.get(random.nextInt(5)).add(e);
            all.add(e);
        }
        all.sort(Entry.ORDER);
        List<EntryCursor> cursors = new ArrayList<>();
        for (List<Entry> in : inputs) {
            in.sort(Entry.ORDER);
            cursors.add(EntryCursor.of(in.iterator()));
        }
        assertThat(collect(new MergingCursor(cursors))).isEqualTo(all);
        assertThat(new MergingCursor(List.of()).advance()).isFalse();
    }

    /** Any number of inputs, some empty, with equal entries in several: all come out, the earlier input's first. */
    @Test
    void mergingCursorOfAnyWidthKeepsEveryEntryAndBreaksTiesByInput() throws IOException {
        SplittableRandom random = new SplittableRandom(5);
        for (int k = 0; k <= 17; k++) {
            for (int trial = 0; trial < 20; trial++) {
                List<List<Entry>> inputs = new ArrayList<>();
                List<long[]> expected = new ArrayList<>(); // (key, sequence, input) in merge order
                for (int i = 0; i < k; i++) {
                    List<Entry> in = new ArrayList<>();
                    int n = random.nextInt(4) == 0 ? 0 : random.nextInt(40);
                    for (int j = 0; j < n; j++) { // few keys and sequences: equal entries across inputs are common
                        in.add(Entry.put(key(random.nextInt(20)), random.nextInt(4), new byte[] {(byte) i}));
                    }
                    in.sort(Entry.ORDER);
                    inputs.add(in);
                    for (Entry e : in) {
                        expected.add(new long[] {e.key()[1], e.sequence(), i});
                    }
                }
                expected.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
                        : a[1] != b[1] ? Long.compare(b[1], a[1]) : Long.compare(a[2], b[2]));
                List<EntryCursor> cursors = new ArrayList<>();
                for (List<Entry> in : inputs) {
                    cursors.add(EntryCursor.of(in.iterator()));
                }
                List<long[]> got = new ArrayList<>();
                for (Entry e : collect(new MergingCursor(cursors))) {
                    got.add(new long[] {e.key()[1], e.sequence(), e.value()[0]});
                }
                assertThat(got).as("%d inputs", k).containsExactlyElementsOf(expected);
            }
        }
    }

    @Test
    void collapsingPreservesWhatEverySnapshotSees() throws IOException {
        SplittableRandom random = new SplittableRandom(2);
        for (int trial = 0; trial < 200; trial++) {
            List<Entry> entries = new ArrayList<>();
            long seq = 1;
            int keys = trial % 2 == 0 ? 6 : 200; // many versions per key, or mostly one (the single-version path)
            for (int n = 0; n < 60; n++) {
                int k = random.nextInt(keys);
                entries.add(random.nextInt(3) == 0 ? Entry.delete(key(k), seq++)
                        : Entry.put(key(k), seq++, ("v" + n).getBytes()));
            }
            entries.sort(Entry.ORDER);
            long[] snapshots = random.longs(random.nextInt(4), 1, seq).toArray();
            for (boolean bottommost : new boolean[] {true, false}) {
                List<Entry> out = collect(collapse(entries, snapshots, bottommost));
                assertThat(out).isSortedAccordingTo(Entry.ORDER);
                for (long s : snapshots) {
                    assertThat(view(out, s)).as("snapshot %d", s).isEqualTo(view(entries, s));
                }
                assertThat(view(out, Long.MAX_VALUE)).isEqualTo(view(entries, Long.MAX_VALUE));
                // Never more than one version per stripe and key.
                assertThat(out.size()).isLessThanOrEqualTo(keys * (snapshots.length + 1));
                if (bottommost) {
                    // No kept tombstone is the oldest kept version of its key.
                    for (int i = 0; i < out.size(); i++) {
                        boolean oldest = i + 1 == out.size() || !Arrays.equals(out.get(i + 1).key(), out.get(i).key());
                        assertThat(oldest && out.get(i).tombstone()).isFalse();
                    }
                }
            }
        }
    }

    @Test
    void withoutSnapshotsOnlyTheNewestVersionSurvivesAndBottommostDeletesVanish() throws IOException {
        List<Entry> entries = List.of(Entry.delete(key(1), 9), Entry.put(key(1), 5, "old".getBytes()),
                Entry.put(key(2), 8, "new".getBytes()), Entry.put(key(2), 3, "older".getBytes()));
        assertThat(collect(collapse(entries, new long[0], true)))
                .containsExactly(Entry.put(key(2), 8, "new".getBytes()));
        assertThat(collect(collapse(entries, new long[0], false)))
                .containsExactly(Entry.delete(key(1), 9), Entry.put(key(2), 8, "new".getBytes()));
        // A snapshot at 6 still needs key 1's old value, so the tombstone above it stays too.
        assertThat(collect(collapse(entries, new long[] {6}, true))).containsExactly(
                Entry.delete(key(1), 9), Entry.put(key(1), 5, "old".getBytes()), Entry.put(key(2), 8, "new".getBytes()),
                Entry.put(key(2), 3, "older".getBytes()));
    }
}
