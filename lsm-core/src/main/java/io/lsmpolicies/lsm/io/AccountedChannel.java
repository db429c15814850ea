package io.lsmpolicies.lsm.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/** A {@link FileChannel} that reports its bytes to a {@link FileLayer}; everything else is delegated. */
final class AccountedChannel extends FileChannel {
    private final FileChannel delegate;
    private final IoCause cause;
    private final FileLayer layer;

    AccountedChannel(FileChannel delegate, IoCause cause, FileLayer layer) {
        this.delegate = delegate;
        this.cause = cause;
        this.layer = layer;
    }

    /** Records {@code n} bytes moved (n may be -1 at end of file) and waits for the emulated device. */
    private long count(long n, boolean write) {
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
        return (int) count(delegate.read(dst), false);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return count(delegate.read(dsts, offset, length), false);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return (int) count(delegate.write(src), true);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return count(delegate.write(srcs, offset, length), true);
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
        delegate.force(metaData);
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
        return (int) count(delegate.read(dst, position), false);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        return (int) count(delegate.write(src, position), true);
    }

    /** Not supported: a mapping would move bytes the layer cannot see. */
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
