package io.lsmpolicies.ycsb.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.ycsb.common.TraceFile.Event;
import io.lsmpolicies.ycsb.common.TraceFile.Row;
import io.lsmpolicies.ycsb.rocksdb.FlushTrace.Origin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trace's accounting, driven with literal events as RocksDB's listener would send them. */
class FlushTraceTest {
    @TempDir
    Path tmp;

    @Test
    void flushRowsAreCumulativeAndCompactionOutputsCountWhenTheCompactionCompletes() {
        FlushTrace t = new FlushTrace();
        t.seed(Map.of());
        t.fileCreated("000010.sst", Origin.FLUSH, 3, 100);
        t.flushCompleted(3, 1);
        t.fileCreated("000011.sst", Origin.FLUSH, 4, 110);
        t.flushCompleted(4, 2);
        // a compaction of both: its output is on disk with its inputs, but counts as written only once completed
        t.fileCreated("000012.sst", Origin.COMPACTION, 5, 200);
        t.fileCreated("000013.sst", Origin.FLUSH, 6, 90);
        t.flushCompleted(6, 4);
        t.compactionCompleted(5, true);
        t.fileDeleted("000010.sst");
        t.fileDeleted("000011.sst");
        t.fileCreated("000014.sst", Origin.FLUSH, 7, 120);
        t.flushCompleted(7, 3);
        t.end(3);
        assertThat(t.rows()).containsExactly(
                new Row(Event.FLUSH, 1, 100, 100, 1, 100),
                new Row(Event.FLUSH, 2, 210, 210, 2, 210),
                new Row(Event.FLUSH, 3, 300, 300, 4, 500),
                new Row(Event.FLUSH, 4, 420, 620, 3, 500),
                new Row(Event.END, 4, 420, 620, 3, 410));
    }

    @Test
    void trivialMovesAndFailedCompactionsWriteNothing() {
        FlushTrace t = new FlushTrace();
        t.seed(Map.of());
        t.fileCreated("000010.sst", Origin.FLUSH, 1, 100);
        t.flushCompleted(1, 1);
        t.compactionCompleted(2, true); // a trivial move: no file created
        t.fileCreated("000011.sst", Origin.COMPACTION, 3, 100);
        t.fileDeleted("000011.sst"); // its failed output is removed
        t.compactionCompleted(3, false);
        t.end(1);
        assertThat(t.rows()).containsExactly(new Row(Event.FLUSH, 1, 100, 100, 1, 100), new Row(Event.END, 1, 100, 100, 1,
                200));
        assertThat(t.writtenBytes()).isEqualTo(100);
    }

    @Test
    void filesPresentAtOpenCountOnDiskButNotAsWritten() {
        FlushTrace t = new FlushTrace();
        t.fileDeleted("000001.sst"); // an obsolete file removed while opening: never counted
        t.fileCreated("000005.sst", Origin.OTHER, 1, 50); // recovered from the WAL at open
        t.seed(Map.of("000001.sst", 999L, "000004.sst", 1000L, "000005.sst", 50L));
        t.observe(400); // a smaller sample changes nothing
        t.fileCreated("000006.sst", Origin.FLUSH, 2, 10);
        t.flushCompleted(2, 3);
        assertThat(t.rows()).containsExactly(new Row(Event.FLUSH, 1, 10, 10, 3, 1060));
        t.observe(5000); // a larger one, e.g. rocksdb.total-sst-files-size, raises the next row's disk bytes
        t.end(3);
        assertThat(t.rows().get(1)).isEqualTo(new Row(Event.END, 1, 10, 10, 3, 5000));
        t.end(3);
        assertThat(t.rows()).hasSize(2);
    }

    @Test
    void theFileHasTheHeaderThenOneLinePerRow() throws Exception {
        FlushTrace t = new FlushTrace();
        t.seed(Map.of());
        t.fileCreated("a.sst", Origin.FLUSH, 1, 7);
        t.flushCompleted(1, 1);
        t.end(1);
        Path file = tmp.resolve("sub/trace.csv");
        t.write(file);
        assertThat(Files.readAllLines(file)).containsExactly(
                "event,flushes,flushed_bytes,written_bytes,components,disk_bytes",
                "flush,1,7,7,1,7",
                "end,1,7,7,1,7");
        assertThat(TraceCsv.check(file, 1)).hasSize(2);
    }

    @Test
    void listenerKeysFilesByName() {
        assertThat(TraceListener.fileName("/tmp/db/000012.sst")).isEqualTo("000012.sst");
        assertThat(TraceListener.fileName("/000012.sst")).isEqualTo("000012.sst");
    }
}
