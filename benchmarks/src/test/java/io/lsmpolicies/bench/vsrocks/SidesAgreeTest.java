package io.lsmpolicies.bench.vsrocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child-side workload of both systems, in-process on a few thousand records: the measurements are sane, and
 * both stores hold the same records (same values for sampled keys, same record counts, same scan results).
 */
class SidesAgreeTest {
    private static final long RECORDS = 3000;
    private static final int VALUE_SIZE = 200;

    @TempDir
    Path dir;

    @Test
    void bothSystemsRunTheSameWorkloadAndStoreTheSameRecords() throws IOException {
        Pairing pairing = Pairing.parse("binomial:k=6/universal");
        Workload work = new Workload(RECORDS, VALUE_SIZE, 500, 200, 7, ScanStarts.UNIFORM);
        try (BenchStore ours = Side.OURS.open(pairing, dir.resolve("ours"));
                BenchStore rocks = Side.ROCKSDB.open(pairing, dir.resolve("rocksdb"))) {
            Map<String, Double> oursLoad = work.load(ours, 2);
            Map<String, Double> rocksLoad = work.load(rocks, 2);
            for (Map<String, Double> load : java.util.List.of(oursLoad, rocksLoad)) {
                assertThat(load.get("userBytes")).isEqualTo(userBytes());
                assertThat(load.get("recordsPerSecond")).isPositive();
                assertThat(load.get("flushBytes")).isPositive();
                // everything was flushed once; the tables hold at least the user bytes
                assertThat(load.get("writeAmplification")).isBetween(1.0, 3.0);
                assertThat(load.get("tableBytes")).isGreaterThanOrEqualTo(userBytes());
                assertThat(load.get("stallSeconds")).isGreaterThanOrEqualTo(0.0);
                assertThat(load.get("components")).isGreaterThanOrEqualTo(1.0);
            }

            // reads() checks every value it gets against the record's, and throws on a difference
            Map<String, Double> oursReads = work.reads(ours);
            Map<String, Double> rocksReads = work.reads(rocks);
            for (Map<String, Double> reads : java.util.List.of(oursReads, rocksReads)) {
                assertThat(reads.get("p50Micros")).isPositive().isLessThanOrEqualTo(reads.get("p99Micros"));
                assertThat(reads.get("p99Micros")).isLessThanOrEqualTo(reads.get("p999Micros"));
                assertThat(reads.get("p999Micros")).isLessThanOrEqualTo(reads.get("maxMicros"));
                assertThat(reads.get("gcPausesOver10ms")).isGreaterThanOrEqualTo(0.0);
            }

            Map<String, Double> oursScans = work.scans(ours);
            Map<String, Double> rocksScans = work.scans(rocks);
            assertThat(oursScans.get("recordsScanned")).isEqualTo(rocksScans.get("recordsScanned"))
                    .isGreaterThan(200.0);
            assertThat(oursScans.get("scansPerSecond")).isPositive();

            SplittableRandom random = new SplittableRandom(3);
            for (int n = 0; n < 200; n++) {
                byte[] key = Records.key(random.nextLong(RECORDS));
                assertThat(rocks.get(key)).isEqualTo(ours.get(key)).isNotNull();
            }
            assertThat(ours.get("absent".getBytes())).isNull();
            assertThat(rocks.get("absent".getBytes())).isNull();
            // a scan from the smallest key sees every record exactly once in both
            assertThat(ours.scan(new byte[0], (int) RECORDS + 10)).isEqualTo((int) RECORDS);
            assertThat(rocks.scan(new byte[0], (int) RECORDS + 10)).isEqualTo((int) RECORDS);
        }
    }

    private static double userBytes() {
        long bytes = 0;
        for (long i = 0; i < RECORDS; i++) {
            bytes += Records.key(i).length + VALUE_SIZE;
        }
        return bytes;
    }
}
