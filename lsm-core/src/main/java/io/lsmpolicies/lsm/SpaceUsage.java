package io.lsmpolicies.lsm;

/**
 * Space amplification of one consistent view of the store (docs/architecture.md): (bytes of SSTables on disk -
 * bytes of live entries) / bytes of live entries, where live entries are the newest visible version of every
 * key that is not deleted, counted as key plus value bytes. Writes still in MemTables count as live but not
 * on disk, so flush first for the number of the disk alone.
 *
 * @param sstableBytes       bytes of the view's SSTable files
 * @param liveEntries        keys with a live value
 * @param liveBytes          their key and value bytes
 * @param spaceAmplification {@code (sstableBytes - liveBytes) / liveBytes}; NaN when nothing is live
 */
public record SpaceUsage(long sstableBytes, long liveEntries, long liveBytes, double spaceAmplification) {
}
