package io.lsmpolicies.feeds;

import java.io.IOException;

/**
 * A partition's store cannot serve the operation: it failed to open, it stopped taking writes after a failure
 * (reads go on), or it is being reopened. The message names the partition (dataset, index, directory), the cause
 * and how the partition comes back; the dataset's other partitions are not affected.
 */
public final class PartitionUnavailableException extends IOException {
    private final String dataset;
    private final int partition;
    private final boolean storeFailed;

    /** @param storeFailed whether the partition's store was open for writing and stopped taking writes */
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
     */
    public boolean storeFailed() {
        return storeFailed;
    }

    public String dataset() {
        return dataset;
    }

    /** The partition's index in its dataset. */
    public int partition() {
        return partition;
    }
}
