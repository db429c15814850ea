package io.lsmpolicies.merge.sim.leveled;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Generates a {@link Workload} from a {@link WorkloadSpec} and a seed; the same spec and seed always give the
 * same workload.
 *
 * <p>Inserted keys are distinct random integers in {@code [0, 2^31 - 1)}, so inserts land all over the key space
 * (sequential keys would make every compaction a trivial move). An update or delete goes to a live key: uniform
 * over the live keys, or Zipfian over the keys in insertion order (rank 0 = the first key inserted, which is
 * therefore the hottest); a Zipfian draw that lands on a deleted key is drawn again (up to 64 times, then a
 * uniform live key is taken). This is the shape of the workloads in Wei et al. (EDBT 2025, Sect. 3): unique
 * inserts, and updates over existing keys by a uniform or skewed distribution.
 */
public final class WorkloadGenerator {
    private static final int ZIPF_RETRIES = 64;

    private WorkloadGenerator() {
    }

    /**
     * {@return the workload of {@code spec} for {@code seed}}
     *
     * @param spec the workload's specification
     * @param seed the seed
     */
    public static Workload generate(WorkloadSpec spec, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = spec.operations();
        int[] keys = new int[n];
        OperationKind[] kinds = new OperationKind[n];
        int[] inserted = new int[Math.min(n, 1 << 16)];
        int insertedCount = 0;
        // live[] holds insertion indexes of live keys; position[i] is where insertion index i sits in live[].
        int[] live = new int[inserted.length];
        int[] position = new int[inserted.length];
        int liveCount = 0;
        Set<Integer> used = new HashSet<>();
        ZipfianGenerator zipf = spec.distribution() == UpdateDistribution.ZIPFIAN
                ? new ZipfianGenerator(spec.zipfTheta()) : null;
        for (int op = 0; op < n; op++) {
            double u = random.nextDouble();
            OperationKind kind = liveCount == 0 ? OperationKind.INSERT
                    : u < spec.updateFraction() ? OperationKind.UPDATE
                    : u < spec.updateFraction() + spec.deleteFraction() ? OperationKind.DELETE
                    : OperationKind.INSERT;
            kinds[op] = kind;
            if (kind == OperationKind.INSERT) {
                int key;
                do {
                    key = random.nextInt(Integer.MAX_VALUE);
                } while (!used.add(key));
                if (insertedCount == inserted.length) {
                    int grown = inserted.length * 2;
                    inserted = Arrays.copyOf(inserted, grown);
                    live = Arrays.copyOf(live, grown);
                    position = Arrays.copyOf(position, grown);
                }
                inserted[insertedCount] = key;
                live[liveCount] = insertedCount;
                position[insertedCount] = liveCount;
                insertedCount++;
                liveCount++;
                keys[op] = key;
            } else if (kind == OperationKind.UPDATE) {
                int index = zipf == null ? live[random.nextInt(liveCount)]
                        : zipfianLive(zipf, random, insertedCount, position, live, liveCount);
                keys[op] = inserted[index];
            } else {
                int slot = random.nextInt(liveCount);
                int index = live[slot];
                keys[op] = inserted[index];
                int last = live[liveCount - 1];
                live[slot] = last;
                position[last] = slot;
                position[index] = -1;
                liveCount--;
            }
        }
        return new Workload(spec.describe() + ", seed " + seed, keys, kinds);
    }

    private static int zipfianLive(ZipfianGenerator zipf, SplittableRandom random, int insertedCount, int[] position,
            int[] live, int liveCount) {
        for (int attempt = 0; attempt < ZIPF_RETRIES; attempt++) {
            int index = (int) zipf.next(random, insertedCount);
            if (position[index] >= 0) {
                return index;
            }
        }
        return live[random.nextInt(liveCount)];
    }
}
