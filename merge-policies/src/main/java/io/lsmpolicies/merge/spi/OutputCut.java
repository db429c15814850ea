package io.lsmpolicies.merge.spi;

/**
 * How a merge cuts its output into SSTables.
 */
public sealed interface OutputCut {

    /** One output SSTable holding everything (the only cut stack-based policies use). */
    record SingleFile() implements OutputCut {
    }

    /** A new output SSTable whenever the current one reaches {@code targetBytes}. */
    record ByTargetSize(long targetBytes) implements OutputCut {
        /**
         * Checks the size.
         *
         * @param targetBytes the size at which an output SSTable is closed
         * @throws IllegalArgumentException if {@code targetBytes <= 0}
         */
        public ByTargetSize {
            if (targetBytes <= 0) {
                throw new IllegalArgumentException("targetBytes must be > 0, was " + targetBytes);
            }
        }
    }

    /**
     * By target size, and also before the output would overlap more than {@code maxGrandparentOverlapBytes}
     * of the level below the output level (RocksDB's rule).
     */
    record AtGrandparentBoundaries(long targetBytes, long maxGrandparentOverlapBytes) implements OutputCut {
        /**
         * Checks the sizes.
         *
         * @param targetBytes                the size at which an output SSTable is closed
         * @param maxGrandparentOverlapBytes the most of the level below the output level one output SSTable may overlap
         * @throws IllegalArgumentException if a size is {@code <= 0}
         */
        public AtGrandparentBoundaries {
            if (targetBytes <= 0 || maxGrandparentOverlapBytes <= 0) {
                throw new IllegalArgumentException("targetBytes and maxGrandparentOverlapBytes must be > 0, were "
                        + targetBytes + " and " + maxGrandparentOverlapBytes);
            }
        }
    }

    /** By target size, and also at the round-robin cursor key, so no output straddles it. */
    record AtCursor(long targetBytes, Key cursor) implements OutputCut {
        /**
         * Checks the size and the cursor.
         *
         * @param targetBytes the size at which an output SSTable is closed
         * @param cursor      the key no output SSTable straddles
         * @throws IllegalArgumentException if {@code targetBytes <= 0} or {@code cursor} is null
         */
        public AtCursor {
            if (targetBytes <= 0) {
                throw new IllegalArgumentException("targetBytes must be > 0, was " + targetBytes);
            }
            if (cursor == null) {
                throw new IllegalArgumentException("cursor is required");
            }
        }
    }

    /** The shared {@link SingleFile} instance. */
    OutputCut SINGLE_FILE = new SingleFile();
}
