package io.lsmpolicies.ycsb.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.ycsb.common.TraceFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Reads a flush trace file and checks the contract every system of the benchmark follows. */
final class TraceCsv {
    private TraceCsv() {
    }

    /** Parses {@code file} ({@link TraceFile#read} checks the header, the columns and the order). */
    static List<TraceFile.Row> read(Path file) throws IOException {
        return TraceFile.read(file);
    }

    /**
     * Asserts the contract: at least {@code minFlushes} flush rows numbered 1..n, then exactly one end row (last,
     * flushes = n); cumulative columns never decrease; every flush writes bytes; written >= flushed; a positive
     * component count; disk bytes positive. Returns the rows.
     */
    static List<TraceFile.Row> check(Path file, int minFlushes) throws IOException {
        List<TraceFile.Row> rows = read(file);
        assertThat(rows.size()).as("rows of %s", file).isGreaterThanOrEqualTo(minFlushes + 1);
        TraceFile.Row end = rows.get(rows.size() - 1);
        assertThat(end.event()).isEqualTo(TraceFile.Event.END);
        long flushed = 0;
        long written = 0;
        for (int i = 0; i < rows.size(); i++) {
            TraceFile.Row r = rows.get(i);
            if (i < rows.size() - 1) {
                assertThat(r.event()).as("row %d", i + 1).isEqualTo(TraceFile.Event.FLUSH);
                assertThat(r.flushes()).as("row %d", i + 1).isEqualTo(i + 1);
                assertThat(r.flushedBytes()).as("a flush writes bytes, row %d", i + 1).isGreaterThan(flushed);
            } else {
                assertThat(r.flushes()).isEqualTo(rows.size() - 1);
                assertThat(r.flushedBytes()).isEqualTo(flushed);
            }
            assertThat(r.writtenBytes()).as("row %d", i + 1).isGreaterThanOrEqualTo(written)
                    .isGreaterThanOrEqualTo(r.flushedBytes());
            assertThat(r.components()).as("row %d", i + 1).isPositive();
            assertThat(r.diskBytes()).as("row %d", i + 1).isPositive();
            flushed = r.flushedBytes();
            written = r.writtenBytes();
        }
        return rows;
    }
}
