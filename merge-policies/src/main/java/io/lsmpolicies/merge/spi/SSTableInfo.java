package io.lsmpolicies.merge.spi;

/**
 * The metadata of one SSTable (disk component) as a policy sees it. Immutable.
 *
 * <p>Flush indexes number the engine's flushes 1, 2, 3, ...; an SSTable produced by a flush has
 * {@code minFlushIndex == maxFlushIndex}, a merge output spans the flush indexes of its inputs. Times are
 * milliseconds since the epoch (the simulator uses the flush index as its clock).
 *
 * @param id                    unique, stable identifier of the SSTable
 * @param bytes                 size on disk in bytes, {@code >= 0}
 * @param entries               number of entries (including tombstones), {@code >= 0}
 * @param tombstones            number of tombstones, {@code 0 <= tombstones <= entries}
 * @param minKey                smallest key held, {@code minKey <= maxKey}
 * @param maxKey                largest key held
 * @param minSequence           smallest sequence number held
 * @param maxSequence           largest sequence number held, {@code >= minSequence}
 * @param minFlushIndex         first flush whose data this SSTable holds, {@code >= 1}
 * @param maxFlushIndex         last flush whose data this SSTable holds, {@code >= minFlushIndex}
 * @param createdMillis         creation time
 * @param lastAccessMillis      last time a read touched it ({@code createdMillis} if never)
 * @param oldestTombstoneMillis time the oldest tombstone it holds was written, {@link #NO_TOMBSTONE} if none
 * @param parents               for a virtual SSTable (delayed compaction: metadata pointing at the real SSTables it
 *                              was derived from; Pan et al., JCST 2017, section 3.1), the number of those real
 *                              parents, {@code >= 1}; 0 for a real SSTable. A virtual SSTable's {@code bytes} is
 *                              an estimate: the data bytes of its parents
 * @param compacting            true while the SSTable is the input of a running merge; a policy must not
 *                              choose it again
 */
public record SSTableInfo(
        long id,
        long bytes,
        long entries,
        long tombstones,
        Key minKey,
        Key maxKey,
        long minSequence,
        long maxSequence,
        long minFlushIndex,
        long maxFlushIndex,
        long createdMillis,
        long lastAccessMillis,
        long oldestTombstoneMillis,
        int parents,
        boolean compacting) {

    /** Value of {@link #oldestTombstoneMillis()} for an SSTable without tombstones. */
    public static final long NO_TOMBSTONE = Long.MAX_VALUE;

    public SSTableInfo {
        check(bytes >= 0, "bytes must be >= 0", id, bytes);
        check(entries >= 0, "entries must be >= 0", id, entries);
        check(tombstones >= 0 && tombstones <= entries, "tombstones must be in [0, entries]", id, tombstones);
        if (minKey == null || maxKey == null) {
            throw new IllegalArgumentException("SSTable " + id + ": minKey and maxKey are required");
        }
        if (minKey.compareTo(maxKey) > 0) {
            throw new IllegalArgumentException(
                    "SSTable " + id + ": minKey " + minKey + " is greater than maxKey " + maxKey);
        }
        check(minSequence <= maxSequence, "minSequence must be <= maxSequence", id, minSequence);
        check(minFlushIndex >= 1, "minFlushIndex must be >= 1", id, minFlushIndex);
        check(minFlushIndex <= maxFlushIndex, "minFlushIndex must be <= maxFlushIndex", id, minFlushIndex);
        check(parents >= 0, "parents must be >= 0", id, parents);
    }

    /** Whether this is a virtual SSTable ({@code parents > 0}). */
    public boolean virtual() {
        return parents > 0;
    }

    /**
     * The real SSTables a merge of this one reads: its parents if virtual, else 1 (itself). What delayed
     * compaction's VCT counts.
     */
    public int realTables() {
        return parents > 0 ? parents : 1;
    }

    private static void check(boolean ok, String rule, long id, long value) {
        if (!ok) {
            throw new IllegalArgumentException("SSTable " + id + ": " + rule + " (was " + value + ")");
        }
    }

    /** Number of flushes whose data this SSTable holds: {@code maxFlushIndex - minFlushIndex + 1}. */
    public long flushSpan() {
        return maxFlushIndex - minFlushIndex + 1;
    }

    /** This SSTable with {@code compacting} set as given. */
    public SSTableInfo withCompacting(boolean value) {
        return new SSTableInfo(id, bytes, entries, tombstones, minKey, maxKey, minSequence, maxSequence,
                minFlushIndex, maxFlushIndex, createdMillis, lastAccessMillis, oldestTombstoneMillis, parents, value);
    }

    /** A builder, so that call sites name every field they set; unset fields take neutral values. */
    public static Builder builder(long id) {
        return new Builder(id);
    }

    /** Builder of {@link SSTableInfo}; defaults: empty keys, no tombstones, flush index 1, real (no parents). */
    public static final class Builder {
        private final long id;
        private long bytes;
        private long entries;
        private long tombstones;
        private Key minKey = Key.EMPTY;
        private Key maxKey = Key.EMPTY;
        private long minSequence;
        private long maxSequence;
        private long minFlushIndex = 1;
        private long maxFlushIndex = 1;
        private long createdMillis;
        private long lastAccessMillis = Long.MIN_VALUE;
        private long oldestTombstoneMillis = NO_TOMBSTONE;
        private int parents;
        private boolean compacting;

        private Builder(long id) {
            this.id = id;
        }

        public Builder bytes(long v) { bytes = v; return this; }
        public Builder entries(long v) { entries = v; return this; }
        public Builder tombstones(long v) { tombstones = v; return this; }
        public Builder keys(Key min, Key max) { minKey = min; maxKey = max; return this; }
        public Builder keys(String min, String max) { return keys(Key.of(min), Key.of(max)); }
        public Builder sequences(long min, long max) { minSequence = min; maxSequence = max; return this; }
        public Builder flushes(long min, long max) { minFlushIndex = min; maxFlushIndex = max; return this; }
        public Builder flush(long index) { return flushes(index, index); }
        public Builder createdMillis(long v) { createdMillis = v; return this; }
        public Builder lastAccessMillis(long v) { lastAccessMillis = v; return this; }
        public Builder oldestTombstoneMillis(long v) { oldestTombstoneMillis = v; return this; }
        /** A virtual SSTable derived from {@code n} real parents (0: a real SSTable, the default). */
        public Builder parents(int n) { parents = n; return this; }
        public Builder compacting(boolean v) { compacting = v; return this; }

        public SSTableInfo build() {
            long access = lastAccessMillis == Long.MIN_VALUE ? createdMillis : lastAccessMillis;
            return new SSTableInfo(id, bytes, entries, tombstones, minKey, maxKey, minSequence, maxSequence,
                    minFlushIndex, maxFlushIndex, createdMillis, access, oldestTombstoneMillis, parents, compacting);
        }
    }
}
