package io.lsmpolicies.merge.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class BinomialsTest {

    private static BigInteger exact(int n, int r) {
        BigInteger c = BigInteger.ONE;
        for (int i = 1; i <= r; i++) {
            c = c.multiply(BigInteger.valueOf(n - r + i)).divide(BigInteger.valueOf(i));
        }
        return c;
    }

    @Test
    void chooseIsExactWhereItFitsAndSaturatesWhereItDoesNot() {
        BigInteger max = BigInteger.valueOf(Long.MAX_VALUE);
        int saturated = 0;
        for (int n = 0; n <= 140; n++) {
            for (int r = 0; r <= n; r++) {
                BigInteger want = exact(n, r);
                long got = Binomials.choose(n, r);
                if (want.compareTo(max) < 0) {
                    assertThat(got).as("C(%d,%d)", n, r).isEqualTo(want.longValueExact());
                } else {
                    assertThat(got).as("C(%d,%d)", n, r).isEqualTo(Binomials.SATURATED);
                    saturated++;
                }
            }
        }
        assertThat(saturated).isPositive();
        // Intermediate products overflow long even though the result fits: C(66, 33) = 7219428434016265740.
        assertThat(Binomials.choose(66, 33)).isEqualTo(7219428434016265740L);
        assertThat(Binomials.choose(68, 34)).isEqualTo(Binomials.SATURATED);
        assertThat(Binomials.choose(2_000_000L, 3)).isEqualTo(exact(2_000_000, 3).longValueExact());
        assertThat(Binomials.choose(2_000_000_000L, 3)).isEqualTo(Binomials.SATURATED);
    }

    @Test
    void chooseRejectsUndefinedArguments() {
        assertThatThrownBy(() -> Binomials.choose(3, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("C(3, 4)");
    }

    @Test
    void saturatedAdditionNeverWraps() {
        assertThat(Binomials.addSaturated(Long.MAX_VALUE - 1, 5)).isEqualTo(Binomials.SATURATED);
        assertThat(Binomials.addSaturated(40, 2)).isEqualTo(42);
    }

    /**
     * B(m, k, t) is the stack depth in tau*(m, k), built here directly: the left subtree is tau*(m-1, k) on
     * nodes 1..C(m+k-1,k)-1, the root is C(m+k-1,k), the right subtree tau*(m, k-1) on the nodes after it;
     * a node's depth counts 1 for each right turn. Returned 1-based as the recurrence does (root = 1).
     */
    private static int treeDepth(int m, int k, long t) {
        if (t == 0) {
            return 0;
        }
        long root = exact(m + k - 1, k).longValueExact();
        if (t < root) {
            return treeDepth(m - 1, k, t);
        }
        return 1 + treeDepth(m, k - 1, t - root);
    }

    @Test
    void stackDepthFollowsTheRecurrenceOnEveryNodeOfSmallTrees() {
        for (int m = 1; m <= 7; m++) {
            for (int k = 1; k <= 7; k++) {
                long n = exact(m + k, k).longValueExact() - 1;
                for (long t = 0; t <= n; t++) {
                    int depth = Binomials.stackDepth(m, k, t);
                    assertThat(depth).as("B(%d,%d,%d)", m, k, t).isEqualTo(treeDepth(m, k, t));
                    assertThat(depth).isBetween(t == 0 ? 0 : 1, k);
                }
            }
        }
    }

    @Test
    void stackDepthOutsideItsDomainIsAnErrorNotAWrongAnswer() {
        // tau*(1, 1) has C(2,1) - 1 = 1 node; t = 2 is outside it.
        assertThatThrownBy(() -> Binomials.stackDepth(1, 1, 2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside its domain");
    }
}
