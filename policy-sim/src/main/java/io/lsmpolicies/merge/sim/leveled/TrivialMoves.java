package io.lsmpolicies.merge.sim.leveled;

/**
 * How the optimal search treats a level some of whose files can move down trivially (overlap nothing below).
 * Wei et al. (EDBT 2025, Sect. 3.2) compare a "skip" search, which takes the trivial move and does not search
 * that compaction, with a "non-skip" one, which tries every file; they find virtually the same optimum
 * (observation 8). The paper does not say which file moves when several could, so {@link #SKIP} tries each of
 * them and {@link #SKIP_FIRST} fixes it to the first by key.
 */
public enum TrivialMoves {
    /** Only the files that move trivially are tried (each of them); none if no file does. The default. */
    SKIP("skip"),
    /** The first file by key that moves trivially is moved, nothing else tried: the cheapest search. */
    SKIP_FIRST("skip-first"),
    /** Every file is tried, those that write least now (trivial moves) first. */
    NON_SKIP("non-skip");

    private final String label;

    TrivialMoves(String label) {
        this.label = label;
    }

    /** {@return the command-line and report name, e.g. {@code non-skip}} */
    public String label() {
        return label;
    }

    /**
     * The strategy named {@code label}.
     *
     * @param label the strategy's name
     * @return the strategy
     * @throws IllegalArgumentException listing the names if there is none
     */
    public static TrivialMoves of(String label) {
        for (TrivialMoves t : values()) {
            if (t.label.equals(label)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown trivial-move strategy '" + label + "'; known: skip, skip-first, "
                + "non-skip");
    }
}
