package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replaced tables are unlinked on the purge thread, never by a merge installing its result or by a read. */
class FilePurgerTest {
    @TempDir
    Path dir;

    private static final StoreOptions OPTIONS = StoreOptions.builder().memtableBytes(8 * 1024)
            .walMode(SyncMode.ASYNC).policy("binomial:k=3")
            .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build())
            .blockCacheBytes(64 * 1024).maxKeyBytes(32).build();

    @Test
    void replacedTablesAreDeletedOnThePurgeThreadAndGoneAfterAwaitMerges() throws Exception {
        Set<String> deleters = ConcurrentHashMap.newKeySet();
        FaultHook record = new FaultHook() {
            @Override
            public void before(FileOp op, Path path) {
                if (op == FileOp.DELETE && path.getFileName().toString().endsWith(".sst")) {
                    deleters.add(Thread.currentThread().getName().replaceAll("-\\d+$", ""));
                }
            }
        };
        Path store = dir.resolve("store");
        try (LsmStore s = LsmStore.open(store, OPTIONS, FileLayer.withFaults(record))) {
            for (int i = 0; i < 20_000; i++) {
                byte[] key = ("key" + (i % 3000)).getBytes(StandardCharsets.US_ASCII);
                s.put(key, new byte[40]);
                if (i % 7 == 0) {
                    s.get(key);
                }
            }
            s.flush();
            s.awaitMerges();
            assertThat(s.metrics().merges().count()).as("merges ran").isPositive();
            assertThat(tableFiles(store)).as("after awaitMerges only live tables are on disk")
                    .isEqualTo(s.metrics().tables().live());
        }
        assertThat(deleters).as("threads that unlinked replaced tables").containsExactly("lsm-purge");
    }

    @Test
    void aFailedDeletionFailsTheStoreAndTheOrphanGoesAtTheNextOpen() throws Exception {
        FaultHook failFirstTableDelete = new FaultHook() {
            private boolean failed;

            @Override
            public synchronized void before(FileOp op, Path path) throws IOException {
                if (op == FileOp.DELETE && path.getFileName().toString().endsWith(".sst") && !failed) {
                    failed = true;
                    throw new IOException("injected failure: " + op + " of " + path);
                }
            }
        };
        Path store = dir.resolve("failing");
        Throwable error = null;
        LsmStore s = LsmStore.open(store, OPTIONS, FileLayer.withFaults(failFirstTableDelete));
        try {
            for (int i = 0; i < 20_000 && error == null; i++) {
                try {
                    s.put(("key" + (i % 3000)).getBytes(StandardCharsets.US_ASCII), new byte[40]);
                    if (i % 1000 == 999) {
                        s.awaitMerges();
                    }
                } catch (IOException e) {
                    error = e;
                }
            }
        } finally {
            try {
                s.close();
            } catch (IOException | RuntimeException e) {
                // failed store
            }
        }
        assertThat(error).as("the failed deletion is reported").isNotNull();
        assertThat(NthFailureTest.namesTheInjection(error)).as("%s", error).isTrue();
        try (LsmStore reopened = LsmStore.open(store, OPTIONS)) {
            reopened.awaitMerges(); // recovery's flush may start a merge
            assertThat(tableFiles(store)).isEqualTo(reopened.metrics().tables().live());
        }
        assertThat(StoreVerifier.verify(store).ok()).isTrue();
    }

    private static long tableFiles(Path store) throws IOException {
        try (Stream<Path> files = Files.list(store)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".sst")).count();
        }
    }
}
