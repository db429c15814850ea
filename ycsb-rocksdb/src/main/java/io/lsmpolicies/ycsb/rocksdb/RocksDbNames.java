package io.lsmpolicies.ycsb.rocksdb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * RocksDB's own option names for the peer's settings, and YCSB's {@code rocksdb.optionsfile}: a user of YCSB's
 * RocksDB binding gives {@code -p rocksdb.write_buffer_size=...} or a RocksDB {@code OPTIONS} file, and both mean
 * here what they mean to RocksDB. Each is translated to the peer's property ({@link RocksDbConfig}) before it is
 * validated (an error names the peer's property).
 */
final class RocksDbNames {
    /** YCSB's RocksDB binding's property: a RocksDB {@code OPTIONS} file (INI: {@code [CFOptions "default"]}, ...). */
    static final String OPTIONS_FILE = "rocksdb.optionsfile";

    /** RocksDB's option name to the peer's property. */
    private static final Map<String, String> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("compaction_style", RocksDbConfig.COMPACTION);
        OPTIONS.put("max_bytes_for_level_multiplier", RocksDbConfig.SIZE_RATIO);
        OPTIONS.put("level0_file_num_compaction_trigger", RocksDbConfig.L0_TRIGGER);
        OPTIONS.put("level_compaction_dynamic_level_bytes", RocksDbConfig.LEVEL_TARGETS);
        OPTIONS.put("max_bytes_for_level_base", RocksDbConfig.BASE_LEVEL_BYTES);
        OPTIONS.put("target_file_size_base", RocksDbConfig.TARGET_FILE_BYTES);
        OPTIONS.put("write_buffer_size", RocksDbConfig.MEMTABLE_SIZE);
        OPTIONS.put("max_subcompactions", RocksDbConfig.SUBCOMPACTIONS);
    }

    private RocksDbNames() {
    }

    /** The RocksDB names accepted, as {@code rocksdb.<name>} properties. */
    static List<String> propertyNames() {
        List<String> names = new ArrayList<>();
        for (String o : OPTIONS.keySet()) {
            names.add("rocksdb." + o);
        }
        return names;
    }

    /**
     * {@code given} with every {@code rocksdb.<RocksDB option>} property, and every option of the
     * {@link #OPTIONS_FILE} the peer has a setting for, under the peer's property name; a property already given
     * wins over the file. The file's other options are left out, and listed in {@code ignored}.
     *
     * @throws DBException if a setting is given under both names, or the file cannot be read
     */
    static Properties resolve(Properties given, List<String> ignored) throws DBException {
        Properties out = new Properties();
        for (String name : given.stringPropertyNames()) {
            String option = name.startsWith("rocksdb.") ? name.substring("rocksdb.".length()) : null;
            String ours = option == null ? null : OPTIONS.get(option);
            if (ours == null) {
                out.setProperty(name, given.getProperty(name));
                continue;
            }
            if (given.getProperty(ours) != null) {
                throw new DBException("give " + ours + " or " + name + " (RocksDB's name), not both");
            }
            out.setProperty(ours, value(option, given.getProperty(name).trim(), name));
        }
        String file = given.getProperty(OPTIONS_FILE);
        if (file != null) {
            out.remove(OPTIONS_FILE);
            for (Map.Entry<String, String> e : readOptionsFile(Path.of(file.trim())).entrySet()) {
                String ours = OPTIONS.get(e.getKey());
                if (ours == null) {
                    ignored.add(e.getKey());
                } else if (out.getProperty(ours) == null) {
                    out.setProperty(ours, value(e.getKey(), e.getValue(), OPTIONS_FILE + " " + file + ": "
                            + e.getKey()));
                }
            }
        }
        return out;
    }

    /** RocksDB's value as the peer's: a compaction style's and a boolean's names. */
    private static String value(String option, String v, String where) throws DBException {
        switch (option) {
            case "compaction_style":
                return switch (v) {
                    case "kCompactionStyleLevel" -> "leveled";
                    case "kCompactionStyleUniversal" -> "universal";
                    default -> throw new DBException(where + ": '" + v + "' is not a compaction style here; "
                            + "accepted: kCompactionStyleLevel, kCompactionStyleUniversal");
                };
            case "level_compaction_dynamic_level_bytes":
                return switch (v.toLowerCase(Locale.ROOT)) {
                    case "true", "1" -> "dynamic";
                    case "false", "0" -> "static";
                    default -> throw new DBException(where + ": '" + v + "' is not accepted; accepted: true, false");
                };
            default:
                return v;
        }
    }

    /** The {@code key=value} options of the file's {@code [CFOptions "default"]} and {@code [DBOptions]} sections. */
    private static Map<String, String> readOptionsFile(Path file) throws DBException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DBException(OPTIONS_FILE + ": cannot read " + file + ": " + e, e);
        }
        Map<String, String> options = new LinkedHashMap<>();
        boolean read = false;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[")) {
                read = line.equals("[DBOptions]") || line.equals("[CFOptions \"default\"]");
                continue;
            }
            int eq = line.indexOf('=');
            if (read && eq > 0) {
                options.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return options;
    }
}
