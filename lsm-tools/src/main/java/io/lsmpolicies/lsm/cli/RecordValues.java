package io.lsmpolicies.lsm.cli;

import java.util.SplittableRandom;

/**
 * The values {@code bin/lsm load} writes: random bytes that a checker can derive again from the load's seed,
 * so a crash test knows every record's expected value without keeping a copy.
 *
 * <p>Definition: the value of {@code record} at {@code version} is the first {@code size} bytes of
 * {@code new SplittableRandom(mix(mix(mix(seed) + record) + version)).nextBytes(..)}, where {@code mix} is
 * Stafford's variant 13 of the MurmurHash3 64-bit finalizer. An insert writes version 0; an overwrite chosen by
 * {@code --update-fraction} writes version {@code 1 + its operation number} (counted from {@code --start}), so
 * overwrites of one record differ. The seeds are mixed before use because {@code SplittableRandom}s whose seeds
 * differ by its internal gamma yield shifted copies of one stream.
 */
public final class RecordValues {
    private RecordValues() {
    }

    /**
     * The value of {@code record} at {@code version} under {@code seed}; {@code size} bytes.
     *
     * @throws IllegalArgumentException if {@code size < 0}
     */
    public static byte[] value(long seed, long record, long version, int size) {
        if (size < 0) {
            throw new IllegalArgumentException("value size must be >= 0, was " + size);
        }
        byte[] value = new byte[size];
        new SplittableRandom(mix(mix(mix(seed) + record) + version)).nextBytes(value);
        return value;
    }

    /** Stafford's variant 13 of the MurmurHash3 finalizer: a bijection on longs with full avalanche. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
