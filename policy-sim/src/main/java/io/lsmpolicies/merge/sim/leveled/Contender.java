package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.MergePolicy;
import java.util.function.Function;

/**
 * A policy the picker benchmark runs, made afresh for each tree shape (the main workloads' and the small one's,
 * whose sizes differ).
 *
 * @param label  how tables, CSV files and plots name it, e.g. {@code round-robin}
 * @param source where it comes from, e.g. the spec template it is made from
 * @param maker  makes the policy for a shape; may throw {@code IllegalArgumentException} if the shape's sizes are
 *               not accepted
 */
public record Contender(String label, String source, Function<TreeShape, MergePolicy> maker) {

    /**
     * Checks the label and the maker.
     *
     * @param label  how tables, CSV files and plots name it, e.g. {@code round-robin}
     * @param source where it comes from, e.g. the spec template it is made from
     * @param maker  makes the policy for a shape; may throw {@code IllegalArgumentException} if the shape's sizes are
     *               not accepted
     */
    public Contender {
        if (label == null || label.isBlank() || label.contains(",")) {
            throw new IllegalArgumentException("a contender needs a label without commas, was '" + label + "'");
        }
        if (maker == null) {
            throw new IllegalArgumentException("contender " + label + ": a maker is required");
        }
    }

    /**
     * {@return the policy for {@code shape}}
     *
     * @param shape the tree's shape
     */
    public MergePolicy make(TreeShape shape) {
        return maker.apply(shape);
    }
}
