package io.lsmpolicies.lsm.advise;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.merge.sim.AdvisorWorkload;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bin/lsm-advise} on a real store, a literal trace and bad input. */
class LsmAdviseTest {

    record Run(int exit, String out, String err) {
    }

    static Run run(Object... args) {
        CommandLine cl = LsmAdvise.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(Stream.of(args).map(String::valueOf).toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void literalTraceRanksAsWorkedOutByHand(@TempDir Path dir) throws IOException {
        // 3 flushes of 100 bytes, 1000 reads after each, 1 byte a probe: constant k=1 costs 600 + 3000 = 3600 (the
        // optimum), constant k=2 500 + 4000 = 4500, no-merge 300 + 6000 = 6300.
        Path trace = dir.resolve("t.txt");
        Files.writeString(trace, "100 1000\n100 1000\n100 1000\n");
        Path png = dir.resolve("plots/advice.png");
        Run r = run("--trace", trace, "--read-cost", 1, "--policy", "no-merge", "--policy", "constant:k=2",
                "--policy", "constant:k=1", "--plot", png);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("3 flushes, 300 bytes flushed, 3000 reads, 1 bytes a probe")
                .contains("optimum: 3600 bytes (exact)")
                .contains("recommended: constant:k=1")
                .containsPattern("1  constant k=1 +3600 +1\\.000 +600 +3000")
                .containsPattern("2  constant k=2 +4500 +1\\.250 +500 +4000")
                .containsPattern("3  no-merge +6300 +1\\.750 +300 +6000");
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1100);

        Run json = run("--trace", trace, "--read-cost", 1, "--policy", "no-merge", "--policy", "constant:k=1",
                "--format", "json", "--reads", "constant:0");
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertThat(root.get("recommended").asText()).isEqualTo("no-merge");
        assertThat(root.get("optimalCost").asLong()).isEqualTo(300);
        assertThat(root.get("ranking").get(1).get("totalCost").asLong()).isEqualTo(600);
        assertThat(root.get("workload").get("notes").asText()).contains("replaced by --reads constant:0");
    }

    @Test
    void badInputExitsTwoNamingTheLine(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("t.txt");
        Files.writeString(trace, "100\nten\n");
        Run r = run("--trace", trace);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("line 2").contains("'ten'");
        assertThat(run("--trace", trace, "--store", dir).exit()).isEqualTo(2);
        Files.writeString(trace, "100\n");
        assertThat(run("--trace", trace, "--reads", "phases:0x5").err()).contains("--reads");
        assertThat(run("--store", dir.resolve("none")).exit()).isEqualTo(1);
    }

    @Test
    void storeAdviceReadsTheLedgerAndLeavesTheStoreUnchanged(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("db");
        StoreOptions options = StoreOptions.builder().policy("adaptive").memtableBytes(1 << 20).build();
        byte[] value = new byte[100];
        try (LsmStore s = LsmStore.open(store, options)) {
            for (int round = 0; round < 6; round++) {
                for (int i = 0; i < 50; i++) {
                    s.put(("key" + round + "-" + i).getBytes(StandardCharsets.UTF_8), value);
                }
                s.flush();
                s.awaitMerges();
                for (int i = 0; i < 40; i++) {
                    s.get(("key" + round + "-" + i).getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        Map<String, String> before = contents(store);

        AdvisorWorkload w = StoreWorkload.read(store, 4096);
        assertThat(w.flushes()).isEqualTo(6);
        // The reads of rounds 1-5 were reported with flushes 2-6; round 6's were after the last flush.
        assertThat(w.totalReads()).as(w.notes() + java.util.Arrays.toString(w.reads())).isEqualTo(200);
        assertThat(w.notes()).contains("read ledger");

        Run r = run("--store", store, "--top", 5, "--plot", dir.resolve("store.png"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("store " + store).contains("6 flushes").contains("200 reads")
                .contains("recommended: ").contains("because ");
        assertThat(contents(store)).as("the advisor must not change the store").isEqualTo(before);
    }

    /** Every file's name, size, modification time and SHA-256. */
    private static Map<String, String> contents(Path dir) throws IOException, NoSuchAlgorithmException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.toList()) {
                if (Files.isRegularFile(p)) {
                    byte[] bytes = Files.readAllBytes(p);
                    out.put(dir.relativize(p).toString(), bytes.length + " " + Files.getLastModifiedTime(p) + " "
                            + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
                } else {
                    out.put(dir.relativize(p) + "/", "dir " + Files.getLastModifiedTime(p));
                }
            }
        }
        return out;
    }
}
