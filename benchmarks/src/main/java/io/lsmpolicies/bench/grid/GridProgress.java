package io.lsmpolicies.bench.grid;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The grid's progress: on a terminal a bar redrawn in place (cells done, the running cell's records loaded, time
 * so far), elsewhere one line per finished cell.
 */
final class GridProgress {
    private static final int WIDTH = 30;

    private final int cells;
    private final long records;
    private final PrintStream terminal;
    private final long start = System.nanoTime();
    private int done;
    private Cell current;

    GridProgress(int cells, long records, PrintStream terminal) {
        this.cells = cells;
        this.records = records;
        this.terminal = terminal;
    }

    synchronized void start(Cell cell) {
        current = cell;
        operations(0);
    }

    /** YCSB reported {@code ops} operations of the running cell. */
    synchronized void operations(long ops) {
        if (terminal == null || current == null) {
            return;
        }
        double share = (done + Math.min(1.0, (double) ops / records)) / cells;
        int filled = (int) Math.round(share * WIDTH);
        StringBuilder bar = new StringBuilder("\r[");
        for (int i = 0; i < WIDTH; i++) {
            bar.append(i < filled ? '=' : i == filled ? '>' : ' ');
        }
        bar.append(String.format(Locale.ROOT, "] %d/%d cells, %s, %s: %,d records   ", done, cells,
                elapsed(), current.label(), ops));
        terminal.print(bar);
        terminal.flush();
    }

    synchronized void finish(CellResult r) {
        done++;
        String line = String.format(Locale.ROOT, "[%d/%d] %s: %s", done, cells, r.cell().label(), r.ok()
                ? String.format(Locale.ROOT, "%,d flushes, write amplification %.2f, %.0f records/s, %.1f s",
                        r.trace().flushes(), r.trace().writeAmplification(), r.load().throughput(), r.seconds())
                : r.status());
        if (terminal != null) {
            terminal.print("\r" + " ".repeat(120) + "\r");
            terminal.println(line);
        } else {
            System.out.println(line);
        }
        current = null;
    }

    private String elapsed() {
        long s = (System.nanoTime() - start) / 1_000_000_000L;
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
