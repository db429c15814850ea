package io.lsmpolicies.bench.vsrocks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * The phases one system runs, the same code for both ({@link BenchStore}); each returns its measurements by name
 * (the names {@link Metric} describes). Runs in the child JVM of {@link BenchChild}, and in-process in tests.
 *
 * @param records   records loaded ({@code 0 .. records-1}, {@link Records})
 * @param valueSize bytes per value
 * @param gets      timed point reads
 * @param scans     timed scans
 * @param seed      the seed of the read and scan keys (the same for both systems)
 * @param starts    where the scans start
 */
record Workload(long records, int valueSize, int gets, int scans, long seed, ScanStarts starts) {
    /** The longest scan, in records (YCSB workload E's {@code maxscanlength}). */
    static final int MAX_SCAN = 100;
    /**
     * Untimed operations before each timed read or scan phase, as a fraction of it (JIT and block cache): as many as
     * are timed. A tenth (20,000 gets, a fifth of a second) left our read path to be compiled during the timed
     * phase, in a JVM just started, while RocksDB's is native code: our p99 was 1.35x RocksDB's after 20,000
     * warm-up gets and 1.05x after 200,000, the same store, the same 1M records.
     */
    static final double WARMUP = 1.0;

    /**
     * Loads every record with {@code threads} client threads (thread {@code t} writes records {@code t},
     * {@code t + threads}, ...), then waits until merges settle.
     */
    Map<String, Double> load(BenchStore store, int threads) throws IOException {
        MemoryProbe memory = MemoryProbe.start();
        LongAdder userBytes = new LongAdder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int first = t;
            Thread w = new Thread(() -> {
                long bytes = 0;
                try {
                    for (long i = first; i < records && failure.get() == null; i += threads) {
                        byte[] key = Records.key(i);
                        byte[] value = Records.value(i, valueSize);
                        store.put(key, value);
                        bytes += key.length + value.length;
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    userBytes.add(bytes);
                }
            }, "load-" + t);
            w.start();
            writers.add(w);
        }
        join(writers);
        if (failure.get() != null) {
            throw new IOException("the load failed: " + failure.get(), failure.get());
        }
        long ingest = System.nanoTime() - start;
        store.settle();
        long total = System.nanoTime() - start;
        WriteCounters c = store.counters();
        MemoryProbe.Rss rss = memory.stop();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("threads", (double) threads);
        m.put("recordsPerSecond", records / (ingest / 1e9));
        m.put("recordsPerSecondSettled", records / (total / 1e9));
        m.put("ingestSeconds", ingest / 1e9);
        m.put("settleSeconds", (total - ingest) / 1e9);
        m.put("userBytes", (double) userBytes.sum());
        m.put("flushBytes", (double) c.flushBytes());
        m.put("mergeBytes", (double) c.mergeBytes());
        m.put("writeAmplification", c.writeAmplification(userBytes.sum()));
        m.put("stallSeconds", c.stallNanos() / 1e9);
        m.put("tableBytes", (double) c.tableBytes());
        m.put("components", (double) store.components());
        m.put("peakRssBytes", rss.peakBytes());
        m.put("meanRssBytes", rss.meanBytes());
        return m;
    }

