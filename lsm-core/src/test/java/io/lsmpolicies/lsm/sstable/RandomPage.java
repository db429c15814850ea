package io.lsmpolicies.lsm.sstable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The entries of a random page for search tests: keys that share a prefix of 0 to 11 bytes, end inside the 8 bytes a
 * search compares at once or beyond them, and hold the bytes that matter to unsigned comparison and to the zero
 * padding of that window (0x00, 0x01, {@code a}, 0x80, 0xFF); in internal order, distinct.
 *
 * @param shared  the prefix every key starts with
 * @param entries the entries, in internal order
 */
record RandomPage(byte[] shared, List<Entry> entries) {
    private static final byte[] ALPHABET = {0, 1, 'a', (byte) 0x80, (byte) 0xFF};

    /** A page of 1 to {@code maxEntries} entries, each with a {@code valueBytes}-byte value. */
    static RandomPage of(SplittableRandom random, int maxEntries, int valueBytes) {
        byte[] shared = new byte[random.nextInt(12)];
        fill(random, shared, 0);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(maxEntries); i < n; i++) {
            byte[] key = Arrays.copyOf(shared, shared.length + random.nextInt(11));
            fill(random, key, shared.length);
            entries.add(Entry.put(key, random.nextInt(4), new byte[valueBytes]));
        }
        entries.sort(Entry.ORDER);
        return new RandomPage(shared, new ArrayList<>(new LinkedHashSet<>(entries)));
    }

    private static void fill(SplittableRandom random, byte[] key, int from) {
        for (int j = from; j < key.length; j++) {
            key[j] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
    }

    /** {@return the entries as (key, sequence) pairs, as the tests' page builders take them} */
    Object[] literal() {
        Object[] literal = new Object[2 * entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            literal[2 * i] = entries.get(i).key();
            literal[2 * i + 1] = entries.get(i).sequence();
        }
        return literal;
    }

    /** {@return target {@code t} of a round: a key of the page for even t, a random key after the prefix for odd} */
    byte[] target(SplittableRandom random, int t) {
        if (t % 2 == 0) {
            return entries.get(random.nextInt(entries.size())).key();
        }
        byte[] target = Arrays.copyOf(shared, random.nextInt(shared.length + 12));
        fill(random, target, shared.length);
        return target;
    }
}
