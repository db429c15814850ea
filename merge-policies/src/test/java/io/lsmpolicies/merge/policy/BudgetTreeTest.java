package io.lsmpolicies.merge.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The size of the least-cost schedule tree and the budget of a size, against the recurrence they come from. */
class BudgetTreeTest {

    /** N(b) = N(b - 1) + 1 + N(b - c), N(b < 0) = 0, straight from the definition. */
    private static double recursive(double b, double c) {
        return b < -BudgetTree.EPSILON ? 0 : recursive(b - 1, c) + 1 + recursive(b - c, c);
    }

    @Test
    void theSizeIsTheRecurrence() {
        for (double c : new double[] {0.3, 0.5, 1, 1.7, 4.1, 41}) {
            for (double b = 0; b <= 7; b += 0.37) {
                assertThat(BudgetTree.size(b, c, 1e18)).as("N(%s) for c = %s", b, c).isEqualTo(recursive(b, c));
            }
        }
        // c = 1: the tree doubles; c above b: a chain of left turns only.
        assertThat(BudgetTree.size(5, 1, 1e18)).isEqualTo(63);
        assertThat(BudgetTree.size(30, 41, 1e18)).isEqualTo(31);
        assertThat(BudgetTree.size(30, 0.001, 1000)).as("stops at the cap").isEqualTo(1000);
    }

    @Test
    void theBudgetOfASizeIsJustBelowTheStepThatHoldsIt() {
        for (double c : new double[] {0.04, 0.41, 1, 4.1, 41}) {
            for (double units : new double[] {2, 3, 7.5, 26, 100, 1000}) {
                double b = BudgetTree.budgetOfSize(units, c);
                assertThat(BudgetTree.size(b - 1, c, 1e18)).as("below, c = %s, %s flushes", c, units)
                        .isLessThan(units - 1);
                assertThat(BudgetTree.size(b - 1 + 2 * BudgetTree.BELOW, c, 1e18)).as("above").isGreaterThanOrEqualTo(
                        units - 1);
            }
        }
        assertThat(BudgetTree.budgetOfSize(1, 0.4)).as("a single flush").isZero();
        assertThat(BudgetTree.budgetOfSize(50, 0)).as("no reads").isZero();
        assertThat(BudgetTree.budgetOfSize(Double.POSITIVE_INFINITY, 0.4)).as("capped").isFinite();
    }
}
