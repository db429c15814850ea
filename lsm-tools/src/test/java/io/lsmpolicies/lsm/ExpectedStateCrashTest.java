package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.stress.StressDriver;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The expected-state crash test in the default build: 25 SIGKILLs of a {@code StressWorker} (5 stores with
 * options drawn from the seed, 5 kills each), every key checked against the expected state after each. The seed
 * is printed; {@code -Dlsm.stress.seed=S} replays the choices (the kill moments still depend on timing). Soak runs:
 * {@code bin/lsm-stress --iterations N}.
 */
class ExpectedStateCrashTest {
    @TempDir
    Path tmp;

    @Test
    void everyKeyHoldsItsExpectedValueAfterEachKill() throws Exception {
        long seed = Long.getLong("lsm.stress.seed", System.nanoTime());
        StressDriver.Summary s = StressDriver.run(tmp, 25, 5, seed, System.out::println);
        assertThat(s.iterations()).isEqualTo(25);
        assertThat(s.keysChecked()).isPositive();
    }
}
