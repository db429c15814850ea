package io.lsmpolicies.merge.sim.cli;

import io.lsmpolicies.merge.sim.SimulationResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * Prints results as an aligned text table, one row per policy, with the seconds each run took and, when asked
 * for, the ratios to the offline optima.
 */
final class ResultTable {
    private ResultTable() {
    }

    static void print(PrintWriter out, List<SimulationResult> results, List<String> labels, List<Double> seconds,
            Optima optima) {
        String header = String.format(Locale.ROOT, "%-24s %12s %10s %10s %9s %9s %12s %9s %16s %16s %16s %8s",
                "policy", "flushes", "WA", "model WA", "avg SST", "max SST", "merges", "transient", "merge cost",
                "read cost", "total cost", "seconds") + optima.tableHeader();
        out.println(header);
        out.println("-".repeat(header.length()));
        for (int i = 0; i < results.size(); i++) {
            SimulationResult r = results.get(i);
            out.println(String.format(Locale.ROOT, "%-24s %12d %10.3f %10.3f %9.3f %9d %12d %9.3f %16d %16d %16d %8.2f",
                    labels.get(i), r.flushes(), r.writeAmplification(), r.modelWriteAmplification(),
                    r.averageComponentCount(), r.maxComponentCount(), r.merges(),
                    r.transientSpaceAmplification(), r.mergeCost(), r.readCost(), r.totalCost(), seconds.get(i))
                    + optima.tableCells(r));
        }
        out.println();
        out.println("flush sizes: " + results.get(0).flushSize() + " (seed " + results.get(0).seed() + ");"
                + " WA = (flushed + merge outputs) / flushed; model WA = Mathieu et al.'s cost;"
                + " avg/max SST = SSTables after each flush; transient = max space during a merge / flushed");
        out.println("reads: " + results.get(0).reads() + " after each flush, " + results.get(0).readCostBytes()
                + " bytes per SSTable probe; merge cost = model WA x flushed bytes; read cost = sum of reads x SSTables"
                + " x probe bytes; total cost = merge cost + read cost (bytes)");
        optima.tableNotes().forEach(out::println);
        out.flush();
    }
}
