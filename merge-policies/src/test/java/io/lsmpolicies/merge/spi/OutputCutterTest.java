package io.lsmpolicies.merge.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where outputs are cut. The grandparent level of most cases: ten files, file g holding keys g*100 to g*100+99,
 * of {@code gpBytes} each; keys are written every 10 apart, each adding {@code perKey} bytes to the open file.
 */
class OutputCutterTest {
    private static byte[] key(int k) {
        return String.format("k%05d", k).getBytes(StandardCharsets.US_ASCII);
    }

    private static OutputCutter grandparents(OutputCut cut, long gpBytes) {
        int n = 10;
        byte[][] min = new byte[n][];
        byte[][] max = new byte[n][];
        long[] bytes = new long[n];
        for (int g = 0; g < n; g++) {
            min[g] = key(g * 100);
            max[g] = key(g * 100 + 99);
            bytes[g] = gpBytes;
        }
        return OutputCutter.of(cut, min, max, bytes);
    }

    /** The keys before which the cutter cut, writing the given keys of {@code perKey} bytes each. */
    private static List<Integer> cuts(OutputCutter cutter, List<Integer> keys, long perKey) {
        List<Integer> cuts = new ArrayList<>();
        long fileBytes = 0;
        for (int k : keys) {
            if (cutter.cutBefore(key(k), fileBytes)) {
                cuts.add(k);
                fileBytes = 0;
            }
            fileBytes += perKey;
        }
        return cuts;
    }

    private static List<Integer> every10(int from, int to) {
        List<Integer> keys = new ArrayList<>();
        for (int k = from; k < to; k += 10) {
            keys.add(k);
        }
        return keys;
    }

    @Test
    void ruleAKeepsEachFilesFutureMergeWithinMaxCompactionBytes() {
        // Key 100 enters grandparent 1: the file overlaps 2 grandparents (2000) and holds 1000 bytes.
        assertThat(cuts(grandparents(new OutputCut.AtGrandparentBoundaries(1L << 40, 2500), 1000),
                every10(0, 1000), 100)).as("3000 > 2500 at every boundary")
                .containsExactly(100, 200, 300, 400, 500, 600, 700, 800, 900);
        assertThat(cuts(grandparents(new OutputCut.AtGrandparentBoundaries(1L << 40, 3500), 1000),
                every10(0, 1000), 100)).as("3000 fits, 5000 does not").containsExactly(200, 400, 600, 800);
    }

    @Test
    void ruleBCutsWhenAKeyJumpsOverWholeGrandparentFiles() {
        // From inside grandparent 0 to inside 3: 6 boundaries, files 1-3 newly overlapped.
        OutputCut cut = new OutputCut.AtGrandparentBoundaries(8000, Long.MAX_VALUE);
        assertThat(cuts(grandparents(cut, 1000), List.of(0, 10, 350, 360), 100)).as("3000 > 8000 / 8")
                .containsExactly(350);
        assertThat(cuts(grandparents(cut, 100), List.of(0, 10, 350, 360), 100)).as("300 <= 1000: no cut")
                .isEmpty();
        // From inside file 0 to inside file 1 crosses 2 boundaries only: not a jump.
        assertThat(cuts(grandparents(new OutputCut.AtGrandparentBoundaries(800, Long.MAX_VALUE), 1000),
                List.of(0, 150), 1)).isEmpty();
    }

    @Test
    void ruleCEndsFilesNearBoundariesOnceTheyAreHalfToNineTenthsFull() {
        // t = 1000: at a boundary, cut at 10 x (50 + min(5 x crossed, 40)) bytes; 20 bytes per key.
        OutputCut cut = new OutputCut.AtGrandparentBoundaries(1000, Long.MAX_VALUE);
        // Boundaries crossed at keys 100, 200, ...: 2 each; thresholds 600, 700, 800, 900, 900; sizes 200..1000.
        assertThat(cuts(grandparents(cut, 1), every10(0, 600), 20)).containsExactly(500);
    }

    @Test
    void theHardCapIsTwiceTheTargetWithGrandparentsAndTheTargetWithout() {
        OutputCut cut = new OutputCut.AtGrandparentBoundaries(1000, Long.MAX_VALUE);
        byte[][] none = new byte[0][];
        assertThat(cuts(OutputCutter.of(cut, none, none, new long[0]), every10(0, 600), 100))
                .containsExactly(100, 200, 300, 400, 500);
        // Inside one grandparent file no boundary is crossed, so only the 2000-byte cap cuts.
        byte[][] min = {key(0)};
        byte[][] max = {key(99_999)};
        assertThat(cuts(OutputCutter.of(cut, min, max, new long[] {1}), every10(0, 600), 100))
                .containsExactly(200, 400);
    }

    @Test
    void targetSizeCursorAndSingleFile() {
        assertThat(cuts(OutputCutter.of(new OutputCut.ByTargetSize(1000)), every10(0, 300), 100))
                .containsExactly(100, 200);
        assertThat(cuts(OutputCutter.of(new OutputCut.AtCursor(1L << 40, Key.of(key(155)))), every10(0, 300), 1))
                .as("once, at the first key at or after the cursor").containsExactly(160);
        assertThat(cuts(OutputCutter.of(OutputCut.SINGLE_FILE), every10(0, 3000), 1L << 30)).isEmpty();
        assertThat(OutputCutter.of(new OutputCut.ByTargetSize(1)).cutBefore(key(1), 0))
                .as("never before a file's first key").isFalse();
        assertThatThrownBy(() -> OutputCutter.of(OutputCut.SINGLE_FILE, new byte[1][], new byte[0][], new long[0]))
                .hasMessageContaining("differ in length");
    }

    /** A key given in place, inside a larger array, is cut exactly as the same key given alone. */
    @Test
    void aKeyInPlaceIsCutAsTheKeyAlone() {
        List<Integer> keys = every10(0, 1000);
        for (long gpBytes : new long[] {10, 1000, 100_000}) {
            for (OutputCut cut : List.of(new OutputCut.ByTargetSize(1000), OutputCut.SINGLE_FILE,
                    new OutputCut.AtCursor(1000, Key.of(key(455))))) {
                OutputCutter inPlace = grandparents(cut, gpBytes);
                List<Integer> placed = new ArrayList<>();
                long fileBytes = 0;
                for (int k : keys) {
                    byte[] key = key(k);
                    byte[] page = new byte[key.length + 7];
                    java.util.Arrays.fill(page, (byte) 0x7F); // bytes around the key that must not count
                    System.arraycopy(key, 0, page, 3, key.length);
                    if (inPlace.cutBefore(page, 3, 3 + key.length, fileBytes)) {
                        placed.add(k);
                        fileBytes = 0;
                    }
                    fileBytes += 100;
                }
                assertThat(placed).as("%s, grandparent files of %d bytes", cut, gpBytes)
                        .isEqualTo(cuts(grandparents(cut, gpBytes), keys, 100));
            }
        }
    }
}
