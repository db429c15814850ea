package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.merge.MergePolicies;
import java.util.ArrayList;
import java.util.List;

/**
 * One comparison: our store with a merge policy against RocksDB with a compaction style, written
 * {@code OURS-POLICY/ROCKSDB-STYLE}, e.g. {@code binomial:k=6/universal}.
 *
 * @param ours    our merge policy's spec (as {@code StoreOptions.Builder.policy(String)} takes it)
 * @param rocksdb {@code leveled} or {@code universal}
 */
record Pairing(String ours, String rocksdb) {

    /** The default pairings: both stack policies against universal, leveled against leveled. */
    static final String DEFAULTS = "binomial:k=6/universal;tiered:size-ratio=4/universal;leveled/leveled";

    Pairing {
        if (!rocksdb.equals("leveled") && !rocksdb.equals("universal")) {
            throw new IllegalArgumentException("pairing " + ours + "/" + rocksdb + ": '" + rocksdb
                    + "' is not a RocksDB compaction style; accepted: leveled, universal");
        }
        try {
            MergePolicies.parse(ours);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("pairing " + ours + "/" + rocksdb + ": " + e.getMessage(), e);
        }
    }

    /** Parses one {@code OURS-POLICY/ROCKSDB-STYLE}. */
    static Pairing parse(String text) {
        String t = text.trim();
        int slash = t.lastIndexOf('/');
        if (slash <= 0 || slash == t.length() - 1) {
            throw new IllegalArgumentException("pairing '" + text + "' is not OURS-POLICY/ROCKSDB-STYLE, e.g. "
                    + "binomial:k=6/universal or leveled/leveled");
        }
        return new Pairing(t.substring(0, slash).trim(), t.substring(slash + 1).trim());
    }

    /** Parses a {@code ;}-separated list of pairings. */
    static List<Pairing> parseList(String text) {
        List<Pairing> pairs = new ArrayList<>();
        for (String p : text.split(";")) {
            if (!p.isBlank()) {
                pairs.add(parse(p));
            }
        }
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("no pairing in '" + text + "'");
        }
        return pairs;
    }

    /** As parsed: {@code OURS-POLICY/ROCKSDB-STYLE}. */
    @Override
    public String toString() {
        return ours + "/" + rocksdb;
    }
}
