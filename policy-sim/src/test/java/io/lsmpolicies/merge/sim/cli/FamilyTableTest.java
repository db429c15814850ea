package io.lsmpolicies.merge.sim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.sim.TraceFamily;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

    @Test
    void averagesOverHorizonsAndRefusesALengthBelowOne() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = new CommandLine(new FamilyTable(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
                .execute("--horizons", "10,20", "--seeds", "1");
        assertThat(status).isZero();
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("traces of 10, 20 flushes, each policy's ratio averaged over them");
        ByteArrayOutputStream none = new ByteArrayOutputStream();
        CommandLine bad = new CommandLine(new FamilyTable(new PrintStream(none, true, StandardCharsets.UTF_8)));
        bad.setErr(new java.io.PrintWriter(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThat(bad.execute("--horizons", "10,0")).isNotZero();
        assertThat(none.toString(StandardCharsets.UTF_8)).as("nothing evaluated").isEmpty();
    }

    @Test
    void summarisesEverySeedSetAndRefusesOverlappingSets() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = new CommandLine(new FamilyTable(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
                .execute("--flushes", "20", "--seeds", "1", "--seed-sets", "2", "--first-seed", "7");
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(status).isZero();
        assertThat(out).contains("\n7..7 ").contains("\n1007..1007 ")
                .contains("adaptive over 2 seed sets: worst ratio <= 1.3 in ")
                .contains(" of 48 family results more than 5% above)");
        ByteArrayOutputStream none = new ByteArrayOutputStream();
        CommandLine bad = new CommandLine(new FamilyTable(new PrintStream(none, true, StandardCharsets.UTF_8)));
        bad.setErr(new java.io.PrintWriter(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThat(bad.execute("--seeds", "1001", "--seed-sets", "2")).isNotZero();
        assertThat(bad.execute("--seed-sets", "0")).isNotZero();
        assertThat(none.toString(StandardCharsets.UTF_8)).as("nothing evaluated").isEmpty();
    }

    @Test
    void plotsTheTableAsAPng(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("sub/families.png");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = new CommandLine(new FamilyTable(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
                .execute("--flushes", "20", "--seeds", "1", "--plot", png.toString());
        assertThat(status).isZero();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("plot: " + png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).isNotNull();
        assertThat(image.getWidth()).isEqualTo(1400);
        assertThat(image.getHeight()).isEqualTo(800);
    }
}
