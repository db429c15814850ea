package io.lsmpolicies.merge.sim;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;

/**
 * Turns a trace file or a YCSB workload file into an {@link AdvisorWorkload} (what {@code bin/lsm-advise} reads
 * besides a store directory). Reads its input only.
 */
public final class AdvisorInputs {
    /** The header of the per-flush trace the YCSB bindings write ({@code bench.trace.file}). */
    static final String YCSB_TRACE_HEADER = "event,flushes,flushed_bytes";
    /** Bytes of a YCSB key as our bindings store it: {@code user} and up to 19 digits. */
    public static final int YCSB_KEY_BYTES = 23;
    /** Bytes a field's name adds to its value ({@code field0} .. {@code field9}). */
    public static final int YCSB_FIELD_NAME_BYTES = 6;

    private AdvisorInputs() {
    }

    /**
     * A trace file: one flush a line, {@code LENGTH} or {@code LENGTH READS} (separated by a comma or spaces;
     * blank lines and {@code #} comments skipped), where READS are the reads after that flush; or the per-flush
     * CSV the YCSB bindings write ({@code bench.trace.file}, header {@code event,flushes,flushed_bytes,...}),
     * whose flush lengths are the differences of {@code flushed_bytes} and which has no read counts (they are 0
     * and the workload's notes say so).
     *
     * @param file          the trace file
     * @param readCostBytes the bytes one read's probe of one SSTable costs
     * @return the workload
     * @throws IllegalArgumentException naming the file and line of a malformed line, or if there is no flush
     * @throws UncheckedIOException     if the file cannot be read
     */
    public static AdvisorWorkload trace(Path file, long readCostBytes) {
        String label = "trace " + file;
        long[] lengths = new long[256];
        long[] reads = new long[256];
        int n = 0;
        boolean ycsb = false;
        boolean anyReads = false;
        long previousFlushed = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long lineNumber = 0;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                if (lineNumber == 1 && text.startsWith(YCSB_TRACE_HEADER)) {
                    ycsb = true;
                    continue;
                }
                long length;
                long read = 0;
                if (ycsb) {
                    String[] f = text.split(",");
                    if (f.length < 3) {
                        throw new IllegalArgumentException(label + " line " + lineNumber + ": expected "
                                + YCSB_TRACE_HEADER + ",..., got '" + shorten(text) + "'");
                    }
                    if (!f[0].equals("flush")) {
                        continue;
                    }
                    long flushed = number(f[2], label, lineNumber, "flushed_bytes");
                    length = flushed - previousFlushed;
                    if (length < 0) {
                        throw new IllegalArgumentException(label + " line " + lineNumber + ": flushed_bytes "
                                + flushed + " is below the previous row's " + previousFlushed);
                    }
                    previousFlushed = flushed;
                } else {
                    String[] f = text.split("[,\\s]+");
                    if (f.length > 2) {
                        throw new IllegalArgumentException(label + " line " + lineNumber
                                + ": expected LENGTH or LENGTH READS, got '" + shorten(text) + "'");
                    }
                    length = number(f[0], label, lineNumber, "flush length");
                    if (f.length == 2) {
                        read = number(f[1], label, lineNumber, "read count");
                        anyReads = true;
                    }
                }
                if (n == lengths.length) {
                    lengths = Arrays.copyOf(lengths, n * 2);
                    reads = Arrays.copyOf(reads, n * 2);
                }
                lengths[n] = length;
                reads[n] = read;
                n++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + label + ": " + e.getMessage(), e);
        }
        if (n == 0) {
            throw new IllegalArgumentException(label + " holds no flush");
        }
        String notes = ycsb ? "a YCSB trace has no read counts: reads taken as 0 unless --reads gives them"
                : anyReads ? "" : "no read counts in the trace: reads taken as 0 unless --reads gives them";
        return new AdvisorWorkload(Arrays.copyOf(lengths, n), Arrays.copyOf(reads, n), readCostBytes, label, notes);
    }

    /**
     * A YCSB workload file run on a store after loading {@code records} records: the load phase (every record
     * inserted, nothing read), then the transaction phase ({@code operationcount} operations in the file's
     * proportions). Writes fill MemTables of {@code memtableBytes} bytes; each full one is a flush of that length,
     * and the remainder is one last, shorter flush (when the store is closed). A record's bytes are estimated as
     * {@value #YCSB_KEY_BYTES} for the key plus {@code fieldcount x (fieldlength + }{@value #YCSB_FIELD_NAME_BYTES}
     * {@code )}; an update writes one field unless {@code writeallfields=true}; a read-modify-write reads and
     * updates. The transaction phase's reads (reads, scans, read-modify-writes) are spread evenly over its writes;
     * reads before the first flush probe no SSTable and are left out. Updates are priced as new bytes: the model
     * does not shrink merges.
     *
     * @param records the record count (the file's {@code recordcount} if negative)
     * @param file          the YCSB workload file
     * @param memtableBytes the MemTable budget, the length of a full flush
     * @param readCostBytes the bytes one read's probe of one SSTable costs
     * @return the workload
     * @throws IllegalArgumentException naming the file and the property if a value is malformed or out of range
     */
    public static AdvisorWorkload ycsb(Path file, long records, long memtableBytes, long readCostBytes) {
        String label = "YCSB workload " + file;
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + label + ": " + e.getMessage(), e);
        }
        if (memtableBytes < 1) {
            throw new IllegalArgumentException("MemTable bytes must be >= 1, was " + memtableBytes);
        }
        long recordCount = records >= 0 ? records : longProperty(p, "recordcount", 1000, label);
        long operations = longProperty(p, "operationcount", 1000, label);
        long fields = longProperty(p, "fieldcount", 10, label);
        long fieldLength = longProperty(p, "fieldlength", 100, label);
        double read = fraction(p, "readproportion", 0.95, label);
        double update = fraction(p, "updateproportion", 0.05, label);
        double insert = fraction(p, "insertproportion", 0, label);
        double scan = fraction(p, "scanproportion", 0, label);
        double rmw = fraction(p, "readmodifywriteproportion", 0, label);
        double sum = read + update + insert + scan + rmw;
        if (sum <= 0 && operations > 0) {
            throw new IllegalArgumentException(label + ": every operation proportion is 0");
        }
        boolean writeAll = Boolean.parseBoolean(p.getProperty("writeallfields", "false").strip());
        long recordBytes = YCSB_KEY_BYTES + fields * (fieldLength + YCSB_FIELD_NAME_BYTES);
        long updateBytes = writeAll ? recordBytes : YCSB_KEY_BYTES + fieldLength + YCSB_FIELD_NAME_BYTES;
        double runOps = operations;
        double loadBytes = (double) recordCount * recordBytes;
        double runWriteBytes = sum <= 0 ? 0 : runOps * (insert * recordBytes + (update + rmw) * updateBytes) / sum;
        double runReads = sum <= 0 ? 0 : runOps * (read + scan + rmw) / sum;
        long totalBytes = Math.round(loadBytes + runWriteBytes);
        if (totalBytes == 0) {
            throw new IllegalArgumentException(label + ": the workload writes nothing (" + recordCount
                    + " records, no writes in the transaction phase), so nothing is ever flushed");
        }
        long full = totalBytes / memtableBytes;
        long rest = totalBytes - full * memtableBytes;
        long n = full + (rest > 0 ? 1 : 0);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(label + ": " + n + " flushes of " + memtableBytes
                    + " bytes; give a larger MemTable");
        }
        long[] lengths = new long[(int) n];
        Arrays.fill(lengths, 0, (int) full, memtableBytes);
        if (rest > 0) {
            lengths[(int) n - 1] = rest;
        }
        long[] reads = new long[(int) n];
        long totalReads = Math.round(runReads);
        for (int t = 1; t <= full; t++) {
            // Reads at byte positions loadBytes + (j + 0.5) x runWriteBytes / totalReads, j = 0..totalReads-1;
            // flush t's reads are those in [t x M, (t + 1) x M) (the last full flush's: every later one).
            double from = (double) t * memtableBytes;
            double to = t == full ? Double.POSITIVE_INFINITY : (double) (t + 1) * memtableBytes;
            reads[t - 1] = readsBefore(to, loadBytes, runWriteBytes, totalReads)
                    - readsBefore(from, loadBytes, runWriteBytes, totalReads);
        }
        String notes = String.format(Locale.ROOT, "%d records of about %d bytes loaded, then %d operations "
                        + "(%.0f reads, %.0f bytes written); %d-byte MemTables; updates priced as new bytes",
                recordCount, recordBytes, operations, runReads, runWriteBytes, memtableBytes);
        return new AdvisorWorkload(lengths, reads, readCostBytes, label, notes);
    }

    /** The reads whose byte position is below {@code position}. */
    private static long readsBefore(double position, double load, double runBytes, long reads) {
        if (reads == 0 || position <= load) {
            return position > load ? reads : 0;
        }
        if (runBytes <= 0 || position == Double.POSITIVE_INFINITY) {
            return reads; // every read sits at the load's end, below the position
        }
        double j = Math.ceil((position - load) * reads / runBytes - 0.5);
        return (long) Math.max(0, Math.min(reads, j));
    }

    private static long longProperty(Properties p, String name, long fallback, String label) {
        String v = p.getProperty(name);
        if (v == null) {
            return fallback;
        }
        try {
            long value = Long.parseLong(v.strip());
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(label + ": " + name + "=" + v.strip() + " is not a non-negative integer");
    }

    private static double fraction(Properties p, String name, double fallback, String label) {
        String v = p.getProperty(name);
        if (v == null) {
            return fallback;
        }
        try {
            double value = Double.parseDouble(v.strip());
            if (value >= 0 && value <= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(label + ": " + name + "=" + v.strip() + " is not a proportion in [0, 1]");
    }

    private static long number(String text, String label, long line, String noun) {
        try {
            long v = Long.parseLong(text.strip());
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(label + " line " + line + ": '" + shorten(text)
                + "' is not a non-negative integer " + noun);
    }

    private static String shorten(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }
}
