package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class BloomFilterTest {
    /** CRC32C of the blocked filter of {@link #filterBitsAreThoseOfTheBlockedLayoutsDefinition}'s keys. */
    private static final String BLOCKED_CRC = "29ba7a0";
    private static byte[] key(String prefix, int i) {
        return (prefix + i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void neverForgetsAKeyAndFalsePositivesMatchTheory() {
        BloomFilter.Builder b = BloomFilter.builder(BloomFilter.DEFAULT_BITS_PER_KEY);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            b.add(key("user", i));
        }
        BloomFilter filter = b.build();
        assertThat(filter.probes()).isEqualTo(7);
        for (int i = 0; i < n; i++) {
            assertThat(filter.mightContain(key("user", i))).isTrue();
            assertThat(filter.mightContain(BloomFilter.hash(key("user", i)))).as("hashed once").isTrue();
        }
        int falsePositives = 0;
        for (int i = 0; i < n; i++) {
            boolean maybe = filter.mightContain(key("other", i));
            assertThat(filter.mightContain(BloomFilter.hash(key("other", i)))).as("the same answer, hashed once")
                    .isEqualTo(maybe);
            if (maybe) {
                falsePositives++;
            }
        }
        // Theory for blocks of 512 bits, 10 bits per key and 7 probes: about 0.96 % (0.82 % unblocked).
        assertThat(filter.version()).isEqualTo(BloomFilter.VERSION_BLOCKED);
        assertThat(falsePositives / (double) n).isBetween(0.006, 0.014);
    }

    @Test
    void moreBitsPerKeyMeansFewerFalsePositives() {
        double previous = 1;
        for (int bits : new int[] {2, 6, 12, 20}) {
            BloomFilter.Builder b = BloomFilter.builder(bits);
            for (int i = 0; i < 20_000; i++) {
                b.add(key("k", i));
            }
            BloomFilter f = b.build();
            int fp = 0;
            for (int i = 0; i < 20_000; i++) {
                fp += f.mightContain(key("x", i)) ? 1 : 0;
            }
            double rate = fp / 20_000.0;
            assertThat(rate).as("%d bits per key", bits).isLessThan(previous);
            previous = rate;
        }
    }

    /**
     * The filter's hash is part of the table format: our allocation-free MurmurHash3 must give what an independent
     * implementation (Guava's) gives, on every length around the 16-byte blocks and on ranges inside arrays.
     */
    @Test
    void murmur3MatchesAnIndependentImplementation() {
        SplittableRandom random = new SplittableRandom(11);
        long[] ours = new long[2];
        for (int n = 0; n < 20_000; n++) {
            int length = n < 200 ? n % 100 : random.nextInt(300);
            int from = random.nextInt(8);
            byte[] bytes = new byte[from + length + random.nextInt(8)];
            random.nextBytes(bytes);
            Murmur3.hash128(bytes, from, length, ours, 0);
            ByteBuffer theirs = ByteBuffer.wrap(Hashing.murmur3_128().hashBytes(bytes, from, length).asBytes())
                    .order(ByteOrder.LITTLE_ENDIAN);
            assertThat(ours).as("length %d", length).containsExactly(theirs.getLong(), theirs.getLong());
        }
    }

    /** Sets (h1, h2) in an empty first-layout filter of m bits and checks that exactly the formula's bits are set. */
    private static void assertSetsTheFormulasBits(long h1, long h2, int probes, long m) {
        BloomFilter filter = BloomFilter.empty(BloomFilter.VERSION_WHOLE, m, probes);
        filter.set(h1, h2);
        Set<Long> expected = new HashSet<>();
        for (int i = 0; i < probes; i++) {
            expected.add(Math.floorMod(h1 + i * h2, m)); // the format's definition, the sum wrapping at 64 bits
        }
        for (long bit : expected) {
            assertThat(filter.isSet(bit)).as("bit %d of h1=%d h2=%d m=%d", bit, h1, h2, m).isTrue();
        }
        assertThat(filter.bitsSet()).as("bits set for h1=%d h2=%d m=%d", h1, h2, m).isEqualTo(expected.size());
    }

    @Test
    void probesFollowedWithoutDivisionSetTheFormulasBits() {
        long[] edges = {0, 1, -1, 2, -2, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1,
            1L << 62, -(1L << 62), 0x5555_5555_5555_5555L, 0xAAAA_AAAA_AAAA_AAAAL};
        long[] sizes = {64, 128, 640, 1 << 20, (1 << 23) - 64};
        for (long m : sizes) {
            for (long h1 : edges) {
                for (long h2 : edges) {
                    assertSetsTheFormulasBits(h1, h2, 30, m);
                }
            }
        }
        SplittableRandom random = new SplittableRandom(11);
        for (int n = 0; n < 20_000; n++) {
            long m = 64 * (1 + random.nextLong(1 << 14));
            long h2 = random.nextInt(4) == 0 ? random.nextLong(-1000, 1000) : random.nextLong();
            assertSetsTheFormulasBits(random.nextLong(), h2, 1 + random.nextInt(30), m);
        }
        assertThat(BloomFilter.wrapModulo(64)).isZero();
        assertThat(BloomFilter.wrapModulo(640)).isEqualTo(java.math.BigInteger.ONE.shiftLeft(64)
                .mod(java.math.BigInteger.valueOf(640)).longValue());
    }

    /**
     * The blocked layout's definition, independently of the code's: block floor((h1 >>> 32) * blocks / 2^32), and
     * probe i the top 9 bits of h2 * G^(i + 1) modulo 2^64, all in that one block of 512 bits.
     */
    @Test
    void blockedProbesSetTheFormulasBitsInOneBlock() {
        java.math.BigInteger two64 = java.math.BigInteger.ONE.shiftLeft(64);
        java.math.BigInteger golden = new java.math.BigInteger("9E3779B97F4A7C15", 16);
        SplittableRandom random = new SplittableRandom(5);
        long[] edges = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 0xFFFF_FFFF_0000_0000L, 0x0000_0000_FFFF_FFFFL};
        for (int n = 0; n < 5_000; n++) {
            long h1 = n < edges.length * edges.length ? edges[n % edges.length] : random.nextLong();
            long h2 = n < edges.length * edges.length ? edges[n / edges.length] : random.nextLong();
            long blocks = n % 3 == 0 ? 1 : 1 + random.nextLong(4096);
            int probes = 1 + random.nextInt(30);
            BloomFilter filter = BloomFilter.empty(BloomFilter.VERSION_BLOCKED, blocks * 512, probes);
            filter.set(h1, h2);
            long block = java.math.BigInteger.valueOf(h1 >>> 32).multiply(java.math.BigInteger.valueOf(blocks))
                    .shiftRight(32).longValueExact();
            Set<Long> expected = new HashSet<>();
            java.math.BigInteger x = java.math.BigInteger.valueOf(h2).mod(two64);
            for (int i = 0; i < probes; i++) {
                x = x.multiply(golden).mod(two64);
                expected.add(block * 512 + x.shiftRight(55).longValueExact());
            }
            for (long bit : expected) {
                assertThat(filter.isSet(bit)).as("bit %d of h1=%d h2=%d blocks=%d", bit, h1, h2, blocks).isTrue();
            }
            assertThat(filter.bitsSet()).as("bits set for h1=%d h2=%d blocks=%d", h1, h2, blocks)
                    .isEqualTo(expected.size());
            assertThat(filter.mightContain(new BloomFilter.KeyHash(h1, h2))).isTrue();
        }
    }

    /** A filter built today has the bits a filter of the same keys had when the blocked layout was defined. */
    @Test
    void filterBitsAreThoseOfTheBlockedLayoutsDefinition() {
        BloomFilter.Builder b = BloomFilter.builder(10);
        for (int i = 0; i < 1000; i++) {
            b.add(("user" + (i * 7919L)).getBytes(StandardCharsets.US_ASCII));
        }
        b.add(new byte[0]);
        byte[] encoded = b.build().encode();
        assertThat(encoded[0]).isEqualTo(BloomFilter.VERSION_BLOCKED);
        assertThat(encoded).hasSize(6 + 20 * 64); // 10,010 bits rounded up to 20 blocks of 512
        assertThat(crc(encoded)).isEqualTo(BLOCKED_CRC);
    }

    /**
     * The builder keeps its keys' hashes in chunks (about 1,024 keys, then twice as many each, up to about 2^20):
     * across chunk boundaries it sets exactly the bits that setting each key's hash in an empty filter of the same size sets.
     */
    @Test
    void keysAcrossHashChunksSetTheBitsOfEachKey() {
        for (int n : new int[] {1007, 1008, 1009, 3008, 10_000}) {
            BloomFilter.Builder b = BloomFilter.builder(10);
            BloomFilter direct = BloomFilter.empty(BloomFilter.VERSION_BLOCKED, 512 * ((n * 10L + 511) / 512), 7);
            for (int i = 0; i < n; i++) {
                byte[] k = key("k", i);
                b.add(k);
                BloomFilter.KeyHash h = BloomFilter.hash(k);
                direct.set(h.h1(), h.h2());
            }
            assertThat(b.count()).isEqualTo(n);
            assertThat(b.build().encode()).as("%d keys", n).isEqualTo(direct.encode());
        }
    }

    /**
     * What a builder holds until it builds: 12 bytes a key in chunks that are never copied, at most one chunk more
     * than the keys need (a merge's output builds a filter of millions of keys; a doubling array of 16-byte hashes
     * held up to 24 bytes a key while it was copied). Counted with the JVM's per-thread allocation counter around
     * the adds only.
     */
    @Test
    void aBuilderHoldsTwelveBytesAKeyAndCopiesNone() {
        int n = 200_000;
        byte[][] keys = userKeys(n);
        BloomFilter.Builder[] built = new BloomFilter.Builder[1];
        long allocated = allocatedWhile(() -> built[0] = filled(BloomFilter.builder(10), keys));
        BloomFilter.Builder b = built[0];
        // Chunks of 1,008 to 131,056 keys (powers of two less 16) hold 260,992: 12 bytes each, plus lists and headers.
        assertThat(allocated).as("bytes allocated for %d keys", n).isBetween(12L * 260_992, 12L * 260_992 + 64 * 1024);
        assertThat(b.build().mightContain(keys[n - 1])).isTrue();
    }

    private static byte[][] userKeys(int n) {
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = key("user", i);
        }
        return keys;
    }

    private static BloomFilter.Builder filled(BloomFilter.Builder b, byte[][] keys) {
        for (byte[] k : keys) {
            b.add(k);
        }
        return b;
    }

    /** The heap bytes this thread allocates while {@code r} runs (the JVM's per-thread allocation counter). */
    private static long allocatedWhile(Runnable r) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        r.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /**
     * With a bound on its keys, a builder sets their bits in a filter sized for the bound and folds it at the end:
     * for any count up to the bound, the result is exactly the filter the same keys set in an empty filter of its
     * size, which holds at least the configured bits per key and, once folded, at most 2.25 times them.
     */
    @Test
    void aBoundedBuilderFoldsToTheFilterOfItsCount() {
        int bound = 200_000;
        for (int n : new int[] {0, 1, 50_000, 90_001, 100_000, 112_000, 113_000, 150_000, 199_999, 200_000}) {
            BloomFilter.Builder b = BloomFilter.builder(10, bound);
            for (int i = 0; i < n; i++) {
                b.add(key("k", i));
            }
            BloomFilter built = b.build();
            long bits = built.encode().length * 8L - 48;
            assertThat(bits).as("%d keys", n).isGreaterThanOrEqualTo(Math.max(512, 10L * n));
            if (n >= bound / 8) {
                assertThat(bits).as("%d keys", n).isLessThanOrEqualTo((long) (2.25 * 10 * n) + 512 * 16);
            }
            BloomFilter direct = BloomFilter.empty(BloomFilter.VERSION_BLOCKED, bits, 7);
            for (int i = 0; i < n; i++) {
                BloomFilter.KeyHash h = BloomFilter.hash(key("k", i));
                direct.set(h.h1(), h.h2());
            }
            assertThat(built.encode()).as("%d keys", n).isEqualTo(direct.encode());
        }
        BloomFilter.Builder full = BloomFilter.builder(10, bound);
        for (int i = 0; i < bound; i++) {
            full.add(key("k", i));
        }
        assertThat(full.build().encode().length * 8L - 48).as("a bound the keys reach: 1.125 times the bits")
                .isBetween(11_250L * bound / 1000, 11_250L * bound / 1000 + 512 * 32);
    }

    /** A bounded builder holds its filter, 1.25 bytes a key of the bound at 10 bits, not 12 bytes of hash a key. */
    @Test
    void aBoundedBuilderHoldsItsFilterNotTheHashes() {
        int n = 200_000;
        byte[][] keys = userKeys(n);
        BloomFilter.Builder[] built = new BloomFilter.Builder[1];
        long allocated = allocatedWhile(() -> built[0] = filled(BloomFilter.builder(10, n), keys));
        BloomFilter.Builder b = built[0];
        assertThat(allocated).as("bytes allocated for %d keys", n).isBetween(n * 10L / 8, n * 10L * 9 / 64 + 64 * 1024);
        BloomFilter f = b.build();
        for (byte[] k : keys) {
            assertThat(f.mightContain(k)).isTrue();
        }
        int falsePositives = 0;
        for (int i = 0; i < n; i++) {
            if (f.mightContain(key("other", i))) {
                falsePositives++;
            }
        }
        assertThat(falsePositives / (double) n).as("1.125 times the bits: fewer false positives")
                .isBetween(0.003, 0.01);
    }

    /** More keys than the bound make a filter with fewer bits per key, never one that forgets a key. */
    @Test
    void keysBeyondTheBoundAreStillFound() {
        int bound = 70_000;
        BloomFilter.Builder b = BloomFilter.builder(10, bound);
        for (int i = 0; i < 2 * bound; i++) {
            b.add(key("k", i));
        }
        BloomFilter f = b.build();
        for (int i = 0; i < 2 * bound; i++) {
            assertThat(f.mightContain(key("k", i))).isTrue();
        }
        assertThatThrownBy(() -> b.add(key("late", 0))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("after the filter was built in place");
        assertThatThrownBy(() -> BloomFilter.builder(10, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be negative, was -1");
    }

    /**
     * Below {@link BloomFilter#IN_PLACE_MIN_KEYS} of bound, or with a bound whose filter the format cannot hold, a
     * builder keeps hashes: its filter is the unbounded one.
     */
    @Test
    void aSmallOrHugeBoundBuildsTheUnboundedFilter() {
        for (long bound : new long[] {BloomFilter.IN_PLACE_MIN_KEYS - 1, 1L << 40}) {
            BloomFilter.Builder bounded = BloomFilter.builder(10, bound);
            BloomFilter.Builder unbounded = BloomFilter.builder(10);
            for (int i = 0; i < 3000; i++) {
                bounded.add(key("k", i));
                unbounded.add(key("k", i));
            }
            assertThat(bounded.build().encode()).as("bound %d", bound).isEqualTo(unbounded.build().encode());
        }
    }

    /**
     * The first layout is no longer built, but tables hold it: the same keys set by its probe sequence give the bits
     * they had when that format was defined, and its encoding is still read and probed.
     */
    @Test
    void theFirstLayoutKeepsItsBitsAndIsStillRead() {
        java.util.List<byte[]> keys = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            keys.add(("user" + (i * 7919L)).getBytes(StandardCharsets.US_ASCII));
        }
        keys.add(new byte[0]);
        BloomFilter whole = BloomFilter.empty(BloomFilter.VERSION_WHOLE, 64 * ((keys.size() * 10L + 63) / 64), 7);
        for (byte[] k : keys) {
            BloomFilter.KeyHash h = BloomFilter.hash(k);
            whole.set(h.h1(), h.h2());
        }
        byte[] encoded = whole.encode();
        assertThat(encoded).hasSize(1262);
        assertThat(crc(encoded)).isEqualTo("a13bc7b");
        BloomFilter read = BloomFilter.decode(encoded);
        assertThat(read.version()).isEqualTo(BloomFilter.VERSION_WHOLE);
        for (byte[] k : keys) {
            assertThat(read.mightContain(k)).isTrue();
        }
        int falsePositives = 0;
        for (int i = 0; i < 20_000; i++) {
            falsePositives += read.mightContain(key("absent", i)) ? 1 : 0;
        }
        assertThat(falsePositives / 20_000.0).isLessThan(0.02);
    }

    private static String crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return Long.toHexString(crc.getValue());
    }

    @Test
    void encodingRoundTripsExactly() {
        BloomFilter.Builder b = BloomFilter.builder(10);
        for (int i = 0; i < 1000; i++) {
            b.add(key("a", i));
        }
        BloomFilter f = b.build();
        BloomFilter g = BloomFilter.decode(f.encode());
        assertThat(g.encode()).isEqualTo(f.encode());
        for (int i = 0; i < 2000; i++) {
            assertThat(g.mightContain(key("a", i))).isEqualTo(f.mightContain(key("a", i)));
        }
        // The empty filter is valid and contains nothing.
        BloomFilter empty = BloomFilter.decode(BloomFilter.builder(10).build().encode());
        assertThat(empty.mightContain(key("a", 1))).isFalse();
    }

    @Test
    void malformedEncodingsAreRejectedWithTheReason() {
        byte[] good = BloomFilter.builder(10).add(key("a", 1)).build().encode();
        assertThatThrownBy(() -> BloomFilter.decode(new byte[3])).hasMessageContaining("shorter than its 6-byte header");
        byte[] version = good.clone();
        version[0] = 3;
        assertThatThrownBy(() -> BloomFilter.decode(version)).hasMessageContaining("unknown Bloom filter version 3");
        byte[] notWholeBlocks = java.util.Arrays.copyOf(good, good.length - 8); // 448 bits: a multiple of 64 only
        ByteBuffer.wrap(notWholeBlocks).putInt(2, 448);
        assertThatThrownBy(() -> BloomFilter.decode(notWholeBlocks)).hasMessageContaining("multiple of 512 bits");
        byte[] probes = good.clone();
        probes[1] = 0;
        assertThatThrownBy(() -> BloomFilter.decode(probes)).hasMessageContaining("probe count 0");
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
        assertThatThrownBy(() -> BloomFilter.decode(truncated)).hasMessageContaining("does not match its block");
        assertThatThrownBy(() -> BloomFilter.builder(0)).hasMessageContaining("[1, 64], was 0");
    }
}
