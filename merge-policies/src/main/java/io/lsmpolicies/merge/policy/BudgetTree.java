package io.lsmpolicies.merge.policy;

/**
 * The arithmetic of the optimal schedule for constant flush lengths and read rates, which {@link AdaptivePolicy}
 * follows. In the cost model with reads (docs/policies.md, section 6), an eager schedule is a binary tree over the
 * flushes in time order: the table created at step a is node a, its left subtree the flushes it merged, its right
 * subtree the flushes that arrive while it is the newest table below them. A flush pays its length once for every
 * ancestor whose left subtree holds it (one more write) and, per step, the read cost once for every ancestor whose
 * right subtree holds it (one more table). With lengths 1 and read cost {@code c} per table per step (both in
 * flush units), the cost of a node is its number of left turns plus {@code c} times its number of right turns, and
 * the tree of a given size with the least total cost takes every node whose cost is at most a threshold. Tree(b),
 * the tree of budget {@code b}, holds those nodes: a root, Tree(b - 1) on its left, Tree(b - c) on its right, and is
 * empty when {@code b < 0}. Its size N(b) satisfies N(b) = N(b - 1) + 1 + N(b - c), and counting the paths with
 * {@code i} left and {@code j} right turns, N(b) = sum over j = 0..floor(b / c) of C(floor(b - c j) + j + 1, j + 1).
 */
final class BudgetTree {
    /** Rates below this (flush units per table per step) are taken as no read at all. */
    static final double MIN_RATE = 1e-9;
    /** Budgets are sums of floating-point terms: differences below this are taken as equality. */
    static final double EPSILON = 1e-12;
    /** Sizes are taken as at most this many flushes (the budget of a larger one differs by little). */
    static final double MAX_UNITS = 1e15;
    /** How far below a step of N a budget derived from a size is placed. */
    static final double BELOW = 1e-9;

    private BudgetTree() {
    }

    /**
     * N(b) for read cost {@code c > 0}, or {@code cap} if it is at least {@code cap} (the sum stops there: every term
     * is at least 1, so this takes at most {@code cap} terms).
     */
    static double size(double b, double c, double cap) {
        if (b < 0) {
            return 0;
        }
        double sum = 0;
        for (int j = 0; ; j++) {
            double rest = b - c * j;
            if (rest < -EPSILON) {
                return sum;
            }
            long left = (long) Math.floor(rest + EPSILON);
            double term = 1; // C(left + j + 1, j + 1), by the shorter product
            long n = left + j + 1;
            long k = Math.min(j + 1, left);
            for (long x = 1; x <= k && term < cap; x++) {
                term = term * (n - k + x) / x;
            }
            sum += term;
            if (sum >= cap) {
                return cap;
            }
        }
    }

    /**
     * The budget of a table of {@code units} flushes (its bytes over the mean flush) if it were a node whose left
     * subtree is complete: just below (by {@link #BELOW}) the least b with N(b - 1) >= units - 1, so that a budget
     * this computation lands on by rounding is not taken for the next step of N; 0 for a single flush or without reads
     * (when every budget is infinite, and the tree never merges).
     */
    static double budgetOfSize(double units, double c) {
        if (c < MIN_RATE || !(units > 1)) {
            return 0;
        }
        double target = Math.min(units, MAX_UNITS) - 1;
        if (size(0, c, target) >= target) {
            return 1 - BELOW;
        }
        double lo = 0;
        double hi = 1;
        while (size(hi, c, target) < target) {
            lo = hi;
            hi *= 2;
        }
        for (int i = 0; i < 50; i++) {
            double mid = (lo + hi) / 2;
            if (size(mid, c, target) >= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return 1 + hi - BELOW;
    }
}
