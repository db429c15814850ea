package io.lsmpolicies.feeds;

import io.lsmpolicies.lsm.LsmStore;
import java.util.List;
import java.util.Objects;

/**
 * Where a feed's records go: one store, or several hash partitions (one store each), and the record fields that
 * form the primary key (in key order). A record goes to partition {@link #partitionOf(byte[], int)} of its
 * encoded key. The feed does not own the stores: whoever opened them closes them, after stopping the feeds that
 * write to them.
 *
 * @param name       the dataset's name
 * @param partitions its stores, partition 0 first; at least one
 * @param keyFields  the primary key fields, in key order
 */
public record Dataset(String name, List<LsmStore> partitions, List<String> keyFields) {
    /** @throws IllegalArgumentException if the name is blank, there is no partition, or the key fields are bad */
    public Dataset {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("dataset name must not be blank");
        }
        partitions = List.copyOf(partitions); // rejects null stores
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("dataset " + name + " has no partition");
        }
        keyFields = new KeyEncoder(keyFields).fields();
    }

    /** A dataset of one store. */
    public Dataset(String name, LsmStore store, List<String> keyFields) {
        this(name, List.of(Objects.requireNonNull(store, "store")), keyFields);
    }

    public static Dataset of(String name, LsmStore store, String... keyFields) {
        return new Dataset(name, store, List.of(keyFields));
    }

    /** A dataset hash-partitioned over {@code partitions}, in partition order. */
    public static Dataset partitioned(String name, List<LsmStore> partitions, String... keyFields) {
        return new Dataset(name, partitions, List.of(keyFields));
    }

    /**
     * The store of a dataset of one partition.
     *
     * @throws IllegalStateException if the dataset has several partitions (use {@link #storeFor})
     */
    public LsmStore store() {
        if (partitions.size() != 1) {
            throw new IllegalStateException("dataset " + name + " has " + partitions.size()
                    + " partitions; use storeFor(key)");
        }
        return partitions.get(0);
    }

    /** The store holding {@code key} (an encoded primary key). */
    public LsmStore storeFor(byte[] key) {
        return partitions.get(partitionOf(key, partitions.size()));
    }

    /**
     * The partition in {@code [0, count)} of an encoded primary key: FNV-1a over the bytes, then MurmurHash3's
     * finaliser. This is a persistent format: records on disk were placed by it, so it must never change, and a
     * dataset must be reopened with the same partition count.
     */
    public static int partitionOf(byte[] key, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("partition count must be at least 1, was " + count);
        }
        int h = 0x811C9DC5;
        for (byte b : key) {
            h ^= b & 0xFF;
            h *= 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return Math.floorMod(h, count);
    }
}
