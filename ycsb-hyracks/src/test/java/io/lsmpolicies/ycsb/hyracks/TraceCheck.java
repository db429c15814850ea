package io.lsmpolicies.ycsb.hyracks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.ycsb.common.TraceFile.Event;
import io.lsmpolicies.ycsb.common.TraceFile.Row;
import io.lsmpolicies.ycsb.common.TraceFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A trace file read back ({@link TraceFile#read} checks the header, the columns and the order), then checked
 * against the rest of the benchmark's contract: one {@code flush} row per flush numbered 1..n, then exactly one {@code end} row; cumulative columns never
 * decrease; {@code written_bytes >= flushed_bytes}, and written grows at least by what each flush adds; every
 * flush adds bytes; components and disk bytes are positive; the {@code end} row carries the last flush row's
 * totals.
 */
record TraceCheck(List<Row> flushes, Row end) {

    static TraceCheck read(Path file) throws IOException {
        List<Row> rows = new ArrayList<>(TraceFile.read(file));
        Row end = rows.remove(rows.size() - 1);
        Row previous = new Row(Event.FLUSH, 0, 0, 0, 0, 0);
        for (Row r : rows) {
            assertThat(r.flushedBytes()).as("a flush writes bytes: %s after %s", r, previous)
                    .isGreaterThan(previous.flushedBytes());
            assertThat(r.writtenBytes() - previous.writtenBytes()).as("%s after %s", r, previous)
                    .isGreaterThanOrEqualTo(r.flushedBytes() - previous.flushedBytes());
            assertThat(r.components()).as("%s", r).isPositive();
            assertThat(r.diskBytes()).as("%s", r).isPositive();
            previous = r;
        }
        assertThat(rows.get(0).flushes()).isEqualTo(1);
        assertThat(end.flushes()).isEqualTo(previous.flushes());
        assertThat(end.flushedBytes()).isEqualTo(previous.flushedBytes());
        assertThat(end.components()).isPositive();
        assertThat(end.diskBytes()).isPositive();
        return new TraceCheck(List.copyOf(rows), end);
    }

    /** The bytes of each flush, in order (the differences of {@code flushed_bytes}). */
    List<Long> flushSizes() {
        List<Long> sizes = new ArrayList<>();
        long before = 0;
        for (Row r : flushes) {
            sizes.add(r.flushedBytes() - before);
            before = r.flushedBytes();
        }
        return sizes;
    }

    /** (flush and merge outputs) / flush outputs, at the end. */
    double writeAmplification() {
        return (double) end.writtenBytes() / end.flushedBytes();
    }
}
