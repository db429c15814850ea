package io.lsmpolicies.lsm.stress;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * What each key of a stress run should hold, in a memory-mapped file that survives the worker's SIGKILL (the
 * kernel keeps the mapping's pages; RocksDB's stress test keeps its expected state the same way). Per key, two
 * longs: the id of the value the store acknowledged ({@link #ABSENT} for none or deleted), and the id of a write in
 * flight ({@link #NONE} if none). A worker marks a write pending before it starts and records it once the store
 * returns; a checker accepts either value for a pending key. Value ids are positive; {@link #value} derives the
 * bytes. Not thread-safe (one worker thread).
 */
public final class ExpectedState implements AutoCloseable {
    /** The expected value of a key that is absent or deleted. */
    public static final long ABSENT = -1;
    /** A pending slot with no write in flight. */
    public static final long NONE = Long.MIN_VALUE;
    /** A pending delete. */
    public static final long DELETE = -1;

    private final FileChannel channel;
    private final MappedByteBuffer map;
    private final int keys;

    private ExpectedState(FileChannel channel, MappedByteBuffer map, int keys) {
        this.channel = channel;
        this.map = map;
        this.keys = keys;
    }

    /**
     * Opens the state of {@code keys} keys in {@code file}. A new state (every key absent, nothing pending) is
     * written in full to a temporary file and renamed into place, so a kill while it is created never leaves a
     * half-initialised state behind (an early kill once did, and the check read zeros as expected values).
     */
    public static ExpectedState open(Path file, int keys) throws IOException {
        if (!Files.exists(file)) {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ExpectedState s = new ExpectedState(ch, ch.map(FileChannel.MapMode.READ_WRITE, 0, 16L * keys), keys);
                for (int k = 0; k < keys; k++) {
                    s.set(k, ABSENT);
                    s.clearPending(k);
                }
                s.map.force();
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new ExpectedState(ch, ch.map(FileChannel.MapMode.READ_WRITE, 0, 16L * keys), keys);
    }

    public int keys() {
        return keys;
    }

    public long expected(int key) {
        return map.getLong(16 * key);
    }

    public long pending(int key) {
        return map.getLong(16 * key + 8);
    }

    /** Marks a write of value {@code id} (or {@link #DELETE}) to {@code key} as in flight. */
    public void markPending(int key, long id) {
        map.putLong(16 * key + 8, id);
    }

    /** The store acknowledged {@code id} (or {@link #ABSENT} for a delete) for {@code key}; nothing in flight. */
    public void acknowledge(int key, long id) {
        set(key, id);
        clearPending(key);
    }

    private void set(int key, long id) {
        map.putLong(16 * key, id);
    }

    private void clearPending(int key) {
        map.putLong(16 * key + 8, NONE);
    }

    /** The stored key of key number {@code key}. */
    public static byte[] key(int key) {
        return String.format("stress%07d", key).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** The value bytes of value id {@code id} of key {@code key}: 8 to 200 bytes, derived, never all alike. */
    public static byte[] value(int key, long id) {
        long x = id * 0x9E3779B97F4A7C15L ^ key;
        int n = 8 + (int) Math.floorMod(x, 193);
        byte[] v = new byte[n];
        for (int i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            v[i] = (byte) x;
        }
        return v;
    }

    @Override
    public void close() throws IOException {
        map.force();
        channel.close();
    }
}
