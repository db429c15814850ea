package io.lsmpolicies.lsm.events;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/**
 * Something a store did that an operator or a researcher wants to see afterwards: a flush, a merge (with the
 * policy's reason), a writer's stall, a flush held back because merging lagged, the failure that stopped the
 * store, a step of opening and recovery, a close. Each is one JSON line in the store's event log
 * ({@link EventLog}), with its kind in the field {@code "event"}, and is delivered to registered
 * {@link EventListener}s. Times are milliseconds since the epoch; durations are microseconds.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "event")
@JsonSubTypes({
    @JsonSubTypes.Type(value = StoreEvent.Flush.class, name = "flush"),
    @JsonSubTypes.Type(value = StoreEvent.Merge.class, name = "merge"),
    @JsonSubTypes.Type(value = StoreEvent.Stall.class, name = "stall"),
    @JsonSubTypes.Type(value = StoreEvent.MergeLag.class, name = "merge-lag"),
    @JsonSubTypes.Type(value = StoreEvent.Failure.class, name = "failure"),
    @JsonSubTypes.Type(value = StoreEvent.Recovery.class, name = "recovery"),
    @JsonSubTypes.Type(value = StoreEvent.Closed.class, name = "closed")
})
public sealed interface StoreEvent {
    /** {@return when it happened, milliseconds since the epoch} */
    long timeMillis();

    /**
     * A flush was installed.
     *
     * @param flush      the flush's number (1 for the store's first)
     * @param tables     the file numbers of the tables it wrote
     * @param bytes      their bytes
     * @param mergedIn   the tables a merging flush (merge order MERGE_MEMTABLE or MERGE_MEMTABLE_SMALL) folded into
     *                   them; else empty
     * @param micros     from the start of the flush to its install
     * @param components SSTables a point read may probe after it, before the merges it triggers
     */
    record Flush(long timeMillis, long flush, List<Long> tables, long bytes, List<Long> mergedIn, long micros,
            int components) implements StoreEvent {
        /**
         * Copies the lists.
         *
         * @param flush      the flush's number (1 for the store's first)
         * @param tables     the file numbers of the tables it wrote
         * @param bytes      their bytes
         * @param mergedIn   the tables a merging flush (merge order MERGE_MEMTABLE or MERGE_MEMTABLE_SMALL) folded into
     *                   them; else empty
         * @param micros     from the start of the flush to its install
         * @param components SSTables a point read may probe after it, before the merges it triggers
         * @param timeMillis when it happened, milliseconds since the epoch
         */
        public Flush {
            tables = List.copyOf(tables);
            mergedIn = List.copyOf(mergedIn);
        }
    }

    /**
     * A merge job was installed.
     *
     * @param kind        REAL, TRIVIAL_MOVE or VIRTUAL
     * @param reason      the policy's reason for it
     * @param outputLevel the level its output went to
     * @param inputs      the file numbers of its inputs
     * @param outputs     the file numbers of what it installed
     * @param inputBytes  bytes of the real tables it read (0 for a move or a virtual merge)
     * @param outputBytes bytes it wrote
     * @param micros      from its start to its install
     */
    record Merge(long timeMillis, String kind, String reason, int outputLevel, List<Long> inputs,
            List<Long> outputs, long inputBytes, long outputBytes, long micros) implements StoreEvent {
        /**
         * Copies the lists.
         *
         * @param kind        REAL, TRIVIAL_MOVE or VIRTUAL
         * @param reason      the policy's reason for it
         * @param outputLevel the level its output went to
         * @param inputs      the file numbers of its inputs
         * @param outputs     the file numbers of what it installed
         * @param inputBytes  bytes of the real tables it read (0 for a move or a virtual merge)
         * @param outputBytes bytes it wrote
         * @param micros      from its start to its install
         * @param timeMillis when it happened, milliseconds since the epoch
         */
        public Merge {
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
        }
    }

    /**
     * A writer waited for a flush because too many MemTables were waiting for theirs.
     *
     * @param micros             how long it waited
     * @param immutableMemtables how many were waiting when it began to wait
     */
    record Stall(long timeMillis, long micros, int immutableMemtables) implements StoreEvent {
    }

    /**
     * A flush waited to be installed because the policy said merging lagged.
     *
     * @param micros how long it waited
     */
    record MergeLag(long timeMillis, long micros) implements StoreEvent {
    }

    /**
     * The failure that stopped the store taking writes (the first one; reads go on until it is reopened).
     *
     * @param error the failure's class and message
     */
    record Failure(long timeMillis, String error) implements StoreEvent {
    }

    /**
     * A step of opening the store: {@code opened}, {@code log-replayed}, {@code torn-tail-cut},
     * {@code empty-segment-deleted}, {@code orphans-deleted}, {@code policy-switched}, {@code recovered}.
     *
     * @param step   the step
     * @param detail what it did, in words
     */
    record Recovery(long timeMillis, String step, String detail) implements StoreEvent {
    }

    /**
     * The store was closed.
     *
     * @param detail how: flushed and closed, or closed after a failure
     */
    record Closed(long timeMillis, String detail) implements StoreEvent {
    }
}
