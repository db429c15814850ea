package io.lsmpolicies.feeds;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.records.KeyEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a feed's records go: one store, or several hash partitions (one store each), and the record fields that
 * form the primary key (in key order). A record goes to partition {@link #partitionOf(byte[], int)} of its
 * encoded key. The feed does not own the stores: whoever opened them closes them, after stopping the feeds that
 * write to them. A node's partitions may be reopened while it runs (see {@link Partition}): operations take a
 * {@link Partition.Lease} on a partition's store.
 *
 * @param name       the dataset's name
 * @param partitions its partitions, partition 0 first; at least one
 * @param keyFields  the primary key fields, in key order
 */
public record Dataset(String name, List<Partition> partitions, List<String> keyFields) {
    /**
     * Copies the partitions and checks them.
     *
     * @param name       the dataset's name
     * @param partitions its partitions, partition 0 first
     * @param keyFields  the primary key fields, in key order
     * @throws IllegalArgumentException if the name is blank, there is no partition, a partition is not of this
     *                                  dataset or not in its place, or the key fields are bad
     */
    public Dataset {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("dataset name must not be blank");
        }
        partitions = List.copyOf(partitions); // rejects null partitions
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("dataset " + name + " has no partition");
        }
        for (int i = 0; i < partitions.size(); i++) {
            Partition p = partitions.get(i);
            if (!p.dataset().equals(name) || p.index() != i || p.count() != partitions.size()) {
                throw new IllegalArgumentException("dataset " + name + ": " + p + " is not its partition " + i
                        + " of " + partitions.size());
            }
        }
        keyFields = new KeyEncoder(keyFields).fields();
    }

    /**
     * A dataset of one store.
     *
     * @param name      the dataset's name
     * @param store     its store, never reopened
     * @param keyFields the primary key fields, in key order
     */
    public Dataset(String name, LsmStore store, List<String> keyFields) {
        this(name, List.of(Partition.of(name, 0, 1, Objects.requireNonNull(store, "store"))), keyFields);
    }

    /**
     * {@return a dataset of one store}
     *
     * @param name      the dataset's name
     * @param store     its store, never reopened
     * @param keyFields the primary key fields, in key order
     */
    public static Dataset of(String name, LsmStore store, String... keyFields) {
        return new Dataset(name, store, List.of(keyFields));
    }

    /**
     * {@return a dataset hash-partitioned over {@code stores}, in partition order; they are never reopened}
     *
     * @param name      the dataset's name
     * @param stores    the partitions' stores, partition 0 first
     * @param keyFields the primary key fields, in key order
     */
    public static Dataset partitioned(String name, List<LsmStore> stores, String... keyFields) {
        List<Partition> parts = new ArrayList<>();
        for (LsmStore s : stores) {
            parts.add(Partition.of(name, parts.size(), stores.size(), s));
        }
        return new Dataset(name, parts, List.of(keyFields));
    }

    /**
     * The store of a dataset of one partition, without a lease (see {@link Partition#store()}).
     *
     * @return the store
     * @throws IllegalStateException         if the dataset has several partitions (use {@link #partitionFor})
     * @throws PartitionUnavailableException if the partition has no store
     */
    public LsmStore store() throws PartitionUnavailableException {
        if (partitions.size() != 1) {
            throw new IllegalStateException("dataset " + name + " has " + partitions.size()
                    + " partitions; use partitionFor(key)");
        }
        return partitions.get(0).store();
    }

    /**
     * {@return the partition holding {@code key} (an encoded primary key)}
     *
     * @param key an encoded primary key
     */
    public Partition partitionFor(byte[] key) {
        return partitions.get(partitionOf(key, partitions.size()));
    }

    /**
     * {@return the store holding {@code key}, without a lease (see {@link Partition#store()})}
     *
     * @param key an encoded primary key
     * @throws PartitionUnavailableException if its partition has no store
     */
    public LsmStore storeFor(byte[] key) throws PartitionUnavailableException {
        return partitionFor(key).store();
    }

    /**
     * {@return every partition's store, in partition order, without leases (see {@link Partition#store()})}
     *
     * @throws PartitionUnavailableException if a partition has no store
     */
    public List<LsmStore> stores() throws PartitionUnavailableException {
        List<LsmStore> out = new ArrayList<>();
        for (Partition p : partitions) {
            out.add(p.store());
        }
        return out;
    }

    /**
     * The partition in {@code [0, count)} of an encoded primary key: FNV-1a over the bytes, then MurmurHash3's
     * finaliser. This is a persistent format: records on disk were placed by it, so it must never change, and a
     * dataset must be reopened with the same partition count.
     *
     * @param key   an encoded primary key
     * @param count the number of partitions, {@code >= 1}
     * @return the key's partition
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
