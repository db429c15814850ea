package io.lsmpolicies.bench.grid;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A system the policy grid runs under YCSB: our store ({@code lsm}) and the two peers, each a YCSB binding in its
 * own module whose jar and {@code target/lib} make the child JVM's class path, with {@code target/ycsb-lib} for our
 * binding, whose YCSB core is {@code provided} as in YCSB's own bindings. Each maps the grid's settings onto its
 * binding's properties; all three write the same {@code bench.trace.file}.
 */
public enum GridSystem {
    /** Our engine, embedded ({@code ycsb-binding}, {@code io.lsmpolicies.ycsb.EmbeddedLsmDB}). */
    LSM("ycsb-binding", "io.lsmpolicies.ycsb.EmbeddedLsmDB", "lsm", true),
    /** RocksDB through rocksdbjni ({@code ycsb-rocksdb}); policy {@code leveled} or {@code universal}. */
    ROCKSDB("ycsb-rocksdb", "io.lsmpolicies.ycsb.rocksdb.RocksDbDB", "rocksdb", false),
    /** AsterixDB's LSM B-tree, Hyracks 0.3.8 ({@code ycsb-hyracks}); policy {@code prefix} or one of ours. */
    HYRACKS("ycsb-hyracks", "io.lsmpolicies.ycsb.hyracks.HyracksLsmDB", "hyracks", false);

    private final String module;
    private final String dbClass;
    private final String prefix;
    private final boolean ycsbCoreProvided;

    GridSystem(String module, String dbClass, String prefix, boolean ycsbCoreProvided) {
        this.module = module;
        this.dbClass = dbClass;
        this.prefix = prefix;
        this.ycsbCoreProvided = ycsbCoreProvided;
    }

    /** The name used in cell specs and results: {@code lsm}, {@code rocksdb}, {@code hyracks}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The Maven module holding the binding. */
    public String module() {
        return module;
    }

    /** The YCSB DB class. */
    public String dbClass() {
        return dbClass;
    }

    /**
     * The class path of the binding under {@code root}: its jar, its copied runtime libraries ({@code target/lib}) and,
     * where the binding's YCSB core is {@code provided}, YCSB's core and its libraries ({@code target/ycsb-lib}).
     */
    public String classPath(Path root) {
        Path m = root.resolve(module).resolve("target");
        String cp = m.resolve(module + "-0.1.0-SNAPSHOT.jar") + java.io.File.pathSeparator + m.resolve("lib") + "/*";
        return ycsbCoreProvided ? cp + java.io.File.pathSeparator + m.resolve("ycsb-lib") + "/*" : cp;
    }

    /**
     * The binding's YCSB properties for one cell.
     *
     * @param policy   the policy in the system's own syntax (ours: {@code NAME[:p=v,...]}; RocksDB: {@code leveled},
     *                 {@code universal}, optionally {@code :size-ratio=B}; Hyracks: {@code prefix} or ours)
     * @param dir      the data directory
     * @param memtable the MemTable budget, e.g. {@code 256KB}
     * @param wal      {@code sync}, {@code async} or {@code off} (Hyracks' tree has no log: ignored there)
     * @param device   {@code none}, {@code ssd} or {@code hdd}
     */
    public List<String> properties(String policy, Path dir, String memtable, String wal, String device) {
        List<String> p = new ArrayList<>();
        p.add(prefix + ".dir=" + dir);
        p.add(prefix + ".memtable.size=" + memtable);
        p.add(prefix + ".device=" + device);
        switch (this) {
            case LSM -> {
                p.add("lsm.policy=" + policy);
                p.add("lsm.wal=" + wal);
                // AsterixDB's order, as the paper's engine and the Hyracks cells: every flush written, then merged,
                // the simulator's writeAmplification (the store's default for stack policies folds small merges)
                p.add("lsm.mergeorder=FLUSH_THEN_MERGE");
            }
            case ROCKSDB -> {
                String[] parts = policy.split(":", 2);
                p.add("rocksdb.compaction=" + parts[0]);
                // RocksDB's default proportions at the grid's MemTable: 4 level-0 files make the base level (its
                // 256 MiB = 4 x 64 MiB), output files of one MemTable (its 64 MiB).
                long mem = io.lsmpolicies.lsm.ByteSizes.parse(memtable);
                if (parts[0].equals("leveled")) {
                    p.add("rocksdb.base-level-bytes=" + 4 * mem);
                }
                p.add("rocksdb.target-file-bytes=" + mem);
                if (parts.length == 2) {
                    for (String kv : parts[1].split(",")) {
                        p.add("rocksdb." + kv);
                    }
                }
                p.add("rocksdb.wal=" + wal);
            }
            case HYRACKS -> p.add("hyracks.policy=" + policy);
            default -> throw new AssertionError(this);
        }
        return p;
    }

    /**
     * The system named {@code label}.
     *
     * @throws IllegalArgumentException listing the accepted names
     */
    public static GridSystem of(String label) {
        for (GridSystem s : values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown system '" + label + "'; accepted: lsm, rocksdb, hyracks");
    }
}
