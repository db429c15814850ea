package io.lsmpolicies.lsm.sstable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash3, the x64 128-bit variant with seed 0 (Austin Appleby's public-domain reference, {@code
 * MurmurHash3_x64_128}), over a range of a byte array, allocating nothing. The Bloom filters of the table format
 * are defined on it ({@link BloomFilter}), so its output is part of the on-disk format: it must never change.
 * The tests check it against an independent implementation (Guava's {@code Hashing.murmur3_128()}) on many keys.
 */
final class Murmur3 {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    private static final VarHandle LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Murmur3() {
    }

    /**
     * Hashes {@code bytes[from, from + length)} and stores the two 64-bit halves of the result, h1 and h2, at
     * {@code out[at]} and {@code out[at + 1]}.
     */
    static void hash128(byte[] bytes, int from, int length, long[] out, int at) {
        long h1 = 0;
        long h2 = 0;
        int end = from + (length & ~15);
        for (int i = from; i < end; i += 16) {
            long k1 = (long) LE.get(bytes, i);
            long k2 = (long) LE.get(bytes, i + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = length & 15;
        if (tail > 0) {
            long k1 = 0;
            long k2 = 0;
            for (int j = tail - 1; j >= 8; j--) {
                k2 = k2 << 8 | (bytes[end + j] & 0xFF);
            }
            for (int j = Math.min(tail, 8) - 1; j >= 0; j--) {
                k1 = k1 << 8 | (bytes[end + j] & 0xFF);
            }
            if (tail > 8) {
                h2 ^= mixK2(k2);
            }
            h1 ^= mixK1(k1);
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        out[at] = h1;
        out[at + 1] = h2;
    }

    private static long mixK1(long k1) {
        return Long.rotateLeft(k1 * C1, 31) * C2;
    }

    private static long mixK2(long k2) {
        return Long.rotateLeft(k2 * C2, 33) * C1;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
