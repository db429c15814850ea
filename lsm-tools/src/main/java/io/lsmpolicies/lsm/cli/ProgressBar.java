package io.lsmpolicies.lsm.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A one-line progress bar redrawn in place with a carriage return: the share done, the count and the rate so
 * far. For terminals only: the caller shows it when {@link System#console()} is not null, so logs and pipes
 * stay free of control characters. Not thread-safe (one reporter thread draws it).
 */
final class ProgressBar {
    private static final int WIDTH = 30;

    private final PrintWriter out;
    private final long total;
    private final long startNanos = System.nanoTime();

    ProgressBar(PrintWriter out, long total) {
        this.out = out;
        this.total = total;
    }

    /** Redraws the bar for {@code done} of the total. */
    void show(long done) {
        double share = total == 0 ? 1.0 : Math.min(1.0, (double) done / total);
        int filled = (int) Math.round(share * WIDTH);
        double seconds = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
        StringBuilder bar = new StringBuilder("\r[");
        for (int i = 0; i < WIDTH; i++) {
            bar.append(i < filled ? '=' : i == filled ? '>' : ' ');
        }
        bar.append(String.format(Locale.ROOT, "] %5.1f%%  %d/%d  %.0f records/s ", share * 100, done, total,
                done / seconds));
        out.print(bar);
        out.flush();
    }

    /** Draws the final state and ends the line. */
    void finish(long done) {
        show(done);
        out.println();
        out.flush();
    }
}
