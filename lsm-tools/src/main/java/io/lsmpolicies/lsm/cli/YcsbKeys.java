package io.lsmpolicies.lsm.cli;

import java.nio.charset.StandardCharsets;

/**
 * The keys YCSB's core workload gives record numbers, so a store loaded by {@code bin/lsm load} holds the keys
 * a YCSB run against it would ask for: {@code "user"} followed by the decimal record number ({@link
 * KeyOrder#ORDERED}) or by the decimal FNV-64 hash of the record number ({@link KeyOrder#HASHED}, YCSB's
 * default, which scatters consecutive inserts over the key space). As in YCSB's {@code CoreWorkload.buildKeyName}
 * with its default zero padding of 1, no padding is added, so ordered keys sort as strings ({@code user10}
 * before {@code user2}).
 */
public final class YcsbKeys {
    /** YCSB's {@code Utils.FNV_OFFSET_BASIS_64}. */
    static final long FNV_OFFSET_BASIS_64 = 0xCBF29CE484222325L;
    /** YCSB's {@code Utils.FNV_PRIME_64}. */
    static final long FNV_PRIME_64 = 1099511628211L;

    /** How record numbers become keys. */
    public enum KeyOrder {
        /** {@code "user" + fnvhash64(record)}: YCSB's default ({@code insertorder=hashed}). */
        HASHED,
        /** {@code "user" + record} ({@code insertorder=ordered}). */
        ORDERED
    }

    private YcsbKeys() {
    }

    /**
     * YCSB's {@code Utils.fnvhash64}: FNV-1a over the 8 bytes of {@code value}, lowest byte first (arithmetic
     * shifts, as in YCSB), then {@link Math#abs} (so {@code Long.MIN_VALUE} stays negative, as in YCSB).
     */
    public static long fnvhash64(long value) {
        long hash = FNV_OFFSET_BASIS_64;
        long v = value;
        for (int i = 0; i < 8; i++) {
            long octet = v & 0xff;
            v = v >> 8;
            hash ^= octet;
            hash *= FNV_PRIME_64;
        }
        return Math.abs(hash);
    }

    /** The key name of {@code record}, e.g. {@code user6284781860667377211} for record 0 hashed. */
    public static String name(long record, KeyOrder order) {
        return "user" + (order == KeyOrder.HASHED ? fnvhash64(record) : record);
    }

    /** {@link #name} as UTF-8 bytes (all ASCII). */
    public static byte[] key(long record, KeyOrder order) {
        return name(record, order).getBytes(StandardCharsets.US_ASCII);
    }
}
