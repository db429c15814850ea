package io.lsmpolicies.bench.device;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The disk of {@code bin/device-class}'s {@code hdd} class: a FUSE file system holding one file, {@code disk}, the
 * loop device's backing file, whose every read and write takes as long as on a 7,200 rpm disk. The block layer's
 * throttle grants a rate per 100 ms slice, so most requests pass at once and a few wait up to 100 ms; a disk makes
 * every request that is not contiguous with the previous one wait a seek and a rotation. This program does that,
 * one request at a time in arrival order (one head, no reordering), so it works for any process above the loop
 * device.
 *
 * <p>The model, per request of {@code n} bytes at {@code offset}: a request starting within a track (1 MiB) of where
 * the previous one ended costs only the transfer, {@code n} / 160 MB/s (the drive's cache holds the track, and its
 * command queueing puts the halves of a split request back in order); any other a seek of {@value #MIN_SEEK_MS} ms plus
 * ({@value #MAX_SEEK_MS} - {@value #MIN_SEEK_MS}) ms times the square root of the distance over the file's size (a
 * full stroke across the file system), plus a rotational delay drawn uniformly from one revolution (60 s / 7,200
 * = 8.33 ms), plus the transfer. Random 4 KiB reads average about 9 ms of seek and 4.2 ms of rotation: about 75
 * per second at queue depth 1, as data sheets' 8-9 ms average seek and 4.17 ms average rotational latency give.
 * Flushes cost nothing (a disk with its write cache on). A request waits from when the disk is free, so queued
 * requests add up; where the backing file is slower than the model, its own time shows through.
 *
 * <p>Standalone on purpose (the JDK only): the script launches this file as a single-file source program. It
 * serves the FUSE connection the script mounted on standard input and output (both the {@code /dev/fuse}
 * descriptor given to {@code mount -o fd=N}), and ends when the file system is unmounted. Argument: {@code
 * BACKING_FILE} (an existing file; its size is the disk's). Exit status 2 on bad arguments, 1 on an I/O error.
 */
public final class RotatingDisk {
    static final double MIN_SEEK_MS = 1.0;
    static final double MAX_SEEK_MS = 16.0;
    static final double REVOLUTION_MS = 60_000.0 / 7_200;
    static final double TRANSFER_BYTES_PER_MS = 160e6 / 1000;
    static final long TRACK_BYTES = 1 << 20;

    private static final int MAX_WRITE = 1 << 20;
    private static final int IN_HEADER = 40;
    private static final int OUT_HEADER = 16;
    private static final long ROOT = 1;
    private static final long DISK = 2;
    private static final String DISK_NAME = "disk";
    private static final long VALID_SECONDS = 3600;

    private static final int ENOENT = 2;
    private static final int EIO = 5;
    private static final int ENOSYS = 38;

    private final FileChannel backing;
    private final long size;
    private final FileChannel in = new FileInputStream(FileDescriptor.in).getChannel();
    private final FileChannel out = new FileOutputStream(FileDescriptor.out).getChannel();
    private final ByteBuffer request = ByteBuffer.allocateDirect(MAX_WRITE + 64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer reply = ByteBuffer.allocateDirect(MAX_WRITE + 4096).order(ByteOrder.LITTLE_ENDIAN);
    private final SplittableRandom random = new SplittableRandom(7200);
    private long headAt = -1;
    private long freeAtNanos;
    private long requests;
    private long seeks;
    private long requestBytes;
    private double busyMillis;

    private RotatingDisk(FileChannel backing, long size) {
        this.backing = backing;
        this.size = size;
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: RotatingDisk BACKING_FILE  (serves the FUSE connection on stdin/stdout)");
            System.exit(2);
        }
        try (FileChannel backing = FileChannel.open(Path.of(args[0]), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            new RotatingDisk(backing, backing.size()).serve();
        } catch (IOException e) {
            System.err.println("RotatingDisk: " + args[0] + ": " + e);
            System.exit(1);
        }
    }

    /** Whether a request at {@code offset} lies within a track of where the previous one ended. */
    private boolean nearHead(long offset) {
        return headAt >= 0 && Math.abs(offset - headAt) <= TRACK_BYTES;
    }

    /** Milliseconds the disk spends on {@code bytes} at {@code offset}, the head then at the request's end. */
    double serviceMillis(long offset, long bytes) {
        double ms = bytes / TRANSFER_BYTES_PER_MS;
        if (!nearHead(offset)) {
            double distance = Math.abs(offset - Math.max(headAt, 0)) / (double) Math.max(size, 1);
            ms += MIN_SEEK_MS + (MAX_SEEK_MS - MIN_SEEK_MS) * Math.sqrt(Math.min(distance, 1.0))
                    + random.nextDouble() * REVOLUTION_MS;
        }
        headAt = offset + bytes;
        return ms;
    }

    /**
     * Starts the request when the disk is free and returns the time it is done (the disk is busy until then). A
     * request contiguous with the previous one that arrives within a revolution of the disk going idle starts when
     * it went idle: the drive streams on into its cache meanwhile (its read-ahead and write-back cache), so the
     * host's own time between sequential requests does not cost a revolution, nor is it lost.
     */
    private long schedule(long offset, long bytes) {
        long now = System.nanoTime();
        boolean streaming = nearHead(offset) && now - freeAtNanos < (long) (REVOLUTION_MS * 1e6);
        long start = streaming ? freeAtNanos : Math.max(now, freeAtNanos);
        double ms = serviceMillis(offset, bytes);
        freeAtNanos = start + (long) (ms * 1e6);
        requests++;
        requestBytes += bytes;
        busyMillis += ms;
        if (ms > bytes / TRANSFER_BYTES_PER_MS) {
            seeks++;
        }
        return freeAtNanos;
    }

    private void report() {
        System.err.printf(java.util.Locale.ROOT, "RotatingDisk: %d requests (%d seeks), %.0f MiB, busy %.1f s%n",
                requests, seeks, requestBytes / 1048576.0, busyMillis / 1000);
    }

    private static void waitUntil(long nanos) {
        for (long left; (left = nanos - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }

    private void serve() throws IOException {
        while (true) {
            request.clear();
            try {
                if (in.read(request) < IN_HEADER) {
                    continue;
                }
            } catch (IOException e) {
                report();
                return; // ENODEV: unmounted
            }
            request.flip();
            int opcode = request.getInt(4);
            long unique = request.getLong(8);
            long node = request.getLong(16);
            reply.clear().position(OUT_HEADER);
            int error = 0;
            switch (opcode) {
                case 26 -> init(); // INIT
                case 1 -> error = lookup(node); // LOOKUP
                case 3, 4 -> attrOut(node); // GETATTR, SETATTR (nothing to change: the disk's size is fixed)
                case 14 -> openOut(1); // OPEN: FOPEN_DIRECT_IO, so the host's page cache keeps no copy
                case 27 -> openOut(0); // OPENDIR
                case 28 -> { } // READDIR: the one name is found by LOOKUP
                case 15 -> error = read(); // READ
                case 16 -> error = write(); // WRITE
                case 17 -> statfs(); // STATFS
                case 18, 20, 25, 29, 30, 43 -> { } // RELEASE, FSYNC, FLUSH, RELEASEDIR, FSYNCDIR, FALLOCATE
                case 2, 36, 42 -> {
                    continue; // FORGET, INTERRUPT, BATCH_FORGET: no reply
                }
                case 38 -> {
                    report();
                    return; // DESTROY
                }
                default -> error = ENOSYS;
            }
            send(unique, error);
        }
    }

    private void send(long unique, int error) throws IOException {
        if (error != 0) {
            reply.position(OUT_HEADER);
        }
        int length = reply.position();
        reply.putInt(0, length).putInt(4, -error).putLong(8, unique).flip();
        try {
            while (reply.hasRemaining()) {
                out.write(reply);
            }
        } catch (IOException e) {
            // the request was interrupted and is gone (ENOENT): nothing waits for this reply
        }
    }

    private void init() {
        int maxReadahead = request.getInt(IN_HEADER + 8);
        reply.putInt(7).putInt(31).putInt(maxReadahead).putInt((1 << 5) | (1 << 22)); // BIG_WRITES, MAX_PAGES
        reply.putShort((short) 16).putShort((short) 12).putInt(MAX_WRITE).putInt(1);
        reply.putShort((short) (MAX_WRITE / 4096)).putShort((short) 0).putInt(0);
        reply.put(new byte[28]);
    }

    private int lookup(long parent) {
        int start = IN_HEADER;
        int end = start;
        while (end < request.limit() && request.get(end) != 0) {
            end++;
        }
        byte[] name = new byte[end - start];
        request.get(start, name);
        if (parent != ROOT || !DISK_NAME.equals(new String(name, StandardCharsets.UTF_8))) {
            return ENOENT;
        }
        reply.putLong(DISK).putLong(0).putLong(VALID_SECONDS).putLong(VALID_SECONDS).putInt(0).putInt(0);
        attr(DISK);
        return 0;
    }

    private void attrOut(long node) {
        reply.putLong(VALID_SECONDS).putInt(0).putInt(0);
        attr(node);
    }

    private void attr(long node) {
        boolean disk = node == DISK;
        long bytes = disk ? size : 4096;
        reply.putLong(node).putLong(bytes).putLong((bytes + 511) / 512).putLong(0).putLong(0).putLong(0);
        reply.putInt(0).putInt(0).putInt(0);
        reply.putInt(disk ? 0100600 : 040755).putInt(disk ? 1 : 2).putInt(0).putInt(0).putInt(0).putInt(4096).putInt(0);
    }

    private void openOut(int flags) {
        reply.putLong(1).putInt(flags).putInt(0);
    }

    private void statfs() {
        long blocks = size / 4096;
        reply.putLong(blocks).putLong(0).putLong(0).putLong(2).putLong(0).putInt(4096).putInt(255).putInt(4096)
                .putInt(0).put(new byte[24]);
    }

    private int read() throws IOException {
        long offset = request.getLong(IN_HEADER + 8);
        int bytes = Math.min(request.getInt(IN_HEADER + 16), MAX_WRITE);
        long done = schedule(offset, bytes);
        ByteBuffer data = reply.duplicate().position(OUT_HEADER).limit(OUT_HEADER + bytes);
        long at = offset;
        while (data.hasRemaining() && at < size) {
            int n = backing.read(data, at);
            if (n < 0) {
                break;
            }
            at += n;
        }
        reply.position(data.position());
        waitUntil(done);
        return 0;
    }

    private int write() throws IOException {
        long offset = request.getLong(IN_HEADER + 8);
        int bytes = request.getInt(IN_HEADER + 16);
        if (offset + bytes > size) {
            return EIO;
        }
        long done = schedule(offset, bytes);
        ByteBuffer data = request.duplicate().position(IN_HEADER + 40).limit(IN_HEADER + 40 + bytes);
        long at = offset;
        while (data.hasRemaining()) {
            at += backing.write(data, at);
        }
        waitUntil(done);
        reply.putInt(bytes).putInt(0);
        return 0;
    }
}
