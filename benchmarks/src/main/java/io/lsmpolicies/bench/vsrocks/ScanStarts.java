package io.lsmpolicies.bench.vsrocks;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import site.ycsb.generator.ScrambledZipfianGenerator;

/** Where a side-by-side run's scans start: which loaded record's key each one begins at. */
enum ScanStarts {
    /** A uniformly random record, from the run's seed: both systems scan the same ranges. */
    UNIFORM,
    /**
     * A record drawn as YCSB's workload E draws its scans' starts ({@code requestdistribution=zipfian}): YCSB's own
     * {@code ScrambledZipfianGenerator}, so a few ranges are scanned again and again. YCSB's generator takes no seed,
     * so the two systems scan different ranges from one distribution.
     */
    ZIPFIAN;

    /** {@return the record numbers, in {@code [0, records)}, the scans start at} */
    LongSupplier starts(long records, SplittableRandom random) {
        if (this == UNIFORM) {
            return () -> random.nextLong(records);
        }
        ScrambledZipfianGenerator zipfian = new ScrambledZipfianGenerator(0, records - 1);
        return () -> zipfian.nextValue();
    }
}
