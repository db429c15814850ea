package example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** lsm-core from its published coordinates: a store opens, writes, flushes, reads and closes. */
class EngineConsumerTest {
    @TempDir
    Path dir;

    @Test
    void aStoreWorks() throws Exception {
        byte[] k = "key".getBytes(StandardCharsets.UTF_8);
        byte[] v = "value".getBytes(StandardCharsets.UTF_8);
        try (LsmStore store = LsmStore.open(dir, StoreOptions.builder().policy("constant:num-components=4").build())) {
            store.write(new WriteBatch().put(k, v).put("gone".getBytes(StandardCharsets.UTF_8), v)
                    .delete("gone".getBytes(StandardCharsets.UTF_8)));
            store.flush();
            assertArrayEquals(v, store.get(k));
            assertNull(store.get("gone".getBytes(StandardCharsets.UTF_8)));
        }
    }
}
