package io.lsmpolicies.ycsb.hyracks;

import io.lsmpolicies.lsm.io.DeviceProfile;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IFileHandle;
import org.apache.hyracks.api.io.IODeviceHandle;
import org.apache.hyracks.control.nc.io.DefaultDeviceResolver;
import org.apache.hyracks.control.nc.io.IOManager;

/**
 * The node controller's IO manager, with every data operation made to wait as long as an emulated device
 * ({@link DeviceProfile}: a fixed latency per operation plus its bytes at the device's bandwidth) would take, one
 * operation at a time: a shared "device busy until" clock, as our engine's {@code FileLayer} does. Hyracks 0.3.8
 * moves every page of an index through three methods of this class, which are the ones throttled: a page read
 * ({@code doSyncRead}, a buffer-cache miss), a page write ({@code doSyncWrite}, flush, merge and metadata pages,
 * one or a gathered run of pages per call) and a force ({@code sync}, charged as an operation of 0 bytes). The
 * buffer cache and the bulk loaders cast their IO manager to {@link IOManager} and call {@code doSyncWrite}
 * directly, which is why this is a subclass and not a wrapper of {@code IIOManager}. Thread-safe.
 */
final class ThrottledIOManager extends IOManager {
    private final DeviceProfile profile;
    private final AtomicLong busyUntil = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong throttledNanos = new AtomicLong();

    /** An IO manager over {@code devices}; {@code profile} null: no throttling. */
    ThrottledIOManager(List<IODeviceHandle> devices, DeviceProfile profile) throws HyracksDataException {
        super(devices, new DefaultDeviceResolver(), 2, 10);
        this.profile = profile;
    }

    /** Nanoseconds operations have waited for the emulated device so far. */
    long throttledNanos() {
        return throttledNanos.get();
    }

    @Override
    public int doSyncRead(IFileHandle fHandle, long offset, ByteBuffer data) throws HyracksDataException {
        int n = super.doSyncRead(fHandle, offset, data);
        charge(Math.max(0, n));
        return n;
    }

    @Override
    public int doSyncWrite(IFileHandle fHandle, long offset, ByteBuffer data) throws HyracksDataException {
        int n = super.doSyncWrite(fHandle, offset, data);
        charge(n);
        return n;
    }

    @Override
    public long doSyncWrite(IFileHandle fHandle, long offset, ByteBuffer[] dataArray) throws HyracksDataException {
        long n = super.doSyncWrite(fHandle, offset, dataArray);
        charge(n);
        return n;
    }

    @Override
    public void sync(IFileHandle fileHandle, boolean metadata) throws HyracksDataException {
        super.sync(fileHandle, metadata);
        charge(0);
    }

    /** Waits as long as the emulated device takes for one operation of {@code bytes}, after those queued. */
    private void charge(long bytes) {
        if (profile == null) {
            return;
        }
        long cost = profile.costNanos(bytes);
        long now = System.nanoTime();
        long end;
        while (true) {
            long busy = busyUntil.get();
            long start = busy == Long.MIN_VALUE ? now : Math.max(now, busy);
            end = start + cost;
            if (busyUntil.compareAndSet(busy, end)) {
                break;
            }
        }
        for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        throttledNanos.addAndGet(end - now);
    }
}
