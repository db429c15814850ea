package io.lsmpolicies.ycsb.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceFileTest {
    @TempDir
    Path tmp;

    @Test
    void whatIsWrittenReadsBack() throws IOException {
        List<TraceFile.Row> rows = List.of(new TraceFile.Row(TraceFile.Event.FLUSH, 1, 100, 100, 1, 100),
                new TraceFile.Row(TraceFile.Event.FLUSH, 2, 210, 420, 2, 430),
                new TraceFile.Row(TraceFile.Event.END, 2, 210, 420, 1, 420));
        Path f = tmp.resolve("sub/t.csv");
        TraceFile.write(f, rows);
        assertThat(Files.readAllLines(f).get(0)).isEqualTo(TraceFile.HEADER);
        assertThat(TraceFile.read(f)).isEqualTo(rows);
    }

    @Test
    void aDamagedTraceIsRefusedNamingTheLine() throws IOException {
        String h = TraceFile.HEADER + "\n";
        assertRefused("flushes,x\n", "line 1 must be");
        assertRefused(h + "flush,1,100,100,1\n", "line 2: 6 fields expected, found 5");
        assertRefused(h + "flush,1,100,50,1,100\nend,1,100,100,1,100\n", "line 2: not a trace row");
        assertRefused(h + "flush,1,100,100,1,100\nflush,3,200,200,1,100\nend,3,200,200,1,1\n",
                "line 3: counters must grow");
        assertRefused(h + "flush,1,100,100,1,100\n", "the last row must be the end row");
        assertRefused(h + "merge,1,100,100,1,100\n", "line 2: No enum constant");
    }

    private void assertRefused(String text, String message) throws IOException {
        Path f = tmp.resolve("bad.csv");
        Files.writeString(f, text);
        assertThatThrownBy(() -> TraceFile.read(f)).isInstanceOf(IOException.class).hasMessageContaining(message);
    }
}
