package io.lsmpolicies.lsm.io;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** Bytes and operations by {@link IoCause}, counted at the file layer. Thread-safe, cheap to update. */
public final class IoStats {
    private final LongAdder[] read = adders();
    private final LongAdder[] written = adders();
    private final LongAdder[] syncs = adders();
    private final LongAdder throttledNanos = new LongAdder();
    private final LongAdder rateLimitedNanos = new LongAdder();

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[IoCause.values().length];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    void read(IoCause cause, long bytes) {
        read[cause.ordinal()].add(bytes);
    }

    void written(IoCause cause, long bytes) {
        written[cause.ordinal()].add(bytes);
    }

    void synced(IoCause cause) {
        syncs[cause.ordinal()].increment();
    }

    void throttled(long nanos) {
        throttledNanos.add(nanos);
    }

    void rateLimited(long nanos) {
        rateLimitedNanos.add(nanos);
    }

    /**
     * {@return the bytes read for {@code cause}}
     *
     * @param cause what the I/O was for
     */
    public long bytesRead(IoCause cause) {
        return read[cause.ordinal()].sum();
    }

    /**
     * {@return the bytes written for {@code cause}}
     *
     * @param cause what the I/O was for
     */
    public long bytesWritten(IoCause cause) {
        return written[cause.ordinal()].sum();
    }

    /**
     * {@return the syncs for {@code cause}}
     *
     * @param cause what the I/O was for
     */
    public long syncs(IoCause cause) {
        return syncs[cause.ordinal()].sum();
    }

    /** {@return total time callers spent waiting for the emulated device} */
    public long throttledNanos() {
        return throttledNanos.sum();
    }

    /** {@return total time flushes and merges spent waiting for the write rate limit} */
    public long rateLimitedNanos() {
        return rateLimitedNanos.sum();
    }

    /**
     * Bytes written by cause, for reports.
     *
     * @return the bytes by cause
     */
    public Map<IoCause, Long> writtenByCause() {
        Map<IoCause, Long> out = new EnumMap<>(IoCause.class);
        for (IoCause c : IoCause.values()) {
            out.put(c, bytesWritten(c));
        }
        return out;
    }
}
