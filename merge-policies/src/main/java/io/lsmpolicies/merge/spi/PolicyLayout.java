package io.lsmpolicies.merge.spi;

/**
 * The shape of tree a policy decides on, which tells who can run it. Not to be confused with the data-layout
 * primitive of a compaction strategy (leveling, tiering, ...): this says which {@link TreeView} the policy
 * expects.
 */
public enum PolicyLayout {
    /**
     * One level 0 whose runs are the components, newest first (one SSTable each, or the key-disjoint files of
     * a merge the engine split by key); every job is a real merge of contiguous components into one level-0
     * component (Mao et al.'s stack model). The engine and the simulator run these.
     */
    STACK,
    /**
     * Levels L0..Ln: L0 holds overlapping flushed SSTables (newest first), every deeper level one sorted run of
     * non-overlapping SSTables; jobs move data between levels, may be trivial moves and cut their output into
     * several files. Only the engine runs these.
     */
    LEVELED
}
