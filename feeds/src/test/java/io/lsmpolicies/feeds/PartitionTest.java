package io.lsmpolicies.feeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The swap of a partition's store: a failed store is closed only once no lease uses it (a reopen waits for the
 * lease, and gives up after its wait with an error saying so), operations during the swap fail cleanly, and the
 * reopened store holds every acknowledged write.
 */
@Timeout(60)
class PartitionTest {
    @TempDir
    Path tmp;

    /** Fails the next WAL sync once armed. */
    private static final class SyncFault implements FaultHook {
        final AtomicBoolean armed = new AtomicBoolean();

        @Override
        public void before(FileOp op, Path path) throws IOException {
            if (op == FileOp.SYNC && path.getFileName().toString().endsWith(".log") && armed.compareAndSet(true,
                    false)) {
                throw new IOException("injected failure: " + op + " of " + path);
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aFailedStoreIsClosedOnlyOnceNoLeaseUsesItAndTheReopenBringsBackEveryAcknowledgedWrite() throws Exception {
        Path dir = tmp.resolve("d");
        SyncFault fault = new SyncFault();
        Partition.Opener opener = () -> LsmStore.open(dir, StoreOptions.defaults(), FileLayer.withFaults(fault));
        Partition.Opener readOnly = () -> LsmStore.openReadOnly(dir, StoreOptions.defaults());
        Partition p = Partition.reopenable("d", 0, 2, dir, opener.open(), null, opener, readOnly, "test");
        try {
            try (Partition.Lease l = p.acquire(true)) {
                for (int i = 0; i < 100; i++) {
                    l.store().put(bytes("k" + i), bytes("v" + i));
                }
            }
            assertThat(p.reopen(Duration.ofSeconds(1))).as("an open partition is left alone").isFalse();

            fault.armed.set(true);
            Partition.Lease reader = p.acquire(false);
            assertThatThrownBy(() -> reader.store().put(bytes("k100"), bytes("v100"))).isInstanceOf(IOException.class);
            assertThat(reader.failed(new IOException("x"))).isTrue();
            assertThat(p.status().state()).isEqualTo(Partition.State.READ_ONLY);
            assertThat(p.status().error()).contains("injected failure");
            assertThatThrownBy(() -> p.acquire(true)).isInstanceOf(PartitionUnavailableException.class)
                    .hasMessageContaining("partition 0 of 2 of dataset d").hasMessageContaining("injected failure")
                    .satisfies(e -> assertThat(((PartitionUnavailableException) e).storeFailed()).isTrue());

            // The reader's lease keeps the failed store open: the reopen gives up after its wait, saying why.
            assertThatThrownBy(() -> p.reopen(Duration.ofMillis(200))).isInstanceOf(IOException.class)
                    .hasMessageContaining("1 operation(s) still use its old store");
            assertThat(p.status().state()).isEqualTo(Partition.State.DOWN);
            assertThatThrownBy(() -> p.acquire(false)).isInstanceOf(PartitionUnavailableException.class)
                    .hasMessageContaining("is unavailable until its store is reopened");
            assertThat(reader.store().get(bytes("k99"))).as("not closed under its lease").isEqualTo(bytes("v99"));
            reader.close();
            reader.close(); // once only

            assertThat(p.reopen(Duration.ofSeconds(10))).isTrue();
            try (Partition.Lease l = p.acquire(true)) {
                for (int i = 0; i < 100; i++) {
                    assertThat(l.store().get(bytes("k" + i))).as("acknowledged write %d", i).isEqualTo(bytes("v" + i));
                }
                l.store().put(bytes("k100"), bytes("v100"));
            }
            assertThat(p.status()).isEqualTo(new Partition.Status(Partition.State.OPEN, null));
        } finally {
            p.close();
        }
        assertThatThrownBy(() -> p.acquire(false)).isInstanceOf(PartitionUnavailableException.class);
        try (LsmStore again = LsmStore.open(dir, StoreOptions.defaults())) { // the lock was released
            assertThat(again.get(bytes("k100"))).isEqualTo(bytes("v100"));
        }
    }

    @Test
    void aPartitionOfAnEmbeddedStoreCannotBeReopened() throws Exception {
        try (LsmStore store = LsmStore.open(tmp.resolve("e"), StoreOptions.defaults())) {
            Partition p = Partition.of("e", 0, 1, store);
            assertThat(p.reopenable()).isFalse();
            assertThatThrownBy(() -> p.reopen(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("dataset e");
            assertThat(p.store()).isSameAs(store);
        }
    }
}