    /**
     * {@code gets} point reads of uniformly random loaded records, one thread, each timed alone; every value is
     * checked against the record's (after its timing). An untimed warm-up of {@link #WARMUP} x {@code gets} reads
     * with another seed comes first.
     *
     * @throws IllegalStateException if a record is missing or has another value
     */
    Map<String, Double> reads(BenchStore store) throws IOException {
        readKeys(store, (int) (gets * WARMUP), seed + 1, null);
        MemoryProbe memory = MemoryProbe.start();
        GcPauses gc = GcPauses.start();
        Histogram h = new Histogram(3_600_000_000_000L, 3);
        long start = System.nanoTime();
        readKeys(store, gets, seed, h);
        double seconds = (System.nanoTime() - start) / 1e9;
        GcPauses.Counts pauses = gc.stop();
        MemoryProbe.Rss rss = memory.stop();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("gets", (double) gets);
        m.put("getsPerSecond", gets / (h.getMean() * h.getTotalCount() / 1e9));
        m.put("phaseSeconds", seconds);
        m.put("avgMicros", h.getMean() / 1e3);
        for (Map.Entry<String, Double> p : PERCENTILES.entrySet()) {
            m.put(p.getKey() + "Micros", h.getValueAtPercentile(p.getValue()) / 1e3);
        }
        m.put("maxMicros", h.getMaxValue() / 1e3);
        m.put("gcPauses", (double) pauses.pauses());
        m.put("gcPausesOver10ms", (double) pauses.longPauses());
        m.put("gcPauseMaxMillis", (double) pauses.maxMillis());
        m.put("components", (double) store.components());
        m.put("peakRssBytes", rss.peakBytes());
        m.put("meanRssBytes", rss.meanBytes());
        return m;
    }

    /** The percentiles reported by {@link #reads}, by name. */
    static final Map<String, Double> PERCENTILES = percentiles();

    private static Map<String, Double> percentiles() {
        Map<String, Double> p = new LinkedHashMap<>();
        p.put("p50", 50.0);
        p.put("p90", 90.0);
        p.put("p99", 99.0);
        p.put("p999", 99.9);
        p.put("p9999", 99.99);
        return p;
    }

    private void readKeys(BenchStore store, int count, long keySeed, Histogram h) throws IOException {
        SplittableRandom random = new SplittableRandom(keySeed);
        for (int n = 0; n < count; n++) {
            long i = random.nextLong(records);
            byte[] key = Records.key(i);
            long t = System.nanoTime();
            byte[] v = store.get(key);
            long took = System.nanoTime() - t;
            if (h != null) {
                h.recordValue(took);
            }
            if (v == null || !Arrays.equals(v, Records.value(i, valueSize))) {
                throw new IllegalStateException("record " + i + " (key " + new String(key,
                        java.nio.charset.StandardCharsets.UTF_8) + "): " + (v == null ? "missing" : "another value"));
            }
        }
    }

    /**
     * {@code scans} scans in YCSB workload E's shape: a loaded record's key as the start ({@link #starts}: uniform,
     * or zipfian as YCSB's workload E), and a length uniform in 1 .. {@link #MAX_SCAN}; one thread. Operations per
     * second count the scans' own time (the start key is made before the clock starts). An untimed warm-up of {@link #WARMUP} x {@code scans} scans
     * with another seed comes first. {@code recordsScanned} is the same for both systems when they hold the same
     * keys and the starts are uniform.
     */
    Map<String, Double> scans(BenchStore store) throws IOException {
        scanKeys(store, (int) (scans * WARMUP), seed + 3);
        MemoryProbe memory = MemoryProbe.start();
        long[] result = scanKeys(store, scans, seed + 2);
        MemoryProbe.Rss rss = memory.stop();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("scans", (double) scans);
        m.put("scansPerSecond", scans / (result[1] / 1e9));
        m.put("recordsScanned", (double) result[0]);
        m.put("avgScanMicros", result[1] / 1e3 / Math.max(1, scans));
        m.put("peakRssBytes", rss.peakBytes());
        m.put("meanRssBytes", rss.meanBytes());
        return m;
    }

    /** {records read, nanoseconds spent scanning}. */
    private long[] scanKeys(BenchStore store, int count, long keySeed) throws IOException {
        SplittableRandom random = new SplittableRandom(keySeed);
        LongSupplier start = starts.starts(records, random);
        long read = 0;
        long nanos = 0;
        for (int n = 0; n < count; n++) {
            byte[] from = Records.key(start.getAsLong());
            int length = 1 + random.nextInt(MAX_SCAN);
            long t = System.nanoTime();
            read += store.scan(from, length);
            nanos += System.nanoTime() - t;
        }
        return new long[] {read, nanos};
    }

    private static void join(List<Thread> threads) throws IOException {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while loading", e);
            }
        }
    }
}
