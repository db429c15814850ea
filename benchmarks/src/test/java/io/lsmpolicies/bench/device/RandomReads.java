package io.lsmpolicies.bench.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The random-read workload of {@link DeviceClassTest}, run as a child process inside a device class: {@code COUNT}
 * buffered (page-cache) 4 KiB reads at random aligned offsets of {@code FILE}, one at a time; prints {@code
 * reads/s=R p50-ms=M p99-ms=N} (the reads' rate and the median and 99th percentile of their latencies). Buffered
 * on purpose: with the class's memory cap smaller than the file, the page cache cannot hold it and most reads
 * reach the device.
 */
public final class RandomReads {
    private RandomReads() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        ByteBuffer buf = ByteBuffer.allocate(4096);
        SplittableRandom random = new SplittableRandom(3);
        long[] nanos = new long[count];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long pages = ch.size() / 4096;
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                long t = System.nanoTime();
                ch.read(buf.clear(), random.nextLong(pages) * 4096);
                nanos[i] = System.nanoTime() - t;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Arrays.sort(nanos);
            System.out.println(String.format(Locale.ROOT, "reads/s=%.1f p50-ms=%.3f p99-ms=%.3f", count / seconds,
                    nanos[count / 2] / 1e6, nanos[(int) Math.min(count - 1, Math.ceil(count * 0.99) - 1)] / 1e6));
        }
    }
}
