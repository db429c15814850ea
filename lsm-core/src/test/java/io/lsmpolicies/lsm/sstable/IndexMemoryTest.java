package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pinned index's memory goes back to the arena with the table's last reader: a store that opens and drops tables
 * while reads pin their indexes holds the most it pinned at once, not every index it ever pinned; a reader sharing
 * the index keeps it after the first reader closes; a closed reader refuses lookups instead of reading memory
 * another table now uses.
 */
class IndexMemoryTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return String.format("user%019d", i * 2_654_435_761L).getBytes(StandardCharsets.US_ASCII);
    }

    private Path table(String name, int n) throws IOException {
        Path path = dir.resolve(name);
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        List<Entry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            entries.add(Entry.put(key(i), 1 + i, new byte[40]));
        }
        entries.sort(Entry.ORDER);
        try (SSTableWriter w = SSTableWriter.create(path, options, 1, 1, 0)) {
            for (Entry e : entries) {
                w.add(e);
            }
            w.finish(Long.MAX_VALUE);
        }
        return path;
    }

    private static void getEvery(SSTableReader r, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            assertThat(r.get(key(i), Long.MAX_VALUE)).as("key %d", i).isNotNull();
        }
    }

    @Test
    void theLastReaderGivesTheMemoryBackAndTheNextTableReusesIt() throws IOException {
        int n = 60_000;
        Path path = table("t.sst", n);
        BlockCache cache = BlockCache.ofBytes(1 << 20);
        long firstRound = 0;
        for (int round = 0; round < 6; round++) {
            SSTableReader open = SSTableReader.open(path, cache);
            getEvery(open, n);
            assertThat(open.pinnedBytes()).as("every internal page pinned").isGreaterThan(200_000);
            SSTableReader shared = SSTableReader.openSharing(FileLayer.plain(), IoCause.MERGE, open, cache);
            open.close();
            assertThatThrownBy(() -> open.get(key(1), Long.MAX_VALUE)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is closed");
            assertThatThrownBy(() -> SSTableReader.openSharing(FileLayer.plain(), IoCause.MERGE, open, cache))
                    .isInstanceOf(IllegalStateException.class);
            getEvery(shared, n); // the index the first reader pinned, still held by the second
            shared.close();
            shared.close(); // a second close gives nothing back twice
            if (round == 0) {
                firstRound = cache.indexReservedBytes();
                assertThat(firstRound).as("direct memory taken for the index").isPositive();
            }
            assertThat(cache.indexReservedBytes()).as("round %d reuses the memory given back", round)
                    .isEqualTo(firstRound);
        }
    }

    @Test
    void chunksAreCutForThePageSizeAndRefusedOnceReleased() {
        assertThat(IndexMemory.chunkBytes(512)).isEqualTo(IndexMemory.MIN_CHUNK_BYTES);
        assertThat(IndexMemory.chunkBytes(4096)).isEqualTo(32 * 1024);
        assertThat(IndexMemory.chunkBytes(65536)).isEqualTo(256 * 1024);
        assertThat(IndexMemory.chunkBytes(1 << 20)).isEqualTo(PageArena.BLOCK_BYTES);
        PageArena arena = new PageArena(Long.MAX_VALUE);
        IndexMemory memory = new IndexMemory(arena, 4096);
        assertThat(memory.allocate(5000).isDirect()).isTrue();
        assertThat(memory.allocate(30_000).isDirect()).as("a second chunk").isTrue();
        assertThat(memory.allocate(40_000).isDirect()).as("longer than a chunk: on the heap").isFalse();
        assertThat(memory.chunks()).isEqualTo(2);
        memory.retain();
        memory.release();
        assertThat(memory.chunks()).as("a reader still holds it").isEqualTo(2);
        memory.release();
        assertThat(memory.chunks()).isZero();
        assertThatThrownBy(() -> memory.allocate(100)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(memory::retain).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(memory::release).isInstanceOf(IllegalStateException.class);
    }
}
