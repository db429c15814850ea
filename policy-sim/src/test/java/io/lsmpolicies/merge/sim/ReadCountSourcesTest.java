package io.lsmpolicies.merge.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadCountSourcesTest {
    @TempDir
    Path dir;

    @Test
    void constantIsEndless() {
        ReadCounts r = ReadCountSources.parse("constant:7");
        assertThat(r.next()).isEqualTo(7);
        assertThat(r.next()).isEqualTo(7);
        assertThat(r.remaining()).isEqualTo(Long.MAX_VALUE);
        assertThat(r.describe()).isEqualTo("constant:7");
        assertThat(ReadCountSources.none().next()).isZero();
    }

    @Test
    void phasesGiveEachPhaseItsReadsThenEnd() {
        ReadCounts r = ReadCountSources.parse("phases:2x0,1x5,3x1");
        assertThat(r.remaining()).isEqualTo(6);
        long[] got = new long[6];
        for (int i = 0; i < 6; i++) {
            got[i] = r.next();
        }
        assertThat(got).containsExactly(0, 0, 5, 1, 1, 1);
        assertThat(r.remaining()).isZero();
        assertThatThrownBy(r::next).isInstanceOf(NoSuchElementException.class)
                .hasMessageContaining("has read counts for only 6 flushes");
    }

    @Test
    void traceReadsOneCountPerLine() throws Exception {
        Path file = dir.resolve("reads.txt");
        Files.writeString(file, "# reads after each flush\n3\n\n0\n12\n");
        ReadCounts r = ReadCountSources.parse("trace:" + file);
        assertThat(r.remaining()).isEqualTo(3);
        assertThat(new long[] {r.next(), r.next(), r.next()}).containsExactly(3, 0, 12);
    }

    @Test
    void malformedSourcesNameTheValueAtFault() throws Exception {
        assertThatThrownBy(() -> ReadCountSources.parse("constant:-1"))
                .hasMessage("reads 'constant:-1': R='-1' is not a non-negative integer");
        assertThatThrownBy(() -> ReadCountSources.parse("constant"))
                .hasMessage("reads 'constant': R='' is not a non-negative integer");
        assertThatThrownBy(() -> ReadCountSources.parse("zipf:1"))
                .hasMessageContaining("unknown source 'zipf'; expected constant:R, phases:N1xR1,N2xR2,... or trace:FILE");
        assertThatThrownBy(() -> ReadCountSources.parse("phases:10x1,20"))
                .hasMessage("reads 'phases:10x1,20': phase 2 '20' is not NxR (N flushes with R reads each)");
        assertThatThrownBy(() -> ReadCountSources.parse("phases:0x1"))
                .hasMessageContaining("phase 1 '0x1' has no flush");
        assertThatThrownBy(() -> ReadCountSources.parse("phases:4xy"))
                .hasMessage("reads 'phases:4xy': phase 1 R='y' is not a non-negative integer");
        assertThatThrownBy(() -> ReadCountSources.parse("phases:")).hasMessageContaining("expected phases:N1xR1");
        assertThatThrownBy(() -> ReadCountSources.parse("trace:")).hasMessageContaining("expected trace:FILE");
        Path bad = dir.resolve("bad.txt");
        Files.writeString(bad, "1\n-4\n");
        assertThatThrownBy(() -> ReadCountSources.parse("trace:" + bad))
                .hasMessageContaining("line 2: '-4' is not a non-negative integer read count");
        Path empty = dir.resolve("empty.txt");
        Files.writeString(empty, "# nothing\n");
        assertThatThrownBy(() -> ReadCountSources.parse("trace:" + empty)).hasMessageContaining("holds no read count");
    }
}
