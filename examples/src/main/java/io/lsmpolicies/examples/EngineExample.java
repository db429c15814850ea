package io.lsmpolicies.examples;

import io.lsmpolicies.lsm.KeyValue;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.Snapshot;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine ({@code lsm-core}) opened, written, read and scanned: what {@code docs/engine.md} and the README show,
 * as a region of this file.
 */
public final class EngineExample {
    private EngineExample() {
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes a few keys into a store in {@code dir} (created if new), then returns the keys a scan sees.
     *
     * @throws IOException if the store cannot be opened or written
     */
    public static List<String> run(Path dir) throws IOException {
        List<String> seen = new ArrayList<>();
        // snippet:start store
        StoreOptions options = StoreOptions.builder()
                .policy("binomial:k=6")            // any registered policy spec
                .memtableBytes(4 << 20)            // 4 MiB, the default
                .walMode(SyncMode.SYNC)            // SYNC (default), ASYNC or OFF
                .build();
        try (LsmStore store = LsmStore.open(dir, options)) {
            store.put(bytes("apple"), bytes("red"));                 // also upsert(key, value)
            store.write(new WriteBatch()                            // atomic
                    .put(bytes("banana"), bytes("yellow"))
                    .delete(bytes("apple")));
            byte[] v = store.get(bytes("banana"));                   // null when absent or deleted
            try (Snapshot snap = store.snapshot();
                 StoreIterator it = store.scan(bytes("a"), null, snap)) { // [from, to), a null bound is open
                while (it.hasNext()) {
                    KeyValue kv = it.next();
                    seen.add(new String(kv.key(), StandardCharsets.UTF_8));
                }
            }
            store.flush();                 // every MemTable so far is in an SSTable
            store.awaitMerges();           // no merge running, the policy asks for none
            store.compactAll();            // one SSTable, tombstones and old versions dropped
            System.out.println(store.metrics().toJson());
        }
        // snippet:end store
        return seen;
    }

    /** Runs the example on the directory given as the first argument. */
    public static void main(String[] args) throws IOException {
        System.out.println(run(Path.of(args[0])));
    }
}
