package io.lsmpolicies.lsm.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Appends to a file through a memory mapping, so that an append is a copy into the page cache instead of a system
 * call: a log written in many small pieces spends most of a {@code write(2)} on the call itself and on extending
 * the file a page at a time. Made by {@link FileLayer#mapAppends}; one writer thread at a time, but {@link #force}
 * may run on another thread while appends go on.
 *
 * <p>The file is claimed ahead of the appends in steps of {@value #STEP_BYTES} bytes: zeros are written there with
 * one {@code write(2)} (so a full device fails that write, never a copy into the mapping, and the page cache holds
 * the step's pages before they are touched), the step is mapped, and appends copy into it. The file is therefore
 * up to a step longer than what was appended, the rest zeros, until {@link #trim} cuts it at {@link #end()}; a log
 * reader takes zeros after the last record for the end of the log (a crash leaves them).
 *
 * <p>The layer sees what a {@code write(2)} would show it: each append is charged to the file's {@link IoCause},
 * waits for the emulated device and passes the fault hook as a {@link FileOp#WRITE} (which may fail it or cut it
 * short); a force is a {@link FileOp#SYNC} that makes the bytes appended before it durable. The zeros of a claim
 * are a write the hook may fail (a full device), not counted as the file's bytes.
 *
 * <p>What a mapping cannot do as a {@code write(2)} does: report a fault where it happened. If the file is cut under
 * the writer (by another process), or the device fails to read back a claimed page the kernel had dropped, the copy
 * faults, and the JVM reports it as an {@link InternalError} thrown in the writing thread, in compiled code at a
 * later point than the copy. An append turns one it catches into an {@link IOException}; the write-ahead log's group
 * commit fails its segment on one thrown during the group write (the usual place); elsewhere it reaches the thread's
 * caller. Neither happens to a file only the store writes on a working device.
 */
public final class MappedAppends implements Closeable {
    /** Bytes claimed (written as zeros and mapped) at a time. */
    public static final int STEP_BYTES = 1 << 20;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(STEP_BYTES).asReadOnlyBuffer();

    private final AccountedChannel channel;
    private final FileChannel file;
    private final Path path;
    private final FaultHook hook;
    /** Bytes appended: the file's size in meaning. Written by the writer, read by a force on another thread. */
    private volatile long end;
    /** The file's size on disk: {@link #end} and the zeros claimed after it. */
    private long claimed;
    private MappedByteBuffer window;
    private long windowStart;

    MappedAppends(AccountedChannel channel, FileChannel file, Path path, FaultHook hook, long end) {
        this.channel = channel;
        this.file = file;
        this.path = path;
        this.hook = hook;
        this.end = end;
        this.claimed = end;
    }

    /** {@return the bytes appended so far, from the start of the file} */
    public long end() {
        return end;
    }

    /**
     * Appends {@code src}'s remaining bytes at {@link #end()}, or as many as the fault hook lets through (a short
     * write: the rest stays in {@code src}).
     *
     * @param src the bytes
     * @return the bytes appended
     * @throws IOException if claiming space failed (say, the device is full) or the hook failed the write
     */
    public int append(ByteBuffer src) throws IOException {
        hook.before(FileOp.WRITE, path);
        int n = src.remaining();
        int allowed = hook == FaultHook.NONE ? n : Math.max(0, Math.min(n, hook.writable(path, n)));
        int copied = 0;
        while (copied < allowed) {
            long at = end;
            if (window == null || at >= windowStart + window.capacity()) {
                claimStepAt(at);
            }
            int k = (int) Math.min(allowed - copied, windowStart + window.capacity() - at);
            try {
                window.put((int) (at - windowStart), src, src.position(), k);
            } catch (InternalError e) { // the JVM's report of a fault in the mapping: the file was cut under it
                throw new IOException("the log file " + path + " changed under its writer (cut or removed "
                        + "space at byte " + at + "): " + e.getMessage(), e);
            }
            src.position(src.position() + k);
            copied += k;
            end = at + k;
        }
        channel.count(copied, true);
        return copied;
    }

    /** Writes zeros over the step that starts at {@code at} (past what is claimed) and maps it. */
    private void claimStepAt(long at) throws IOException {
        unmap();
        if (claimed < at + STEP_BYTES) {
            hook.before(FileOp.WRITE, path);
            ByteBuffer zeros = ZEROS.duplicate();
            zeros.limit((int) (at + STEP_BYTES - claimed));
            long from = claimed;
            while (zeros.hasRemaining()) {
                from += file.write(zeros, from);
            }
            claimed = from;
        }
        window = file.map(FileChannel.MapMode.READ_WRITE, at, STEP_BYTES);
        windowStart = at;
    }

    /**
     * Forces the file to the device: every byte appended before this call began is durable when it returns. May run
     * on another thread than the appends.
     *
     * @throws IOException if the force failed (the hook's failure, or the device's)
     */
    public void force() throws IOException {
        channel.force(false, this::end);
    }

    /**
     * Cuts the file back to {@code size} (at most {@link #end()}): the bytes after it and the claimed zeros are
     * gone, and the next append writes at {@code size}. Durable once the file's size is forced (as {@link #trim} does).
     *
     * @param size the new end
     * @throws IOException if the truncation failed
     */
    public void cutTo(long size) throws IOException {
        if (size > end) {
            throw new IllegalArgumentException("cannot cut " + path + " to " + size + " bytes: it ends at " + end);
        }
        unmap();
        channel.truncate(size);
        end = size;
        claimed = size;
    }

    /**
     * Cuts the file at {@link #end()}, dropping the claimed zeros, and forces that to the device, data and size, so
     * that the file on disk ends where the appends did. Appends may follow (they claim space again).
     *
     * @throws IOException if the truncation or the force failed
     */
    public void trim() throws IOException {
        unmap();
        if (claimed > end) {
            channel.truncate(end);
            claimed = end;
            channel.force(true);
        }
    }

    /** Drops the mapping (the file stays as it is; the channel is its owner's to close). */
    @Override
    public void close() {
        unmap();
    }

    /** Drops the mapping of the current step now (its pages stay in the page cache, dirty until written back). */
    private void unmap() {
        MappedByteBuffer w = window;
        window = null;
        if (w != null) {
            Unmapper.unmap(w);
        }
    }
}
