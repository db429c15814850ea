package io.lsmpolicies.bench.vsrocks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * This process's resident memory during one phase, from {@code /proc/self/status}: {@link #start()} resets the
 * kernel's peak ({@code VmHWM}, by writing {@code 5} to {@code /proc/self/clear_refs}) and samples {@code VmRSS}
 * every {@link #PERIOD_MILLIS} ms on a daemon thread; {@link #stop()} gives the peak (the larger of {@code VmHWM}
 * and the highest sample; {@code VmHWM} alone counts from the process start where the reset is refused) and the
 * mean of the samples. Off Linux both are NaN. Not thread-safe.
 */
final class MemoryProbe {
    static final long PERIOD_MILLIS = 20;
    private static final Path STATUS = Path.of("/proc/self/status");

    /**
     * @param peakBytes the highest resident set size during the phase
     * @param meanBytes the mean of the samples
     */
    record Rss(double peakBytes, double meanBytes) {
    }

    private final Thread sampler;
    private volatile boolean stopped;
    private long max;
    private long sum;
    private long samples;

    private MemoryProbe() {
        sampler = new Thread(this::sample, "rss-sampler");
        sampler.setDaemon(true);
    }

    /** Resets the peak and starts sampling. */
    static MemoryProbe start() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (IOException | UnsupportedOperationException e) {
            // an older kernel or a restricted /proc: VmHWM then counts from the process start
        }
        MemoryProbe p = new MemoryProbe();
        p.sampler.start();
        return p;
    }

    /** Stops sampling and returns the phase's peak and mean. */
    Rss stop() {
        stopped = true;
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long hwm = field("VmHWM:");
        synchronized (this) {
            if (samples == 0 && hwm < 0) {
                return new Rss(Double.NaN, Double.NaN);
            }
            return new Rss(Math.max(hwm, max), samples == 0 ? Double.NaN : (double) sum / samples);
        }
    }

    private void sample() {
        while (!stopped) {
            long rss = field("VmRSS:");
            if (rss >= 0) {
                synchronized (this) {
                    max = Math.max(max, rss);
                    sum += rss;
                    samples++;
                }
            }
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** A {@code kB} field of {@code /proc/self/status} in bytes; -1 if unreadable. */
    static long field(String name) {
        try {
            List<String> lines = Files.readAllLines(STATUS);
            for (String line : lines) {
                if (line.startsWith(name)) {
                    String[] parts = line.substring(name.length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
