package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.merge.PolicySpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The settings a store records in its {@link OptionsFile}: the ones that decide what is on disk and how it is
 * merged. Runtime settings (WAL mode, cache size, threads, device, rate limit) are not recorded: they may
 * differ on every open.
 *
 * @param policy          the merge policy with every parameter, defaults included (see {@link PolicySpec#of})
 * @param mergeOrder      the name of the store's {@code MergeOrder}
 * @param memtableBytes   the MemTable budget, which sets the size of a flush
 * @param pageBytes       the SSTable page size
 * @param bloomBitsPerKey Bloom filter bits per key
 * @param maxKeyBytes     the largest key accepted
 * @param maxValueBytes   the largest value accepted
 */
public record StoredOptions(PolicySpec policy, String mergeOrder, long memtableBytes, int pageBytes,
        int bloomBitsPerKey, int maxKeyBytes, int maxValueBytes) {

    /** How the message of an unknown key starts (a reader tells it from other damage by this). */
    static final String UNKNOWN_KEY = "unknown setting";

    private static final Set<String> KEYS = Set.of("policy", "merge-order", "memtable-bytes", "page-bytes",
            "bloom-bits-per-key", "max-key-bytes", "max-value-bytes");

    /**
     * Checks the options.
     *
     * @param policy          the merge policy with every parameter, defaults included (see {@link PolicySpec#of})
     * @param mergeOrder      the name of the store's {@code MergeOrder}
     * @param memtableBytes   the MemTable budget, which sets the size of a flush
     * @param pageBytes       the SSTable page size
     * @param bloomBitsPerKey Bloom filter bits per key
     * @param maxKeyBytes     the largest key accepted
     * @param maxValueBytes   the largest value accepted
     * @throws IllegalArgumentException if a field is missing or out of its type's range
     */
    public StoredOptions {
        if (policy == null || mergeOrder == null || mergeOrder.isEmpty()) {
            throw new IllegalArgumentException("policy and merge-order are required");
        }
        if (memtableBytes <= 0 || pageBytes <= 0 || bloomBitsPerKey <= 0 || maxKeyBytes <= 0 || maxValueBytes < 0) {
            throw new IllegalArgumentException("sizes must be positive: " + this);
        }
    }

    /** The settings as the file's {@code key=value} lines, in a fixed order. */
    Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("policy", policy.toString());
        m.put("merge-order", mergeOrder);
        m.put("memtable-bytes", Long.toString(memtableBytes));
        m.put("page-bytes", Integer.toString(pageBytes));
        m.put("bloom-bits-per-key", Integer.toString(bloomBitsPerKey));
        m.put("max-key-bytes", Integer.toString(maxKeyBytes));
        m.put("max-value-bytes", Integer.toString(maxValueBytes));
        return m;
    }

    /**
     * The settings of the file's lines.
     *
     * @throws IllegalArgumentException naming the key if one is unknown (the message then starts with
     *                                  {@value #UNKNOWN_KEY}), missing or malformed
     */
    static StoredOptions fromMap(Map<String, String> values) {
        for (String key : values.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(UNKNOWN_KEY + " \"" + key + "\" (this build knows " 
                        + String.join(", ", new java.util.TreeSet<>(KEYS)) + ")");
            }
        }
        return new StoredOptions(PolicySpec.parse(required(values, "policy")), required(values, "merge-order"),
                number(values, "memtable-bytes"), (int) number(values, "page-bytes"),
                (int) number(values, "bloom-bits-per-key"), (int) number(values, "max-key-bytes"),
                (int) number(values, "max-value-bytes"));
    }

    private static String required(Map<String, String> values, String key) {
        String v = values.get(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("setting \"" + key + "\" is missing");
        }
        return v;
    }

    private static long number(Map<String, String> values, String key) {
        String v = required(values, key);
        try {
            long n = Long.parseLong(v);
            if (n < 0 || (!key.equals("memtable-bytes") && n > Integer.MAX_VALUE)) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("setting \"" + key + "\" must be a non-negative integer, was \"" + v
                    + "\"");
        }
    }
}
