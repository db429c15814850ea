package io.lsmpolicies.merge.spi;

import java.util.Objects;

/**
 * The metadata of one SSTable (disk component) as a policy sees it. Immutable.
 *
 * <p>Flush indexes number the engine's flushes 1, 2, 3, ...; an SSTable produced by a flush has
 * {@code minFlushIndex == maxFlushIndex}, a merge output spans the flush indexes of its inputs. Times are
 * milliseconds since the epoch (the simulator uses the flush index as its clock).
 *
 * <p>A final class, not a record, so that a new field is not a breaking change: an SSTableInfo is made by {@link
 * #builder(long)} (or {@link #withCompacting(boolean)}), never by a constructor, and read by its accessors.
 */
public final class SSTableInfo {
    private final long id;
    private final long bytes;
    private final long entries;
    private final long tombstones;
    private final Key minKey;
    private final Key maxKey;
    private final long minSequence;
    private final long maxSequence;
    private final long minFlushIndex;
    private final long maxFlushIndex;
    private final long createdMillis;
    private final long lastAccessMillis;
    private final long oldestTombstoneMillis;
    private final int parents;
    private final boolean compacting;

    /** Value of {@link #oldestTombstoneMillis()} for an SSTable without tombstones. */
    public static final long NO_TOMBSTONE = Long.MAX_VALUE;

    private SSTableInfo(long id, long bytes, long entries, long tombstones, Key minKey, Key maxKey, long minSequence,
            long maxSequence, long minFlushIndex, long maxFlushIndex, long createdMillis, long lastAccessMillis,
            long oldestTombstoneMillis, int parents, boolean compacting) {
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
        this.id = id;
        this.bytes = bytes;
        this.entries = entries;
        this.tombstones = tombstones;
        this.minKey = minKey;
        this.maxKey = maxKey;
        this.minSequence = minSequence;
        this.maxSequence = maxSequence;
        this.minFlushIndex = minFlushIndex;
        this.maxFlushIndex = maxFlushIndex;
        this.createdMillis = createdMillis;
        this.lastAccessMillis = lastAccessMillis;
        this.oldestTombstoneMillis = oldestTombstoneMillis;
        this.parents = parents;
        this.compacting = compacting;
    }

    /** {@return the unique, stable identifier of the SSTable} */
    public long id() {
        return id;
    }

    /** {@return size on disk in bytes, {@code >= 0}} */
    public long bytes() {
        return bytes;
    }

    /** {@return number of entries (including tombstones), {@code >= 0}} */
    public long entries() {
        return entries;
    }

    /** {@return number of tombstones, {@code 0 <= tombstones <= entries}} */
    public long tombstones() {
        return tombstones;
    }

    /** {@return smallest key held, {@code minKey <= maxKey}} */
    public Key minKey() {
        return minKey;
    }

    /** {@return largest key held} */
    public Key maxKey() {
        return maxKey;
    }

    /** {@return smallest sequence number held} */
    public long minSequence() {
        return minSequence;
    }

    /** {@return largest sequence number held, {@code >= minSequence}} */
    public long maxSequence() {
        return maxSequence;
    }

    /** {@return first flush whose data this SSTable holds, {@code >= 1}} */
    public long minFlushIndex() {
        return minFlushIndex;
    }

    /** {@return last flush whose data this SSTable holds, {@code >= minFlushIndex}} */
    public long maxFlushIndex() {
        return maxFlushIndex;
    }

    /** {@return creation time} */
    public long createdMillis() {
        return createdMillis;
    }

    /** {@return last time a read touched it ({@code createdMillis} if never)} */
    public long lastAccessMillis() {
        return lastAccessMillis;
    }

    /** {@return time the oldest tombstone it holds was written, {@link #NO_TOMBSTONE} if none} */
    public long oldestTombstoneMillis() {
        return oldestTombstoneMillis;
    }

    /**
     * {@return for a virtual SSTable (delayed compaction: metadata pointing at the real SSTables it was derived
     * from; Pan et al., JCST 2017, section 3.1), the number of those real parents, {@code >= 1}; 0 for a real
     * SSTable} A virtual SSTable's {@code bytes} is an estimate: the data bytes of its parents.
     */
    public int parents() {
        return parents;
    }

