package io.lsmpolicies.merge.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.TestPolicies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlushSizeSourcesTest {
    @TempDir
    Path dir;

    @Test
    void constantUniformAndNormalSources() {
        FlushSizes constant = FlushSizeSources.parse("constant:7", 1);
        assertThat(constant.next()).isEqualTo(7);
        assertThat(constant.remaining()).isEqualTo(Long.MAX_VALUE);
        FlushSizes uniform = FlushSizeSources.parse("uniform:3:5", 1);
        boolean[] seen = new boolean[6];
        for (int i = 0; i < 1000; i++) {
            long v = uniform.next();
            assertThat(v).isBetween(3L, 5L);
            seen[(int) v] = true;
        }
        assertThat(seen[3] && seen[4] && seen[5]).as("both bounds inclusive").isTrue();
        FlushSizes normal = FlushSizeSources.parse("normal:10:50", 1);
        for (int i = 0; i < 1000; i++) {
            assertThat(normal.next()).isNotNegative();
        }
        assertThat(FlushSizeSources.parse("normal:100:0", 1).next()).isEqualTo(100);
    }

    @Test
    void sameSeedSameSequence() {
        FlushSizes a = FlushSizeSources.parse("uniform:1:1000000", 5);
        FlushSizes b = FlushSizeSources.parse("uniform:1:1000000", 5);
        for (int i = 0; i < 100; i++) {
            assertThat(a.next()).isEqualTo(b.next());
        }
    }

    @Test
    void traceSkipsBlankAndCommentLines() throws Exception {
        Path trace = dir.resolve("sizes.txt");
        Files.writeString(trace, "# flush sizes\n10\n\n  20  \n30\n");
        FlushSizes sizes = FlushSizeSources.parse("trace:" + trace, 0);
        assertThat(sizes.remaining()).isEqualTo(3);
        assertThat(sizes.next()).isEqualTo(10);
        assertThat(sizes.next()).isEqualTo(20);
        assertThat(sizes.next()).isEqualTo(30);
        assertThatThrownBy(sizes::next).isInstanceOf(NoSuchElementException.class).hasMessageContaining("only 3");
    }

    @Test
    void traceErrorsNameTheFileLineAndValue() throws Exception {
        Path trace = dir.resolve("bad.txt");
        Files.writeString(trace, "10\n20\n-3\n");
        assertThatThrownBy(() -> FlushSizeSources.parse("trace:" + trace, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad.txt line 3").hasMessageContaining("'-3'");
        Files.writeString(trace, "10\n1.5e3\n");
        assertThatThrownBy(() -> FlushSizeSources.parse("trace:" + trace, 0)).hasMessageContaining("line 2")
                .hasMessageContaining("not a non-negative integer");
        Files.writeString(trace, "# nothing\n");
        assertThatThrownBy(() -> FlushSizeSources.parse("trace:" + trace, 0)).hasMessageContaining("no flush size");
        assertThatThrownBy(() -> FlushSizeSources.parse("trace:" + dir.resolve("missing.txt"), 0))
                .hasMessageContaining("cannot read trace").hasMessageContaining("missing.txt");
    }

    @Test
    void aTraceShorterThanTheRunIsAnErrorBeforeAnythingRuns() throws Exception {
        Path trace = dir.resolve("short.txt");
        Files.writeString(trace, "1\n2\n");
        Simulator s = new Simulator(TestPolicies.policy("no-merge"), FlushSizeSources.parse("trace:" + trace, 0), 0);
        assertThatThrownBy(() -> s.run(3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only 2 flush sizes").hasMessageContaining("3 flushes");
    }

    @Test
    void malformedSpecsSayWhatIsWrong() {
        assertThatThrownBy(() -> FlushSizeSources.parse("constant:-1", 0)).hasMessageContaining("S='-1'")
                .hasMessageContaining("non-negative");
        assertThatThrownBy(() -> FlushSizeSources.parse("uniform:9:3", 0)).hasMessageContaining("A=9 exceeds B=3");
        assertThatThrownBy(() -> FlushSizeSources.parse("uniform:1", 0)).hasMessageContaining("expected uniform:A:B");
        assertThatThrownBy(() -> FlushSizeSources.parse("normal:5:-1", 0)).hasMessageContaining("SD='-1'");
        assertThatThrownBy(() -> FlushSizeSources.parse("zipf:1", 0)).hasMessageContaining("unknown source 'zipf'");
        assertThatThrownBy(() -> FlushSizeSources.parse("trace:", 0)).hasMessageContaining("expected trace:FILE");
    }
}
