package io.lsmpolicies.merge.spi;

/**
 * The shape of tree a policy decides on, which tells who can run it. Not to be confused with the data-layout
 * primitive of a compaction strategy (leveling, tiering, ...): this says which {@link TreeView} the policy
 * expects.
 */
public enum PolicyLayout {
    /**
     * One level 0 whose runs hold one SSTable each, newest first; every job is a real merge of contiguous
     * SSTables into one level-0 SSTable (Mao et al.'s stack model). The engine and the simulator run these.
     */
    STACK,
    /**
     * Levels L0..Ln: L0 holds overlapping flushed SSTables (newest first), every deeper level one sorted run of
     * non-overlapping SSTables; jobs move data between levels, may be trivial moves and cut their output into
     * several files. Only the engine runs these.
     */
    LEVELED
}
