package io.lsmpolicies.ycsb.common;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The per-flush trace every system of the policy benchmark writes when YCSB is given {@value #PROPERTY} (our
 * store, and the RocksDB and Hyracks peers), so that one reader draws the figures of Mao et al. (VLDB Journal
 * 2021, Sect. 4) for all of them. A CSV file with the header {@value #HEADER}:
 * <ul>
 *   <li>one {@code flush} row per flush, in install order, {@code flushes} = 1, 2, ...;</li>
 *   <li>one {@code end} row last, once the final flush and every merge it caused have finished.</li>
 * </ul>
 * {@code flushed_bytes}: bytes of the SSTable files flushes wrote so far; {@code written_bytes}: bytes of the
 * SSTable files flushes and merges wrote so far (a move that copies nothing writes nothing); {@code components}:
 * SSTables a point read may probe (at a flush row, right after the flush and before its merges); {@code
 * disk_bytes}: the most SSTable bytes on disk at once since the previous row.
 */
public final class TraceFile {
    /** The YCSB property naming the trace file. */
    public static final String PROPERTY = "bench.trace.file";
    /** The CSV header. */
    public static final String HEADER = "event,flushes,flushed_bytes,written_bytes,components,disk_bytes";

    /** A row's kind. */
    public enum Event {
        /** Taken when a flush was installed. */
        FLUSH,
        /** Taken once everything settled. */
        END
    }

    /**
     * One row.
     *
     * @param event        flush or end
     * @param flushes      flushes so far
     * @param flushedBytes bytes flushes wrote so far
     * @param writtenBytes bytes flushes and merges wrote so far
     * @param components   SSTables a point read may probe
     * @param diskBytes    most SSTable bytes on disk since the previous row
     */
    public record Row(Event event, long flushes, long flushedBytes, long writtenBytes, int components,
            long diskBytes) {
        /**
         * Checks the counts.
         *
         * @param event        flush or end
         * @param flushes      flushes so far
         * @param flushedBytes bytes flushes wrote so far
         * @param writtenBytes bytes flushes and merges wrote so far
         * @param components   SSTables a point read may probe
         * @param diskBytes    most SSTable bytes on disk since the previous row
         * @throws IllegalArgumentException if a count is negative or fewer bytes were written than flushed
         */
        public Row {
            if (flushes < 0 || flushedBytes < 0 || components < 0 || diskBytes < 0 || writtenBytes < flushedBytes) {
                throw new IllegalArgumentException("not a trace row: " + event + "," + flushes + "," + flushedBytes
                        + "," + writtenBytes + "," + components + "," + diskBytes);
            }
        }
    }

    private TraceFile() {
    }

    /**
     * Writes {@code rows} to {@code file} (its parent directories created), replacing it.
     *
     * @param file the trace file
     * @param rows the rows, in order
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, List<Row> rows) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(HEADER);
            w.newLine();
            for (Row r : rows) {
                w.write(r.event().name().toLowerCase(java.util.Locale.ROOT) + "," + r.flushes() + ","
                        + r.flushedBytes() + "," + r.writtenBytes() + "," + r.components() + "," + r.diskBytes());
                w.newLine();
            }
        }
    }

    /**
     * Reads a trace.
     *
     * @param file the trace file
     * @return its rows, in order
     * @throws IOException naming the file and line if it is not a trace: wrong header, a malformed row, counters
     *                     that fall, flush numbers out of order, or no {@code end} row last
     */
    public static List<Row> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IOException(file + ": line 1 must be '" + HEADER + "'");
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String[] f = lines.get(i).split(",", -1);
            Row row;
            try {
                if (f.length != 6) {
                    throw new IllegalArgumentException("6 fields expected, found " + f.length);
                }
                row = new Row(Event.valueOf(f[0].toUpperCase(java.util.Locale.ROOT)), Long.parseLong(f[1]),
                        Long.parseLong(f[2]), Long.parseLong(f[3]), Integer.parseInt(f[4]), Long.parseLong(f[5]));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ": line " + (i + 1) + ": " + e.getMessage(), e);
            }
            if (!rows.isEmpty()) {
                Row p = rows.get(rows.size() - 1);
                if (p.event() == Event.END) {
                    throw new IOException(file + ": line " + (i + 1) + ": a row after the end row");
                }
                if (row.flushedBytes() < p.flushedBytes() || row.writtenBytes() < p.writtenBytes()
                        || (row.event() == Event.FLUSH && row.flushes() != p.flushes() + 1)) {
                    throw new IOException(file + ": line " + (i + 1) + ": counters must grow by one flush per row");
                }
            }
            rows.add(row);
        }
        if (rows.isEmpty() || rows.get(rows.size() - 1).event() != Event.END) {
            throw new IOException(file + ": the last row must be the end row");
        }
        return List.copyOf(rows);
    }
}
