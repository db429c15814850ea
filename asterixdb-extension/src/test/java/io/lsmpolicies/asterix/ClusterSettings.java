package io.lsmpolicies.asterix;

/**
 * How an {@link EmbeddedAsterixDb} is laid out and sized; values are AsterixDB {@code cc.conf} sizes
 * ({@code 32KB}, {@code 4MB}).
 *
 * @param nodes            NCs, {@code >= 1}
 * @param ioDevicesPerNode iodevices (storage partitions) per NC, {@code >= 1}
 * @param pageSize         buffer-cache and memory-component page size
 * @param bufferCache      disk buffer cache per NC
 * @param memoryBudget     memory-component budget per NC ({@code storage.memorycomponent.globalbudget}): all
 *                         datasets share it, and a full budget flushes one
 * @param lsmPolicies      whether the NCs run {@link LsmPoliciesNCApplication} and
 *                         {@link LsmPoliciesMetadataExtension} is enabled; {@code false} for a stock cluster
 *                         (AsterixDB's own {@code NCApplication}, no extension section)
 */
public record ClusterSettings(int nodes, int ioDevicesPerNode, String pageSize, String bufferCache,
                              String memoryBudget, boolean lsmPolicies) {

    public ClusterSettings {
        if (nodes < 1 || ioDevicesPerNode < 1 || pageSize == null || bufferCache == null || memoryBudget == null) {
            throw new IllegalArgumentException("need at least one node, one iodevice per node and every size");
        }
    }
}
