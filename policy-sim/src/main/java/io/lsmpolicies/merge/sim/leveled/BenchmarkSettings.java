package io.lsmpolicies.merge.sim.leveled;

/**
 * What the picker benchmark runs, validated when built ({@link #builder()}; every setting has a default).
 *
 * <p>The defaults scale down the setup of Wei et al. (EDBT 2025, Sect. 3): 1 KiB entries, a MemTable and target
 * file of the same size, size ratio 4, level 1 four files large, level-0 trigger 4, and about 80 flushes per
 * workload (their 5M x 1 KB with a 64 MB buffer), so that the tree has the same number of levels and files per
 * level as theirs; ten runs per workload. The small workload of the optimal search mirrors their Sect. 3.2
 * setup: 50% updates, about two dozen flushes, a handful of level-1 compactions.
 *
 * @param entryBytes          bytes per entry (the policies see bytes; write amplification does not depend on it)
 * @param runs                runs (seeds) per workload
 * @param seed                the first seed; run i uses {@code seed + i}
 * @param threads             worker threads
 * @param operations          operations of each main workload
 * @param shape               tree sizes of the main workloads
 * @param updateFraction      update share of the update workloads (the other workload has none)
 * @param deleteFraction      delete share of every main workload (0 by default, as in the paper's workloads)
 * @param zipfTheta           skew of the Zipfian updates
 * @param smallOperations     operations of the small workload
 * @param smallShape          tree sizes of the small workload
 * @param smallUpdateFraction update share of the small workload
 * @param smallDistribution   update distribution of the small workload
 * @param search              whether to run the optimal search (and the small workload at all)
 * @param trivialMoves        the search's trivial-move strategy
 * @param nodeLimit           the search's node limit, per seed
 */
