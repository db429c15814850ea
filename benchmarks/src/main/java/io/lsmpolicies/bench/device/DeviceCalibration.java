package io.lsmpolicies.bench.device;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The calibration {@code bin/device-class} prints before it runs its command: measured inside the class (in its
 * cgroups, on its loop file system), one thread at queue depth 1, beside the class's targets. Three figures:
 * sequential write of a file in 1 MiB writes followed by one {@code fsync} (the throttle charges buffered writes
 * when they are forced inside the group), sequential read of that file with {@code O_DIRECT} in 1 MiB reads, and
 * random 4 KiB reads with {@code O_DIRECT} at aligned offsets for a fixed time. {@code O_DIRECT} keeps the page
 * cache out of the reads, so they reach the device.
 *
 * <p>Standalone on purpose (the JDK only, no other class of the project): the script launches this file as a
 * single-file source program, so the device classes work before anything is built.
 *
 * <p>Arguments: {@code FILE SIZE_MIB RANDOM_SECONDS TARGET_READ_BPS TARGET_WRITE_BPS TARGET_READ_IOPS}; the file
 * is deleted afterwards. Prints three lines to standard output; exit status 2 on bad arguments, 1 on an I/O error.
 */
public final class DeviceCalibration {
    private static final int CHUNK = 1 << 20;
    private static final int PAGE = 4096;

    private DeviceCalibration() {
    }

    public static void main(String[] args) {
        if (args.length != 6) {
            System.err.println("usage: DeviceCalibration FILE SIZE_MIB RANDOM_SECONDS TARGET_READ_BPS "
                    + "TARGET_WRITE_BPS TARGET_READ_IOPS");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        try {
            int mib = Integer.parseInt(args[1]);
            double randomSeconds = Double.parseDouble(args[2]);
            long readBps = Long.parseLong(args[3]);
            long writeBps = Long.parseLong(args[4]);
            long readIops = Long.parseLong(args[5]);
            try {
                double write = sequentialWrite(file, mib);
                System.out.println(line("sequential write + fsync", write / 1e6, "MB/s", writeBps / 1e6));
                double read = sequentialRead(file);
                System.out.println(line("sequential read (O_DIRECT)", read / 1e6, "MB/s", readBps / 1e6));
                double iops = randomReads(file, randomSeconds);
                System.out.println(line("random 4 KiB read (O_DIRECT)", iops, "IOPS", readIops));
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (NumberFormatException e) {
            System.err.println("DeviceCalibration: not a number: " + e.getMessage());
            System.exit(2);
        } catch (IOException e) {
            System.err.println("DeviceCalibration: " + file + ": " + e);
            System.exit(1);
        }
    }

    private static String line(String what, double measured, String unit, double target) {
        return String.format(Locale.ROOT, "  %-30s %10.0f %-4s  (target %.0f %s)", what, measured, unit, target, unit);
    }

    /** Bytes per second of writing {@code mib} MiB and forcing them to the device. */
    static double sequentialWrite(Path file, int mib) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        SplittableRandom random = new SplittableRandom(1);
        while (chunk.hasRemaining()) {
            chunk.putLong(random.nextLong()); // incompressible, though nothing here compresses
        }
        long start = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            for (int i = 0; i < mib; i++) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    ch.write(chunk);
                }
            }
            ch.force(true);
        }
        return (double) mib * CHUNK / seconds(start);
    }

    /** Bytes per second of reading the whole file with {@code O_DIRECT}. */
    static double sequentialRead(Path file) throws IOException {
        ByteBuffer buf = aligned(CHUNK);
        long total = 0;
        long start = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            for (int n; (n = ch.read(buf.clear())) > 0; ) {
                total += n;
            }
        }
        return total / seconds(start);
    }

    /** Reads per second of random aligned 4 KiB reads with {@code O_DIRECT}, for about {@code limit} seconds. */
    static double randomReads(Path file, double limit) throws IOException {
        ByteBuffer buf = aligned(PAGE);
        SplittableRandom random = new SplittableRandom(2);
        long reads = 0;
        long start = System.nanoTime();
        long end = start + (long) (limit * 1e9);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            long pages = ch.size() / PAGE;
            do {
                ch.read(buf.clear(), random.nextLong(pages) * PAGE);
                reads++;
            } while (System.nanoTime() < end);
        }
        return reads / seconds(start);
    }

    private static ByteBuffer aligned(int size) {
        return ByteBuffer.allocateDirect(size + PAGE).alignedSlice(PAGE).limit(size);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
