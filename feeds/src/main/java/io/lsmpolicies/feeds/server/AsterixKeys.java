package io.lsmpolicies.feeds.server;

import java.util.List;
import java.util.Set;

/**
 * AsterixDB's own {@code cc.conf} keys for a node, {@code [nc]} and {@code [common]}, which a descriptor copied
 * from an AsterixDB cluster holds and this server has no use for: its processes, ports and addresses (the server
 * has one process and one HTTP port, set in {@code [http]}), its transaction log (each store keeps its own
 * write-ahead log), logging, the JVM, the query compiler, replication. They are recognised by name (AsterixDB
 * 0.9.8's node keys) or by family (the prefix before the first dot, for the families whose every key configures
 * something this server does not have), so that a typo of a key we read is still an error: a key within two
 * edits of one we read is refused with a suggestion.
 */
final class AsterixKeys {
    /** AsterixDB 0.9.8's keys of a node's section that belong to no family below. */
    private static final Set<String> KEYS = Set.of("address", "command", "core.dump.dir", "public.address",
            "app.class", "iodevices");

    /** Families (dotted prefixes) of AsterixDB's keys: every key in them configures what this server lacks. */
    private static final List<String> FAMILIES = List.of("active.", "cc.", "cloud.", "cluster.", "compiler.",
            "credential.", "data.", "heartbeat.", "http.", "java.", "job.", "jvm.", "key.", "library.", "log.",
            "messaging.", "metadata.", "nc.", "ncservice.", "net.", "python.", "rebalance.", "replication.",
            "result.", "ssl.", "storage.", "trace.", "trust.", "txn.");

    private AsterixKeys() {
    }

    /** Whether {@code key} is one of AsterixDB's node, {@code [nc]} or {@code [common]} keys. */
    static boolean isAsterixKey(String key) {
        if (KEYS.contains(key)) {
            return true;
        }
        for (String f : FAMILIES) {
            if (key.startsWith(f) && key.length() > f.length()) {
                return true;
            }
        }
        return false;
    }

    /** A key of {@code ours} at most two edits from {@code key} (a likely typo of it), or {@code null}. */
    static String nearMiss(String key, Set<String> ours) {
        for (String o : ours) {
            if (distance(key, o, 2) <= 2) {
                return o;
            }
        }
        return null;
    }

    /** The edit distance of {@code a} and {@code b}, or {@code limit + 1} once it is known to exceed {@code limit}. */
    private static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            int best = current[0];
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
                best = Math.min(best, current[j]);
            }
            if (best > limit) {
                return limit + 1;
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