public record BenchmarkSettings(long entryBytes, int runs, long seed, int threads, int operations, TreeShape shape,
        double updateFraction, double deleteFraction, double zipfTheta, int smallOperations, TreeShape smallShape,
        double smallUpdateFraction, UpdateDistribution smallDistribution, boolean search, TrivialMoves trivialMoves,
        long nodeLimit) {

    /**
     * Checks every setting.
     *
     * @param entryBytes          bytes per entry (the policies see bytes; write amplification does not depend on it)
     * @param runs                runs (seeds) per workload
     * @param seed                the first seed; run i uses {@code seed + i}
     * @param threads             worker threads
     * @param operations          operations of each main workload
     * @param shape               tree sizes of the main workloads
     * @param updateFraction      update share of the update workloads (the other workload has none)
     * @param deleteFraction      delete share of every main workload (0 by default, as in the paper's workloads)
     * @param zipfTheta           skew of the Zipfian updates
     * @param smallOperations     operations of the small workload
     * @param smallShape          tree sizes of the small workload
     * @param smallUpdateFraction update share of the small workload
     * @param smallDistribution   update distribution of the small workload
     * @param search              whether to run the optimal search (and the small workload at all)
     * @param trivialMoves        the search's trivial-move strategy
     * @param nodeLimit           the search's node limit, per seed
     * @throws IllegalArgumentException naming the setting and the value, if one is out of range
     */
    public BenchmarkSettings {
        require(entryBytes >= 1, "entry bytes must be >= 1, was " + entryBytes);
        require(runs >= 1, "runs must be >= 1, was " + runs);
        require(threads >= 1, "threads must be >= 1, was " + threads);
        require(operations >= 1 && smallOperations >= 1, "operations must be >= 1");
        require(shape != null && smallShape != null && smallDistribution != null, "shapes and distribution required");
        require(updateFraction >= 0 && updateFraction <= 1, "update fraction must be in [0, 1], was " + updateFraction);
        require(deleteFraction >= 0 && updateFraction + deleteFraction <= 1,
                "delete fraction must be in [0, 1 - update fraction], was " + deleteFraction);
        require(smallUpdateFraction >= 0 && smallUpdateFraction <= 1,
                "small update fraction must be in [0, 1], was " + smallUpdateFraction);
        require(zipfTheta > 0 && zipfTheta < 1, "Zipfian theta must be in (0, 1), was " + zipfTheta);
        require(trivialMoves != null, "a trivial-move strategy is required");
        require(nodeLimit >= 1, "node limit must be >= 1, was " + nodeLimit);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** {@return a builder holding the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /** Builder of {@link BenchmarkSettings}; see the record for the defaults' rationale. */
    public static final class Builder {
        private long entryBytes = 1024;
        private int runs = 10;
        private long seed = 1;
        private int threads = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
        private int operations = 200_000;
        private TreeShape shape = new TreeShape(2_500, 2_500, 10_000, 4, 4, 7);
        private double updateFraction = 0.5;
        private double deleteFraction;
        private double zipfTheta = ZipfianGenerator.YCSB_THETA;
        private int smallOperations = 600;
        private TreeShape smallShape = new TreeShape(25, 25, 100, 4, 4, 7);
        private double smallUpdateFraction = 0.5;
        private UpdateDistribution smallDistribution = UpdateDistribution.UNIFORM;
        private boolean search = true;
        private TrivialMoves trivialMoves = TrivialMoves.SKIP;
        private long nodeLimit = SearchSettings.DEFAULT_NODE_LIMIT;

        private Builder() {
        }

        /**
         * Sets {@code entryBytes} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder entryBytes(long v) {
            entryBytes = v;
            return this;
        }

        /**
         * Sets {@code runs} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder runs(int v) {
            runs = v;
            return this;
        }

        /**
         * Sets {@code seed} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder seed(long v) {
            seed = v;
            return this;
        }

        /**
         * Sets {@code threads} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder threads(int v) {
            threads = v;
            return this;
        }

        /**
         * Sets {@code operations} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder operations(int v) {
            operations = v;
            return this;
        }

        /**
         * Sets {@code shape} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder shape(TreeShape v) {
            shape = v;
            return this;
        }

        /**
         * Sets {@code updateFraction} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder updateFraction(double v) {
            updateFraction = v;
            return this;
        }

        /**
         * Sets {@code deleteFraction} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder deleteFraction(double v) {
            deleteFraction = v;
            return this;
        }

        /**
         * Sets {@code zipfTheta} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder zipfTheta(double v) {
            zipfTheta = v;
            return this;
        }

        /**
         * Sets {@code smallOperations} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder smallOperations(int v) {
            smallOperations = v;
            return this;
        }

        /**
         * Sets {@code smallShape} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder smallShape(TreeShape v) {
            smallShape = v;
            return this;
        }

        /**
         * Sets {@code smallUpdateFraction} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder smallUpdateFraction(double v) {
            smallUpdateFraction = v;
            return this;
        }

        /**
         * Sets {@code smallDistribution} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder smallDistribution(UpdateDistribution v) {
            smallDistribution = v;
            return this;
        }

        /**
         * Sets {@code search} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder search(boolean v) {
            search = v;
            return this;
        }

        /**
         * Sets {@code trivialMoves} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder trivialMoves(TrivialMoves v) {
            trivialMoves = v;
            return this;
        }

        /**
         * Sets {@code nodeLimit} (see the record's components).
         *
         * @param v the value
         * @return this builder
         */
        public Builder nodeLimit(long v) {
            nodeLimit = v;
            return this;
        }


        /**
         * {@return the settings}
         *
         * @throws IllegalArgumentException naming the setting and the value, if one is out of range
         */
        public BenchmarkSettings build() {
            return new BenchmarkSettings(entryBytes, runs, seed, threads, operations, shape, updateFraction,
                    deleteFraction, zipfTheta,
                    smallOperations, smallShape, smallUpdateFraction, smallDistribution, search, trivialMoves,
                    nodeLimit);
        }
    }
}
