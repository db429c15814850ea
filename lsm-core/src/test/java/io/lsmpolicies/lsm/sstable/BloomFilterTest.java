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
        // Theory for 10 bits per key and 7 probes: about 0.82 %.
        assertThat(falsePositives / (double) n).isBetween(0.004, 0.015);
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

    /** Sets (h1, h2) in an empty filter of m bits and checks that exactly the formula's bits are set. */
    private static void assertSetsTheFormulasBits(long h1, long h2, int probes, long m) {
        BloomFilter filter = BloomFilter.empty(m, probes);
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

    /** A filter built today has the bits a filter of the same keys had when the format was defined. */
    @Test
    void filterBitsAreThoseOfTheFormatsFirstVersion() {
        BloomFilter.Builder b = BloomFilter.builder(10);
        for (int i = 0; i < 1000; i++) {
            b.add(("user" + (i * 7919L)).getBytes(StandardCharsets.US_ASCII));
        }
        b.add(new byte[0]);
        byte[] encoded = b.build().encode();
        CRC32C crc = new CRC32C();
        crc.update(encoded);
        assertThat(encoded).hasSize(1262);
        assertThat(Long.toHexString(crc.getValue())).isEqualTo("a13bc7b");
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
        version[0] = 2;
        assertThatThrownBy(() -> BloomFilter.decode(version)).hasMessageContaining("unknown Bloom filter version 2");
        byte[] probes = good.clone();
        probes[1] = 0;
        assertThatThrownBy(() -> BloomFilter.decode(probes)).hasMessageContaining("probe count 0");
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
        assertThatThrownBy(() -> BloomFilter.decode(truncated)).hasMessageContaining("does not match its block");
        assertThatThrownBy(() -> BloomFilter.builder(0)).hasMessageContaining("[1, 64], was 0");
    }
}
