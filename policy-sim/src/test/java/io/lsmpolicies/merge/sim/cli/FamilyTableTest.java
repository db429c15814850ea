package io.lsmpolicies.merge.sim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.sim.TraceFamily;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bin/lsm-sim-families} on short traces: one row per family, then the three goals. */
class FamilyTableTest {
    @Test
    void printsEveryFamilyAndTheGoals() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = new CommandLine(new FamilyTable(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
                .execute("--flushes", "30", "--seeds", "1");
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(status).isZero();
        for (TraceFamily f : TraceFamily.standard()) {
            assertThat(out).contains(f.name() + " ");
        }
        assertThat(out).contains("adaptive: worst ratio to the optimum").contains("more than 5% above the best static")
                .contains("static policies (").contains("within 2x of the optimum on every family");
    }
}
