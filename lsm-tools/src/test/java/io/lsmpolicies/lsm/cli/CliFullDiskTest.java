package io.lsmpolicies.lsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.DirectoryContents;
import io.lsmpolicies.lsm.EngineTestSupport;
import io.lsmpolicies.lsm.FullTmpfs;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/lsm get}, {@code scan} and {@code stats} on a real full disk (a tmpfs filled to the last byte): they
 * open the store read-only, so they answer, and the store's files stay as they were. They used to fail with
 * "No space left on device", because opening the store wrote a manifest and flushed the log.
 */
class CliFullDiskTest {
    @TempDir
    Path tmp;

    @Test
    void readsWorkOnAFullDiskAndChangeNothing() throws Exception {
        try (FullTmpfs disk = FullTmpfs.mount(tmp.resolve("mnt"), "8m")) {
            Path live = tmp.resolve("live");
            Path dir = disk.path().resolve("db");
            StoreOptions options = StoreOptions.builder().policy("binomial:k=3").walMode(SyncMode.SYNC)
                    .memtableBytes(64 * 1024).build();
            try (LsmStore store = LsmStore.open(live, options)) {
                for (int i = 0; i < 2000; i++) {
                    store.put(("user" + i).getBytes(StandardCharsets.UTF_8),
                            ("value " + i).getBytes(StandardCharsets.UTF_8));
                }
                EngineTestSupport.copyStore(live, dir); // a crash image: tables and writes only in the log
            }
            disk.fill();
            TreeMap<String, byte[]> before = DirectoryContents.of(dir);

            CliRunner.Result get = CliRunner.run("get", "--dir", dir, "--key", "user1999");
            assertThat(get.exit()).as(get.err()).isZero();
            assertThat(get.out().strip()).isEqualTo("value 1999");
            CliRunner.Result scan = CliRunner.run("scan", "--dir", dir);
            assertThat(scan.exit()).as(scan.err()).isZero();
            assertThat(scan.lines()).hasSize(2000);
            CliRunner.Result stats = CliRunner.run("stats", "--dir", dir);
            assertThat(stats.exit()).as(stats.err()).isZero();
            assertThat(stats.json().get("space").get("liveEntries").asLong()).isEqualTo(2000);

            DirectoryContents.assertSame(before, DirectoryContents.of(dir));
        }
    }
}
