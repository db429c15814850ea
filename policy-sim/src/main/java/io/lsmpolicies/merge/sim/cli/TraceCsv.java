package io.lsmpolicies.merge.sim.cli;

import io.lsmpolicies.merge.sim.SimulationStep;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes one CSV row per flush: the {@code --trace-out} file. {@code reads} is r_t, the reads after this flush;
 * {@code merge_cost}, {@code read_cost} and {@code total_cost} are the costs so far (cumulative).
 */
final class TraceCsv implements Closeable {
    static final String HEADER = "policy,flush,flush_bytes,component_count,merges,merge_bytes,"
            + "write_amplification,model_write_amplification,transient_space_amplification,reads,merge_cost,read_cost,"
            + "total_cost";

    private final BufferedWriter out;
    private final Path path;

    TraceCsv(Path path) {
        this.path = path;
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            out = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
            out.write(HEADER);
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace " + path + ": " + e.getMessage(), e);
        }
    }

    void row(String policy, SimulationStep step) {
        try {
            out.write(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%.6f,%.6f,%.6f,%d,%d,%d,%d", quote(policy),
                    step.flush(), step.flushBytes(), step.componentCount(), step.jobs().size(), step.mergeBytes(),
                    step.writeAmplification(), step.modelWriteAmplification(), step.transientSpaceAmplification(),
                    step.reads(), step.mergeCost(), step.readCost(), step.totalCost()));
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace " + path + ": " + e.getMessage(), e);
        }
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace " + path + ": " + e.getMessage(), e);
        }
    }
}
