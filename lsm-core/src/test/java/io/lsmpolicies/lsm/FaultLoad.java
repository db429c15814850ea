package io.lsmpolicies.lsm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * The fixed load the fault tests run: seeded puts of 20 to 99 random bytes over a small key space, then a flush
 * and the merges it starts. It stops at the first failure and says what had been acknowledged, so a test can
 * check the store against it.
 */
final class FaultLoad {
    private FaultLoad() {
    }

    /**
     * What a run did.
     *
     * @param acked        the value of each key as last acknowledged
     * @param pendingKey   the key of the put in flight when the run failed, or null
     * @param pendingValue its value, or null
     * @param error        the first failure, or null if the run finished
     */
    record Outcome(Map<Integer, byte[]> acked, Integer pendingKey, byte[] pendingValue, Throwable error) {
    }

    /** The key of key number {@code k}: {@code k00042}. */
    static byte[] key(int k) {
        return String.format("k%05d", k).getBytes(StandardCharsets.US_ASCII);
    }

    /** Runs {@code operations} puts over keys {@code 0..keys-1} (random with {@code seed}), then flush and merges. */
    static Outcome run(LsmStore store, long seed, int operations, int keys) {
        Random random = new Random(seed);
        Map<Integer, byte[]> acked = new HashMap<>();
        for (int i = 0; i < operations; i++) {
            int k = random.nextInt(keys);
            byte[] v = new byte[20 + random.nextInt(80)];
            random.nextBytes(v);
            try {
                store.put(key(k), v);
                acked.put(k, v);
            } catch (IOException | RuntimeException e) {
                return new Outcome(acked, k, v, e);
            }
        }
        try {
            store.flush();
            store.awaitMerges();
        } catch (IOException | RuntimeException e) {
            return new Outcome(acked, null, null, e);
        }
        return new Outcome(acked, null, null, null);
    }
}
