package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.lsm.cli.YcsbKeys;
import java.util.SplittableRandom;

/**
 * The records both systems store: record {@code i}'s key is YCSB's key in hashed order ({@code user} + the FNV-64
 * hash of {@code i}, {@link YcsbKeys}, as {@code bin/lsm load} and YCSB write it), and its value is
 * {@code valueSize} pseudo-random bytes that depend only on {@code i}, so every run, thread split and system
 * writes the same bytes, and a read can check what it got.
 */
final class Records {
    private static final long SALT = 0x5DEECE66DL;

    private Records() {
    }

    /** Record {@code i}'s key. */
    static byte[] key(long i) {
        return YcsbKeys.key(i, YcsbKeys.KeyOrder.HASHED);
    }

    /** Record {@code i}'s value of {@code size} bytes. */
    static byte[] value(long i, int size) {
        byte[] v = new byte[size];
        new SplittableRandom(i * 0x9E3779B97F4A7C15L ^ SALT).nextBytes(v);
        return v;
    }
}
