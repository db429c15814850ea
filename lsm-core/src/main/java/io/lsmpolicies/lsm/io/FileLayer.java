package io.lsmpolicies.lsm.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The one way the engine opens files: every channel it hands out counts its bytes and syncs by
 * {@link IoCause} into {@link #stats()}, and, with a {@link DeviceProfile}, makes each operation wait as long
 * as the emulated device would (one operation at a time: a shared "device busy until" clock). Issue #9's
 * fault injection wraps this same seam. Thread-safe.
 */
public final class FileLayer {
    private final IoStats stats = new IoStats();
    private final DeviceProfile profile;
    private final AtomicLong busyUntil = new AtomicLong(Long.MIN_VALUE);

    private FileLayer(DeviceProfile profile) {
        this.profile = profile;
    }

    /** A layer that counts but does not throttle. */
    public static FileLayer plain() {
        return new FileLayer(null);
    }

    /** A layer that counts and throttles to {@code profile} (null: no throttling). */
    public static FileLayer throttled(DeviceProfile profile) {
        return new FileLayer(profile);
    }

    /** Opens {@code path} with {@code options}; its I/O is charged to {@code cause}. */
    public FileChannel open(Path path, IoCause cause, OpenOption... options) throws IOException {
        return new AccountedChannel(FileChannel.open(path, options), cause, this);
    }

    public IoStats stats() {
        return stats;
    }

    /** The emulated device, or null. */
    public DeviceProfile profile() {
        return profile;
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
