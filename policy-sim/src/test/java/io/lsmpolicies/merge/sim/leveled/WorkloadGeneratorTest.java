package io.lsmpolicies.merge.sim.leveled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WorkloadGeneratorTest {

    private static int[] keys(Workload w) {
        int[] out = new int[w.size()];
        for (int i = 0; i < w.size(); i++) {
            out[i] = w.key(i);
        }
        return out;
    }

    @Test
    void theSameSeedGivesTheSameWorkloadAndAnotherSeedAnother() {
        WorkloadSpec spec = WorkloadSpec.zipfianUpdates(5_000, 0.5, 0.99);
        Workload a = WorkloadGenerator.generate(spec, 11);
        Workload b = WorkloadGenerator.generate(spec, 11);
        Workload c = WorkloadGenerator.generate(spec, 12);
        assertThat(keys(a)).isEqualTo(keys(b));
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.kind(i)).isEqualTo(b.kind(i));
        }
        assertThat(keys(a)).isNotEqualTo(keys(c));
        assertThat(a.description()).isEqualTo("50% updates zipfian(0.99), seed 11");
    }

    @Test
    void insertOnlyWritesDistinctKeys() {
        Workload w = WorkloadGenerator.generate(WorkloadSpec.insertOnly(20_000), 3);
        assertThat(w.count(OperationKind.INSERT)).isEqualTo(20_000);
        assertThat(Arrays.stream(keys(w)).distinct().count()).isEqualTo(20_000);
        assertThat(w.description()).startsWith("inserts only");
    }

    @Test
    void updatesAndDeletesGoToLiveKeysInTheAskedProportions() {
        Workload w = WorkloadGenerator.generate(
                new WorkloadSpec(50_000, 0.4, 0.1, UpdateDistribution.UNIFORM, 0.99), 5);
        Set<Integer> live = new HashSet<>();
        Set<Integer> ever = new HashSet<>();
        for (int i = 0; i < w.size(); i++) {
            int k = w.key(i);
            switch (w.kind(i)) {
                case INSERT -> {
                    assertThat(ever.add(k)).as("insert of a new key at %d", i).isTrue();
                    live.add(k);
                }
                case UPDATE -> assertThat(live.contains(k)).as("update of a live key at %d", i).isTrue();
                case DELETE -> assertThat(live.remove(k)).as("delete of a live key at %d", i).isTrue();
                default -> throw new AssertionError();
            }
        }
        assertThat(w.count(OperationKind.UPDATE) / 50_000.0).isCloseTo(0.4, within(0.01));
        assertThat(w.count(OperationKind.DELETE) / 50_000.0).isCloseTo(0.1, within(0.01));
    }

    @Test
    void zipfianUpdatesConcentrateOnFewKeysAndUniformOnesDoNot() {
        double zipf = topShare(WorkloadGenerator.generate(WorkloadSpec.zipfianUpdates(100_000, 0.5, 0.99), 9));
        double uniform = topShare(WorkloadGenerator.generate(WorkloadSpec.uniformUpdates(100_000, 0.5), 9));
        // Share of updates going to the 1% most updated keys.
        assertThat(zipf).isGreaterThan(0.3);
        assertThat(uniform).isLessThan(0.1);
    }

    @Test
    void theHottestZipfianKeyIsTheFirstInserted() {
        Workload w = WorkloadGenerator.generate(WorkloadSpec.zipfianUpdates(50_000, 0.5, 0.99), 21);
        Map<Integer, Integer> updates = updateCounts(w);
        int hottest = updates.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        assertThat(hottest).isEqualTo(w.key(0));
    }

    @Test
    void specsAreValidatedWithMessagesNamingTheSetting() {
        assertThatThrownBy(() -> new WorkloadSpec(0, 0, 0, UpdateDistribution.UNIFORM, 0.99))
                .hasMessageContaining("operations");
        assertThatThrownBy(() -> new WorkloadSpec(10, 0.7, 0.4, UpdateDistribution.UNIFORM, 0.99))
                .hasMessageContaining("delete fraction");
        assertThatThrownBy(() -> WorkloadSpec.zipfianUpdates(10, 0.5, 1.2)).hasMessageContaining("theta");
    }

    private static Map<Integer, Integer> updateCounts(Workload w) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < w.size(); i++) {
            if (w.kind(i) == OperationKind.UPDATE) {
                counts.merge(w.key(i), 1, Integer::sum);
            }
        }
        return counts;
    }

    private static double topShare(Workload w) {
        Map<Integer, Integer> counts = updateCounts(w);
        List<Integer> sorted = counts.values().stream().sorted((a, b) -> b - a).toList();
        long inserted = w.count(OperationKind.INSERT);
        long total = sorted.stream().mapToLong(Integer::longValue).sum();
        long top = sorted.stream().limit(inserted / 100).mapToLong(Integer::longValue).sum();
        return (double) top / total;
    }
}
