package io.lsmpolicies.feeds;

import java.io.IOException;

/**
 * A partition's store cannot serve the operation: it failed to open, it stopped taking writes after a failure
 * (reads go on), or it is being reopened. The message names the partition (dataset, index, directory), the cause
 * and how the partition comes back; the dataset's other partitions are not affected.
 */
public final class PartitionUnavailableException extends IOException {
    /** The dataset's name. */
    private final String dataset;
    /** The partition's index in its dataset. */
    private final int partition;
    /** Whether the partition's store was open for writing and stopped taking writes. */
    private final boolean storeFailed;

    /**
     * A partition that cannot serve an operation.
     *
     * @param dataset     the dataset's name
     * @param partition   the partition's index in its dataset
     * @param message     the full message: the partition, the cause and how it comes back
     * @param storeFailed whether the partition's store was open for writing and stopped taking writes
     * @param cause       the store's failure, or null
     */
    public PartitionUnavailableException(String dataset, int partition, String message, boolean storeFailed,
            Throwable cause) {
        super(message, cause);
        this.dataset = dataset;
        this.partition = partition;
        this.storeFailed = storeFailed;
    }

    /**
     * Whether the partition's store, open for writing, stopped taking writes after a failure (rather than: no store
     * could be opened for writing, or it is being reopened).
     *
     * @return whether the store failed
     */
    public boolean storeFailed() {
        return storeFailed;
    }

    /** {@return the dataset's name} */
    public String dataset() {
        return dataset;
    }

    /** {@return the partition's index in its dataset} */
    public int partition() {
        return partition;
    }
}
