package io.lsmpolicies.lsm.io;

import com.google.common.util.concurrent.RateLimiter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The one way the engine opens files: every channel it hands out counts its bytes and syncs by
 * {@link IoCause} into {@link #stats()}, and, with a {@link DeviceProfile}, makes each operation wait as long
 * as the emulated device would (one operation at a time: a shared "device busy until" clock). With a write rate
 * limit, flush and merge writes also wait for a token bucket (Guava's {@link RateLimiter}, one permit per byte;
 * after an idle spell it lets through at most one second's worth at once), as AsterixDB's
 * {@code storage.write.rate.limit} limits its background writes. Fault injection in tests goes through this same
 * seam ({@link #withFaults}, {@link FaultHook}). Thread-safe.
 */
public final class FileLayer {
    private static final boolean WINDOWS = System.getProperty("os.name", "").toLowerCase(Locale.ROOT)
            .startsWith("windows");
    private final IoStats stats = new IoStats();
    private final DeviceProfile profile;
    private final AtomicLong busyUntil = new AtomicLong(Long.MIN_VALUE);
    private final RateLimiter writeLimit;
    private final FaultHook hook;

    private FileLayer(DeviceProfile profile, long writeBytesPerSecond) {
        this(profile, writeBytesPerSecond, FaultHook.NONE);
    }

    private FileLayer(DeviceProfile profile, long writeBytesPerSecond, FaultHook hook) {
        if (writeBytesPerSecond < 0) {
            throw new IllegalArgumentException("write rate limit must be >= 0 bytes/s (0: unlimited), was "
                    + writeBytesPerSecond);
        }
        this.profile = profile;
        this.writeLimit = writeBytesPerSecond == 0 ? null : RateLimiter.create(writeBytesPerSecond);
        this.hook = hook;
    }

    /** {@return a layer that counts but does not throttle} */
    public static FileLayer plain() {
        return new FileLayer(null, 0);
    }

    /**
     * {@return a layer that counts and throttles to {@code profile} (null: no throttling)}
     *
     * @param profile the emulated device, or null for none
     */
    public static FileLayer throttled(DeviceProfile profile) {
        return new FileLayer(profile, 0);
    }

    /**
     * A layer that counts, throttles to {@code profile} (null: none) and limits flush and merge writes to
     * {@code writeBytesPerSecond} (0: unlimited).
     *
     * @param profile             the emulated device, or null for none
     * @param writeBytesPerSecond the most bytes per second flushes and merges may write (0: unlimited)
     * @return the layer
     */
    public static FileLayer of(DeviceProfile profile, long writeBytesPerSecond) {
        return new FileLayer(profile, writeBytesPerSecond);
    }

    /**
     * A layer for tests: every operation also goes through {@code hook} (see {@link FaultInjector}). No device,
     * no rate limit.
     *
     * @param hook the fault hook
     * @return the layer
     */
    public static FileLayer withFaults(FaultHook hook) {
        return new FileLayer(null, 0, hook);
    }

    FaultHook hook() {
        return hook;
    }

    /**
     * Opens {@code path} with {@code options}; its I/O is charged to {@code cause}.
     *
     * @param path    the file
     * @param cause   what the I/O is charged to
     * @param options the store's options
     * @return the open channel
     * @throws IOException if an I/O operation fails
     */
    public FileChannel open(Path path, IoCause cause, OpenOption... options) throws IOException {
        boolean creates = hook != FaultHook.NONE && !Files.exists(path)
                && (List.of(options).contains(StandardOpenOption.CREATE)
                        || List.of(options).contains(StandardOpenOption.CREATE_NEW));
        FileChannel channel = FileChannel.open(path, options);
        if (creates) {
            hook.created(path);
        }
        return new AccountedChannel(channel, path, cause, this);
    }

    /**
     * Appends to {@code channel}'s file through a memory mapping from now on (see {@link MappedAppends}): the next
     * append lands at {@code end}, which must be the file's size. The channel stays the caller's to close.
     *
     * @param channel a channel this layer opened for writing
     * @param end     the file's size: where the first append goes
     * @return the appender
     * @throws IOException if the file's size is not {@code end}
     */
    public MappedAppends mapAppends(FileChannel channel, long end) throws IOException {
        if (!(channel instanceof AccountedChannel accounted) || !accounted.openedBy(this)) {
            throw new IllegalArgumentException("not a channel of this file layer: " + channel);
        }
        if (channel.size() != end) {
            throw new IOException("mapped appends must start at the end of the file: it has " + channel.size()
                    + " bytes, not " + end);
        }
        return accounted.mapAppends(end);
    }

    // The other file operations the engine performs. Each goes through here, so that every one of them can be
    // counted, throttled or (in tests) failed at this one seam.

    /**
     * {@return whether {@code path} exists}
     *
     * @param path the file
     */
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    /**
     * {@return the size of {@code path} in bytes}
     *
     * @param path the file
     * @throws IOException if an I/O operation fails
     */
    public long size(Path path) throws IOException {
        return Files.size(path);
    }

    /**
     * {@return the entries of directory {@code dir}, sorted by name}
     *
     * @param dir the directory
     * @throws IOException if an I/O operation fails
     */
    public List<Path> list(Path dir) throws IOException {
        try (Stream<Path> listing = Files.list(dir)) {
            return listing.sorted().toList();
        }
    }

    /**
     * Creates {@code dir} and its missing parents.
     *
     * @param dir the directory
     * @throws IOException if an I/O operation fails
     */
    public void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir);
    }

    /**
     * Deletes {@code path}, which must exist.
     *
     * @param path the file
     * @throws IOException if an I/O operation fails
     */
    public void delete(Path path) throws IOException {
        hook.before(FileOp.DELETE, path);
        hook.deleting(path);
        Files.delete(path);
    }

    /**
     * Deletes {@code path} if it exists; whether it did.
     *
     * @param path the file
     * @return whether it existed
     * @throws IOException if an I/O operation fails
     */
    public boolean deleteIfExists(Path path) throws IOException {
        if (!Files.exists(path)) {
            return false;
        }
        hook.before(FileOp.DELETE, path);
        hook.deleting(path);
        return Files.deleteIfExists(path);
    }

    /**
     * Renames {@code from} to {@code to} atomically, replacing {@code to}.
     *
     * @param from the start of the range (inclusive; null: open)
     * @param to   the end of the range (exclusive; null: open)
     * @throws IOException if an I/O operation fails
     */
    public void moveAtomically(Path from, Path to) throws IOException {
        hook.before(FileOp.RENAME, from);
        hook.renaming(from, to);
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Forces {@code dir}'s entries (creations, renames, deletions) to the device. Skipped on Windows, where a
     * directory cannot be opened as a channel (NTFS journals the entries itself); everywhere else a failure is an
     * error.
     *
     * @param dir the directory
     * @throws IOException if an I/O operation fails
     */
    public void syncDirectory(Path dir) throws IOException {
        hook.before(FileOp.DIRECTORY_SYNC, dir);
        if (!WINDOWS) {
            try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
                ch.force(true);
            }
        }
        hook.directorySynced(dir);
    }

    /** {@return the bytes read, written and synced through this layer, by cause} */
    public IoStats stats() {
        return stats;
    }

    /** {@return the emulated device, or null} */
    public DeviceProfile profile() {
        return profile;
    }

    /**
     * Waits until the write rate limit allows {@code bytes} more background bytes ({@link IoCause#FLUSH} and
     * {@link IoCause#MERGE} writes; others pass). The wait is added to {@link IoStats#rateLimitedNanos()}.
     */
    void limitWrite(IoCause cause, long bytes) {
        if (writeLimit == null || bytes <= 0 || (cause != IoCause.FLUSH && cause != IoCause.MERGE)) {
            return;
        }
        double waited = 0;
        for (long left = bytes; left > 0; left -= Integer.MAX_VALUE) {
            waited += writeLimit.acquire((int) Math.min(left, Integer.MAX_VALUE));
        }
        stats.rateLimited((long) (waited * 1e9));
    }

    /** Waits as long as the emulated device takes for one operation of {@code bytes}, after those queued. */
    void charge(long bytes) {
        if (profile == null) {
            return;
        }
        long cost = profile.costNanos(bytes);
        long now = System.nanoTime();
        long end;
        while (true) {
            long busy = busyUntil.get();
            long start = Math.max(now, busy == Long.MIN_VALUE ? now : busy);
            end = start + cost;
            if (busyUntil.compareAndSet(busy, end)) {
                break;
            }
        }
        for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        stats.throttled(end - now);
    }
}
