package io.lsmpolicies.bench.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** How the grid chooses each device's emulation, and the block-layer command it builds (no device is made here). */
class DeviceEmulationTest {
    private static final DeviceClass ABSENT = new DeviceClass(Path.of("/nonexistent/bin/device-class"), 1L << 30,
            1280L << 20, null);

    private static PolicyGrid grid(String... args) {
        PolicyGrid g = new PolicyGrid();
        new CommandLine(g).parseArgs(args);
        return g;
    }

    @Test
    void cellsDefaultToTheInEngineProfileAndNoneStaysNone() {
        assertThat(Cell.parse("lsm:binomial:k=4", "hdd").emulation()).isEqualTo(Cell.ENGINE);
        assertThat(Cell.parse("lsm:binomial:k=4", "none").emulation()).isEqualTo(Cell.NONE);
        assertThat(Cell.parse("lsm:binomial:k=4", "none").withEmulation(Cell.BLOCK).emulation()).isEqualTo(Cell.NONE);
        assertThatThrownBy(() -> new Cell(GridSystem.LSM, "binomial:k=4", "ssd", "none"))
                .hasMessageContaining("emulation");
    }

    @Test
    void autoFallsBackToTheInEngineProfilesSayingWhy() throws Exception {
        PolicyGrid g;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        List<Cell> cells;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            g = grid("--devices", "none,hdd", "--cell", "lsm:binomial:k=4", "--cell", "rocksdb:leveled");
            cells = g.emulate(g.cells(PolicyGrid.Preset.named("quick")), ABSENT);
        } finally {
            System.setOut(saved);
        }
        assertThat(cells).extracting(Cell::emulation).containsExactly("none", "none", "engine", "engine");
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("device hdd: in-engine profiles (bin/device-class cannot run here: /nonexistent");
    }

    @Test
    void blockWhereTheMachineCannotRunClassesIsRefused() {
        PolicyGrid g = grid("--devices", "ssd", "--cell", "lsm:binomial:k=4", "--emulation", "block");
        assertThatThrownBy(() -> g.emulate(g.cells(PolicyGrid.Preset.named("quick")), ABSENT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--emulation block: /nonexistent");
    }

    @Test
    void engineNeverAsksTheScript() throws Exception {
        PolicyGrid g = grid("--devices", "ssd", "--cell", "lsm:binomial:k=4", "--emulation", "engine");
        PrintStream saved = System.out;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            assertThat(g.emulate(g.cells(PolicyGrid.Preset.named("quick")), ABSENT)).extracting(Cell::emulation)
                    .containsExactly("engine");
        } finally {
            System.setOut(saved);
        }
        assertThatThrownBy(() -> grid("--emulation", "disk").emulate(List.of(), ABSENT))
                .hasMessageContaining("--emulation must be auto, block or engine");
    }

    @Test
    void theDefaultsFollowTheHeapAndTheRecords() {
        assertThat(DeviceClass.defaultMemory(List.of("-Xmx256m"))).isEqualTo((256L + 256) << 20);
        assertThat(DeviceClass.defaultMemory(List.of("-XX:+UseG1GC"))).isEqualTo((1024L + 256) << 20);
        assertThat(DeviceClass.defaultSize(1000)).isEqualTo(1L << 30);
        assertThat(DeviceClass.defaultSize(2_000_000)).isEqualTo(2_000_000L * 1100 * 6);
    }

    @Test
    void theCommandMountsTheClassOnTheCellsDirectory() {
        DeviceClass d = new DeviceClass(Path.of("/r/bin/device-class"), 1L << 30, 512L << 20, Path.of("/dev/shm"));
        assertThat(d.command("hdd", Path.of("/w/cell"), List.of("sh", "-c", "x")))
                .containsExactly("/r/bin/device-class", "hdd", "--size", "1073741824", "--memory", "536870912",
                        "--mount", "/w/cell", "--backing", "/dev/shm", "--", "sh", "-c", "x");
        assertThat(DeviceClass.deviceDir(Path.of("/w/cell"))).isEqualTo(Path.of("/w/cell/data"));
        assertThat(DeviceClass.shellQuote("it's")).isEqualTo("'it'\\''s'");
    }
}
