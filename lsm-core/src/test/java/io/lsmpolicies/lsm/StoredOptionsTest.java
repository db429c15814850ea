package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.manifest.OptionsFile;
import io.lsmpolicies.lsm.manifest.PolicyRecord;
import io.lsmpolicies.lsm.manifest.StoredOptions;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.PolicySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store remembers the settings it was written with ({@code OPTIONS}): its policy with every parameter is what
 * a tool reopens it with; reopening with another policy is a switch, recorded and reported, or refused before
 * anything changes when the tree cannot continue under it.
 */
class StoredOptionsTest {
    @TempDir
    Path dir;

    private static final String LEVELED = "leveled:picker=round-robin,l0-trigger=2,size-ratio=4,"
            + "base-level-bytes=16384,target-file-bytes=4096";

    private static StoreOptions options(String policy) {
        return StoreOptions.builder().memtableBytes(8 * 1024).walMode(SyncMode.SYNC).policy(policy).mergeThreads(1)
                .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).blockCacheBytes(0)
                .maxKeyBytes(16).build();
    }

    private static byte[] key(int i) {
        return String.format("k%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static void load(LsmStore store, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            store.put(key(i), ("v" + i).repeat(10).getBytes(StandardCharsets.US_ASCII));
        }
    }

    private Map<String, byte[]> files() throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                if (!p.getFileName().toString().equals("LOCK")) {
                    out.put(p.getFileName().toString(), Files.readAllBytes(p));
                }
            }
        }
        return out;
    }

    @Test
    void aStoreRecordsItsPolicyWithEveryParameterAndReopensWithoutASwitch() throws IOException {
        try (LsmStore store = LsmStore.open(dir, options("binomial:k=4"))) {
            assertThat(store.policySwitch()).isEmpty();
            load(store, 0, 2000);
        }
        StoredOptions stored = LsmStore.storedOptions(dir).orElseThrow();
        assertThat(stored.policy()).isEqualTo(PolicySpec.parse("binomial:k=4"));
        assertThat(stored.memtableBytes()).isEqualTo(8 * 1024);
        assertThat(stored.pageBytes()).isEqualTo(1024);
        assertThat(stored.maxKeyBytes()).isEqualTo(16);
        byte[] before = Files.readAllBytes(dir.resolve(OptionsFile.NAME));
        try (LsmStore store = LsmStore.open(dir, options("binomial:k=4"))) {
            assertThat(store.policySwitch()).isEmpty();
            assertThat(store.get(key(1999))).isNotNull();
        }
        assertThat(Files.readAllBytes(dir.resolve(OptionsFile.NAME))).as("unchanged options are not rewritten")
                .isEqualTo(before);
    }

    @Test
    void anotherPolicyIsASwitchRecordedInTheOptionsAndTheManifest() throws IOException {
        try (LsmStore store = LsmStore.open(dir, options("binomial:k=4"))) {
            load(store, 0, 2000);
            store.flush();
            store.awaitMerges();
        }
        try (LsmStore store = LsmStore.open(dir, options("tiered:size-ratio=4"))) {
            assertThat(store.policySwitch()).contains(new PolicySwitch(PolicySpec.parse("binomial:k=4"),
                    PolicySpec.parse("tiered:size-ratio=4")));
            assertThat(store.policySwitch().orElseThrow().toString())
                    .isEqualTo("switched the merge policy from binomial:k=4 to tiered:size-ratio=4");
            assertThat(PolicyRecord.recordedIn(store.components()).orElseThrow().name())
                    .as("the manifest's policy record")
                    .isEqualTo("tiered");
            load(store, 2000, 3000);
        }
        assertThat(LsmStore.storedOptions(dir).orElseThrow().policy()).isEqualTo(PolicySpec.parse("tiered:size-ratio=4"));
        try (LsmStore store = LsmStore.open(dir, options("tiered:size-ratio=4"))) {
            assertThat(store.policySwitch()).isEmpty();
            for (int i = 0; i < 3000; i += 97) {
                assertThat(store.get(key(i))).as("record %d", i).isNotNull();
            }
        }
    }

    @Test
    void aStackPolicyOnALeveledLayoutIsRefusedAndChangesNothing() throws IOException {
        try (LsmStore store = LsmStore.open(dir, options(LEVELED))) {
            load(store, 0, 3000);
            store.flush();
            store.awaitMerges();
            assertThat(store.components().levels().size()).as("tables below level 0").isGreaterThan(1);
        }
        Map<String, byte[]> before = files();
        assertThatThrownBy(() -> LsmStore.open(dir, options("binomial:k=4")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runs " + PolicySpec.of(StoreOptions.builder().policy(LEVELED).build().policy()))
                .hasMessageContaining("levels below level 0");
        Map<String, byte[]> after = files();
        assertThat(after.keySet()).isEqualTo(before.keySet());
        before.forEach((name, bytes) -> assertThat(after.get(name)).as(name).isEqualTo(bytes));
        try (LsmStore store = LsmStore.open(dir, options(LEVELED))) {
            assertThat(store.get(key(2999))).isNotNull();
        }
    }

    @Test
    void aDamagedOptionsFileIsRefusedNamingIt() throws IOException {
        try (LsmStore store = LsmStore.open(dir, options("binomial:k=4"))) {
            load(store, 0, 10);
        }
        byte[] bytes = Files.readAllBytes(dir.resolve(OptionsFile.NAME));
        bytes[20] ^= 1;
        Files.write(dir.resolve(OptionsFile.NAME), bytes);
        assertThatThrownBy(() -> LsmStore.open(dir, options("binomial:k=4"))).isInstanceOf(CorruptionException.class)
                .hasMessageContaining(OptionsFile.NAME).hasMessageContaining("CHECKSUM_MISMATCH");
        assertThatThrownBy(() -> LsmStore.storedOptions(dir)).isInstanceOf(CorruptionException.class);
    }

    @Test
    void aStoreWithoutAnOptionsFileGetsOneAndNoSwitch() throws IOException {
        try (LsmStore store = LsmStore.open(dir, options("binomial:k=4"))) {
            load(store, 0, 10);
        }
        Files.delete(dir.resolve(OptionsFile.NAME)); // as a store written before the file existed
        try (LsmStore store = LsmStore.open(dir, options("minlatency:k=4"))) {
            assertThat(store.policySwitch()).isEmpty();
        }
        assertThat(LsmStore.storedOptions(dir).orElseThrow().policy()).isEqualTo(PolicySpec.parse("minlatency:k=4"));
    }
}
