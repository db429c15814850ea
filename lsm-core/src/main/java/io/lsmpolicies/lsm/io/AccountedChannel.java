package io.lsmpolicies.lsm.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * A {@link FileChannel} that reports its bytes to a {@link FileLayer} and passes each read, write and sync
 * through the layer's {@link FaultHook}; everything else is delegated.
 */
final class AccountedChannel extends FileChannel {
    private final FileChannel delegate;
    private final Path path;
    private final IoCause cause;
    private final FileLayer layer;
    private final FaultHook hook;

    AccountedChannel(FileChannel delegate, Path path, IoCause cause, FileLayer layer) {
        this.delegate = delegate;
        this.path = path;
        this.cause = cause;
        this.layer = layer;
        this.hook = layer.hook();
    }

    /** {@return whether {@code layer} opened this channel} */
    boolean openedBy(FileLayer layer) {
        return this.layer == layer;
    }

    /** {@return appends to this file through a mapping (see {@link MappedAppends}), the first at {@code end}} */
    MappedAppends mapAppends(long end) {
        return new MappedAppends(this, delegate, path, hook, end);
    }

    /** A read of {@code n} bytes into {@code dst} from {@code start}, as the hook lets it end (maybe shorter). */
    private int afterRead(ByteBuffer dst, int start, int n, boolean positional) throws IOException {
        if (n <= 0 || hook == FaultHook.NONE) {
            return n;
        }
        int kept = hook.afterRead(path, dst, start, n);
        if (kept < n) {
            dst.position(start + kept);
            if (!positional) {
                delegate.position(delegate.position() - (n - kept));
            }
        }
        return kept;
    }

    private void beforeWrite() throws IOException {
        hook.before(FileOp.WRITE, path);
    }

    /**
     * Writes {@code src} with {@code write}, or only as much of it as the hook lets through (a short write: the
     * rest stays in {@code src}, as after a short {@code write(2)}).
     */
    private int writeLimited(ByteBuffer src, WriteCall write) throws IOException {
        int n = src.remaining();
        int allowed = hook == FaultHook.NONE ? n : hook.writable(path, n);
        if (allowed >= n) {
            return write.write(src);
        }
        ByteBuffer part = src.duplicate();
        part.limit(part.position() + Math.max(0, allowed));
        int written = write.write(part);
        src.position(src.position() + written);
        return written;
    }

    @FunctionalInterface
    private interface WriteCall {
        int write(ByteBuffer src) throws IOException;
    }

    private void afterWrite() throws IOException {
        if (hook != FaultHook.NONE) {
            hook.written(path, delegate.size());
        }
    }

    /** Records {@code n} bytes moved (n may be -1 at end of file) and waits for the emulated device. */
    long count(long n, boolean write) {
        if (n > 0 || write) {
            if (write) {
                layer.stats().written(cause, Math.max(0, n));
                layer.limitWrite(cause, n);
            } else {
                layer.stats().read(cause, n);
            }
            layer.charge(Math.max(0, n));
        }
        return n;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        hook.before(FileOp.READ, path);
        int start = dst.position();
        return (int) count(afterRead(dst, start, delegate.read(dst), false), false);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        hook.before(FileOp.READ, path);
        return count(delegate.read(dsts, offset, length), false);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        beforeWrite();
        int n = writeLimited(src, delegate::write);
        afterWrite();
        return (int) count(n, true);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        beforeWrite();
        long n = delegate.write(srcs, offset, length);
        afterWrite();
        return count(n, true);
    }

    @Override
    public long position() throws IOException {
        return delegate.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        delegate.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        delegate.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        force(metaData, () -> delegate.size());
    }

    /** The bytes of the file a force makes durable: those written before it began. */
    @FunctionalInterface
    interface DurableSize {
        long get() throws IOException;
    }

    /**
     * Forces the file, telling the fault hook that the first {@code durable.get()} bytes, read before the force
     * begins, are durable (the file's size, or for {@link MappedAppends} the end of its appends).
     */
    void force(boolean metaData, DurableSize durable) throws IOException {
        hook.before(FileOp.SYNC, path);
        // What was written before the force began is durable after it; a write another thread makes meanwhile
        // may or may not be, so the fault model counts only the first.
        long written = hook != FaultHook.NONE ? durable.get() : 0;
        delegate.force(metaData);
        if (hook != FaultHook.NONE) {
            hook.synced(path, written);
        }
        layer.stats().synced(cause);
        layer.charge(0);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return count(delegate.transferTo(position, count, target), false);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return count(delegate.transferFrom(src, position, count), true);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        hook.before(FileOp.READ, path);
        int start = dst.position();
        return (int) count(afterRead(dst, start, delegate.read(dst, position), true), false);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        beforeWrite();
        int n = writeLimited(src, b -> delegate.write(b, position));
        afterWrite();
        return (int) count(n, true);
    }

    /** Not supported: a mapping would move bytes the layer cannot see (appends go through {@link MappedAppends}). */
    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) {
        throw new UnsupportedOperationException("memory mapping bypasses the file layer's accounting");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return delegate.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return delegate.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        delegate.close();
    }
}
