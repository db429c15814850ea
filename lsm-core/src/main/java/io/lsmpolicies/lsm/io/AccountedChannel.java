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

    private int read(int n) {
        if (n > 0) {
            layer.stats().read(cause, n);
            layer.charge(n);
        }
        return n;
    }

    private long read(long n) {
        if (n > 0) {
            layer.stats().read(cause, n);
            layer.charge(n);
        }
        return n;
    }

    private int written(int n) {
        layer.stats().written(cause, n);
        layer.charge(n);
        return n;
    }

    private long written(long n) {
        layer.stats().written(cause, n);
        layer.charge(n);
        return n;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return read(delegate.read(dst));
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return read(delegate.read(dsts, offset, length));
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return written(delegate.write(src));
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return written(delegate.write(srcs, offset, length));
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
        return read(delegate.transferTo(position, count, target));
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return written(delegate.transferFrom(src, position, count));
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return read(delegate.read(dst, position));
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        return written(delegate.write(src, position));
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