    /** {@return true while the SSTable is the input of a running merge; a policy must not choose it again} */
    public boolean compacting() {
        return compacting;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SSTableInfo other)) {
            return false;
        }
        return id == other.id
                && bytes == other.bytes
                && entries == other.entries
                && tombstones == other.tombstones
                && Objects.equals(minKey, other.minKey)
                && Objects.equals(maxKey, other.maxKey)
                && minSequence == other.minSequence
                && maxSequence == other.maxSequence
                && minFlushIndex == other.minFlushIndex
                && maxFlushIndex == other.maxFlushIndex
                && createdMillis == other.createdMillis
                && lastAccessMillis == other.lastAccessMillis
                && oldestTombstoneMillis == other.oldestTombstoneMillis
                && parents == other.parents
                && compacting == other.compacting;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, bytes, entries, tombstones, minKey, maxKey, minSequence, maxSequence,
                minFlushIndex, maxFlushIndex, createdMillis, lastAccessMillis, oldestTombstoneMillis, parents,
                compacting);
    }

    @Override
    public String toString() {
        return "SSTableInfo[" + "id=" + id + ", "
                + "bytes=" + bytes + ", "
                + "entries=" + entries + ", "
                + "tombstones=" + tombstones + ", "
                + "minKey=" + minKey + ", "
                + "maxKey=" + maxKey + ", "
                + "minSequence=" + minSequence + ", "
                + "maxSequence=" + maxSequence + ", "
                + "minFlushIndex=" + minFlushIndex + ", "
                + "maxFlushIndex=" + maxFlushIndex + ", "
                + "createdMillis=" + createdMillis + ", "
                + "lastAccessMillis=" + lastAccessMillis + ", "
                + "oldestTombstoneMillis=" + oldestTombstoneMillis + ", "
                + "parents=" + parents + ", "
                + "compacting=" + compacting + "]";
    }


    /** {@return whether this is a virtual SSTable ({@code parents > 0})} */
    public boolean virtual() {
        return parents > 0;
    }

    /**
     * {@return the real SSTables a merge of this one reads: its parents if virtual, else 1 (itself)} What delayed
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

    /** {@return number of flushes whose data this SSTable holds: {@code maxFlushIndex - minFlushIndex + 1}} */
    public long flushSpan() {
        return maxFlushIndex - minFlushIndex + 1;
    }

    /**
     * {@return this SSTable with {@code compacting} set as given}
     *
     * @param value whether the SSTable is the input of a running merge
     */
    public SSTableInfo withCompacting(boolean value) {
        return new SSTableInfo(id, bytes, entries, tombstones, minKey, maxKey, minSequence, maxSequence,
                minFlushIndex, maxFlushIndex, createdMillis, lastAccessMillis, oldestTombstoneMillis, parents, value);
    }

    /**
     * {@return a builder, so that call sites name every field they set; unset fields take neutral values}
     *
     * @param id the SSTable's unique, stable identifier
     */
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

        /**
         * Sets the size in bytes (default 0).
         *
         * @param v the size, {@code >= 0}
         * @return this builder
         */
        public Builder bytes(long v) {
            bytes = v;
            return this;
        }

        /**
         * Sets the number of entries, tombstones included (default 0).
         *
         * @param v the entries, {@code >= 0}
         * @return this builder
         */
        public Builder entries(long v) {
            entries = v;
            return this;
        }

        /**
         * Sets the number of tombstones (default 0).
         *
         * @param v the tombstones, at most the entries
         * @return this builder
         */
        public Builder tombstones(long v) {
            tombstones = v;
            return this;
        }

        /**
         * Sets the key range (default: both empty).
         *
         * @param min the smallest key
         * @param max the largest key, not smaller than {@code min}
         * @return this builder
         */
        public Builder keys(Key min, Key max) {
            minKey = min;
            maxKey = max;
            return this;
        }

        /**
         * Sets the key range from UTF-8 text (tests and examples).
         *
         * @param min the smallest key
         * @param max the largest key, not smaller than {@code min}
         * @return this builder
         */
        public Builder keys(String min, String max) {
            return keys(Key.of(min), Key.of(max));
        }

        /**
         * Sets the range of sequence numbers (default 0 to 0).
         *
         * @param min the smallest sequence number
         * @param max the largest, not smaller than {@code min}
         * @return this builder
         */
        public Builder sequences(long min, long max) {
            minSequence = min;
            maxSequence = max;
            return this;
        }

        /**
         * Sets the flushes whose data the SSTable holds (default 1 to 1).
         *
         * @param min the first flush index, {@code >= 1}
         * @param max the last, not smaller than {@code min}
         * @return this builder
         */
        public Builder flushes(long min, long max) {
            minFlushIndex = min;
            maxFlushIndex = max;
            return this;
        }

        /**
         * Sets the one flush the SSTable holds the data of (a flush output).
         *
         * @param index the flush index, {@code >= 1}
         * @return this builder
         */
        public Builder flush(long index) {
            return flushes(index, index);
        }

        /**
         * Sets the creation time (default 0).
         *
         * @param v milliseconds since the epoch (the simulator: the flush index)
         * @return this builder
         */
        public Builder createdMillis(long v) {
            createdMillis = v;
            return this;
        }

        /**
         * Sets the last access time (default: the creation time).
         *
         * @param v milliseconds since the epoch
         * @return this builder
         */
        public Builder lastAccessMillis(long v) {
            lastAccessMillis = v;
            return this;
        }

        /**
         * Sets the write time of the oldest tombstone (default {@link #NO_TOMBSTONE}).
         *
         * @param v milliseconds since the epoch
         * @return this builder
         */
        public Builder oldestTombstoneMillis(long v) {
            oldestTombstoneMillis = v;
            return this;
        }

        /**
         * Makes the SSTable virtual, derived from {@code n} real parents (0, the default: a real SSTable).
         *
         * @param n the real parents, {@code >= 0}
         * @return this builder
         */
        public Builder parents(int n) {
            parents = n;
            return this;
        }

        /**
         * Marks the SSTable as the input of a running merge (default false).
         *
         * @param v whether it is
         * @return this builder
         */
        public Builder compacting(boolean v) {
            compacting = v;
            return this;
        }

        /**
         * {@return the SSTableInfo}
         *
         * @throws IllegalArgumentException naming the SSTable, the rule and the value, if a field is out of range
         */
        public SSTableInfo build() {
            long access = lastAccessMillis == Long.MIN_VALUE ? createdMillis : lastAccessMillis;
            return new SSTableInfo(id, bytes, entries, tombstones, minKey, maxKey, minSequence, maxSequence,
                    minFlushIndex, maxFlushIndex, createdMillis, access, oldestTombstoneMillis, parents, compacting);
        }
    }
}
